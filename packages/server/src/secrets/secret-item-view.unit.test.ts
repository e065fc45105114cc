import { describe, expect, it } from "vitest";
import { hintOf } from "./secret-item-view.js";

describe("a secret item's value_hint", () => {
  it("is the last four characters of a value of 16 or more, and null for a shorter one", () => {
    expect(hintOf("lin_api_0123456789abcdef")).toBe("cdef");
    expect(hintOf("lin_api_short")).toBeNull();
  });

  it("never gives away a short password behind a long Basic user name (user:password)", () => {
    expect(hintOf("someone.with.a.long.name@example.com:abcd")).toBeNull();
    expect(hintOf("someone@example.com:a-long-enough-password-1234")).toBe("1234");
  });
});
