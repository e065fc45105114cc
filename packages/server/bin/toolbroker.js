#!/usr/bin/env node
// In a checkout the TypeScript source runs through tsx, so `npm start` never runs a stale build;
// an installed package without sources runs the compiled output of `npm run build`.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = new URL("../src/cli.ts", import.meta.url);
if (existsSync(fileURLToPath(source))) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(source.href);
} else {
  await import(new URL("../dist/cli.js", import.meta.url).href);
}
