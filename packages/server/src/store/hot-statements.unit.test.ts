import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { renderHotStatements } from "./hot-statements.js";

// The runtime runs only the checked-in text (store/prepared.ts); it must be what the builders compile.
it.each(["sqlite", "postgres"] as const)("the checked-in %s statements are what their Kysely builders compile (npm run generate:sql -w @toolbroker/server)", (kind) => {
  expect(readFileSync(new URL(`./sql/${kind}.ts`, import.meta.url), "utf8")).toBe(renderHotStatements(kind));
});
