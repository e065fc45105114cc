import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkLayering } from "../scripts/layering.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/layering", import.meta.url));

describe("the layering lint (npm run lint)", () => {
  it("fails on an upward import, a cycle of type-only imports and a cycle between folders", async () => {
    const { brokenRules, folderCycles, report } = await checkLayering(FIXTURE);
    expect(brokenRules).toEqual(["no-circular", "no-upward-from-store-and-http"]);
    expect(report).toContain("src/store/reads-a-door.ts → src/tools/door.ts");
    expect(folderCycles.map((cycle) => cycle.folders)).toEqual([["metering", "usage"]]);
    expect(folderCycles[0]!.imports).toEqual([
      "metering → usage (src/metering/metered-period.ts → src/usage/usage-period.ts)",
      "usage → metering (src/usage/usage-report.ts → src/metering/meter.ts)",
    ]);
  });
});
