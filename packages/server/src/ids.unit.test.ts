import { describe, expect, it } from "vitest";
import { isUuid, uuidv7 } from "./ids.js";

describe("uuidv7", () => {
  it("writes version 7 with the RFC 9562 variant and the given millisecond timestamp in front", () => {
    const at = Date.parse("2026-11-25T10:00:00.123Z");
    const id = uuidv7(at);
    expect(isUuid(id)).toBe(true);
    expect(id[14]).toBe("7");
    expect("89ab").toContain(id[19]);
    expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(at);
  });

  it("sorts ids of later milliseconds after earlier ones", () => {
    const at = Date.now();
    const ids = [uuidv7(at + 2), uuidv7(at), uuidv7(at + 1)];
    expect([...ids].sort()).toEqual([ids[1], ids[2], ids[0]]);
  });

  it("never repeats, across refills of the random pool", () => {
    const at = Date.now();
    const ids = Array.from({ length: 5_000 }, () => uuidv7(at));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
