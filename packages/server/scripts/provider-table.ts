/**
 * Writes the table of built-in providers in docs/catalogue.md (id, name, auth, tools, environment
 * variables, aliases) from their declarations. `--check` exits 1 when the page is stale instead.
 *
 *   npm run provider-table -w @toolbroker/server
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { withProviderTable } from "../src/providers/provider-table.js";

const PAGE = fileURLToPath(new URL("../../../docs/catalogue.md", import.meta.url));
const current = readFileSync(PAGE, "utf8");
const wanted = withProviderTable(current);
if (process.argv.includes("--check")) {
  if (wanted !== current) {
    console.error("docs/catalogue.md's provider table is stale: run npm run provider-table -w @toolbroker/server");
    process.exit(1);
  }
} else if (wanted !== current) {
  writeFileSync(PAGE, wanted);
  console.log("docs/catalogue.md: provider table written");
} else {
  console.log("docs/catalogue.md: provider table already current");
}
