/** The heap growth flag (src/heap-growth.ts) is one this Node's V8 knows: it asks a child `node`. */
import { execFileSync } from "node:child_process";
import { expect, it } from "vitest";

it("is accepted by this V8 (an unknown flag would be ignored silently, so check the name)", () => {
  expect(execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" })).toContain("--heap-growing-percent");
});
