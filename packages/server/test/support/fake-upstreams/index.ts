/** The tests' fake vendors are the sandbox providers `npm run demo` starts (src/sandbox). */
export * from "../../../src/sandbox/index.js";
