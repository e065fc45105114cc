#!/usr/bin/env node
/**
 * `npm run inspect -- <broker>/mcp --transport http --header "Authorization: Bearer $JWT" --method tools/list`
 *
 * Runs the MCP Inspector's command-line client (`@modelcontextprotocol/inspector-cli`, a dev
 * dependency) the one way it works when installed on its own, as it is here:
 *
 * - its `mcp-inspector-cli` bin (what `npx @modelcontextprotocol/inspector-cli` runs) starts the
 *   Inspector's web UI unless given `--cli`, from `../../client/bin/start.js`. Inside the full
 *   `@modelcontextprotocol/inspector` package that is the UI; beside it in node_modules it is the MCP
 *   SDK's own `@modelcontextprotocol/client` package, which has no such file, hence the crash;
 * - its CLI reads its own package.json through a path relative to the working directory, so it
 *   fails from any folder but its own `build/`.
 *
 * So this runs `build/index.js` from `build/`, passing the arguments on (a leading `--cli` from the
 * `npx` habit is dropped), and exits with its status.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const packageJson = createRequire(import.meta.url).resolve("@modelcontextprotocol/inspector-cli/package.json");
const buildDir = join(dirname(packageJson), "build");
const args = process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === "--cli"));

const child = spawn(process.execPath, [join(buildDir, "index.js"), ...args], { cwd: buildDir, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
