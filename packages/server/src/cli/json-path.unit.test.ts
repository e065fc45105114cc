import { describe, expect, it } from "vitest";
import { valueAt } from "./json-path.js";

describe("toolbroker api -q paths", () => {
  const answer = { data: [{ approval_id: "a1" }], error: { details: { "odd key": 2 } }, zero: 0, none: null };

  it("finds nested fields, array items, quoted keys and the whole value", () => {
    expect(valueAt(answer, ".data[0].approval_id")).toEqual({ found: true, value: "a1" });
    expect(valueAt(answer, '.error.details["odd key"]')).toEqual({ found: true, value: 2 });
    expect(valueAt(answer, ".zero")).toEqual({ found: true, value: 0 });
    expect(valueAt(answer, ".none")).toEqual({ found: true, value: null });
    expect(valueAt(answer, ".")).toEqual({ found: true, value: answer });
  });

  it("reports a missing value, a path into a scalar, an inherited property and a path without a leading dot as not found", () => {
    for (const path of [".data[1].approval_id", ".zero.x", ".constructor", ".data.__proto__", "data"]) expect(valueAt(answer, path), path).toEqual({ found: false });
  });
});
