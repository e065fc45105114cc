/**
 * Writes the hot path's statements, compiled from their Kysely builders (src/store/hot-statements.ts),
 * into src/store/sql/{sqlite,postgres}.ts. `--check` fails instead when a file differs.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderHotStatements } from "../src/store/hot-statements.js";

const check = process.argv.includes("--check");
let stale = 0;
for (const kind of ["sqlite", "postgres"] as const) {
  const file = fileURLToPath(new URL(`../src/store/sql/${kind}.ts`, import.meta.url));
  const text = renderHotStatements(kind);
  const current = (() => {
    try {
      return readFileSync(file, "utf8");
    } catch {
      return undefined;
    }
  })();
  if (current === text) continue;
  if (check) {
    console.error(`${file} differs from what src/store/hot-statements.ts compiles: run npm run generate:sql -w @toolbroker/server`);
    stale += 1;
  } else {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
  }
}
process.exitCode = stale ? 1 : 0;
