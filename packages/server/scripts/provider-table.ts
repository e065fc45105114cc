/**
 * Writes the README's table of built-in providers (id, name, auth, tools, environment variables,
 * aliases) from their declarations. `--check` exits 1 when the README is stale instead.
 *
 *   npm run provider-table -w @toolbroker/server
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withProviderTable } from "../src/providers/provider-table.js";

const README = fileURLToPath(new URL("../../../README.md", import.meta.url));
const current = readFileSync(README, "utf8");
const wanted = withProviderTable(current);
if (process.argv.includes("--check")) {
  if (wanted !== current) {
    console.error("README.md's provider table is stale: run npm run provider-table -w @toolbroker/server");
    process.exit(1);
  }
} else if (wanted !== current) {
  writeFileSync(README, wanted);
  console.log("README.md: provider table written");
} else {
  console.log("README.md: provider table already current");
}
