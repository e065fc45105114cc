import { describe, expect, it } from "vitest";
import { argumentChanges } from "./argument-changes.js";

describe("argumentChanges", () => {
  it("lists changed, removed and added keys as JSON pointers, nested objects key by key", () => {
    const before = { to: ["a@x.io", "b@x.io"], subject: "Hi", body: { text: "x", html: "<p>x</p>" }, cc: "c@x.io" };
    const after = { to: ["a@x.io"], subject: "Hi", body: { text: "y", html: "<p>x</p>" }, "a/b": 1 };
    expect(argumentChanges(before, after)).toEqual([
      { path: "/a~1b", to: 1 },
      { path: "/body/text", from: "x", to: "y" },
      { path: "/cc", from: "c@x.io" },
      { path: "/to", from: ["a@x.io", "b@x.io"], to: ["a@x.io"] },
    ]);
  });

  it("finds nothing between equal values whatever their key order", () => {
    expect(argumentChanges({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
  });
});
