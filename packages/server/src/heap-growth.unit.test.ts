import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";
import { limitHeapGrowth } from "./heap-growth.js";

describe("heap growth", () => {
  it("sets V8's growing factor, and leaves V8's own choice at 0", () => {
    const flags: string[] = [];
    limitHeapGrowth(25, (flag) => flags.push(flag));
    limitHeapGrowth(0, (flag) => flags.push(flag));
    expect(flags).toEqual(["--heap-growing-percent=25"]);
  });

  it("is 25 % unless BROKER_HEAP_GROWTH_PERCENT says otherwise, within 0 – 400", () => {
    expect(loadConfig({}).heapGrowthPercent).toBe(25);
    expect(loadConfig({ BROKER_HEAP_GROWTH_PERCENT: "0" }).heapGrowthPercent).toBe(0);
    expect(() => loadConfig({ BROKER_HEAP_GROWTH_PERCENT: "401" })).toThrow(/BROKER_HEAP_GROWTH_PERCENT/);
    expect(() => loadConfig({ BROKER_HEAP_GROWTH_PERCENT: "-1" })).toThrow(/BROKER_HEAP_GROWTH_PERCENT/);
  });
});
