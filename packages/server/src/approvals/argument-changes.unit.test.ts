import { describe, expect, it } from "vitest";
import { fingerprint } from "../shared/canonical-json.js";
import { redactArguments } from "../tools/scrub.js";
import { argumentChanges, shownChanges } from "./argument-changes.js";

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

/** What the approval, the agent's result and the audit log are shown (see tools/approval-edit-check.ts). */
const shown = (before: Record<string, unknown>, after: Record<string, unknown>) => shownChanges(before, after, redactArguments(before), redactArguments(after));

describe("shownChanges: an edit of a credential-like argument", () => {
  // Security review of issue 39: both values of an edited `password` redact alike, so changes read
  // from the redacted copies were empty while the digest differed; the other approvers, the agent
  // and the audit log were told nothing changed.
  it("names the path it changed, without either value", () => {
    const requested = { file_id: "123", access: "open", password: "agent-chose-this" };
    const edited = { file_id: "123", access: "open", password: "approver-a-knows-this" };
    expect(fingerprint(requested)).not.toBe(fingerprint(edited));
    expect(shown(requested, edited)).toEqual([{ path: "/password", from: "[redacted]", to: "[redacted]" }]);
  });

  it("keeps presence: a removed credential has no `to`, an added one no `from`", () => {
    expect(shown({ topic: "a", session_id: "s1" }, { topic: "a", api_key: "k2" })).toEqual([
      { path: "/api_key", to: "[redacted]" },
      { path: "/session_id", from: "[redacted]" },
    ]);
  });

  it("shows a change inside a field redacted as a whole (a credential-like object) as that field's marker", () => {
    const before = { auth: { user: "ada", token: "t-1" }, title: "x" };
    const after = { auth: { user: "ada", token: "t-2" }, title: "y" };
    expect(shown(before, after)).toEqual([
      { path: "/auth/token", from: "[redacted]", to: "[redacted]" },
      { path: "/title", from: "x", to: "y" },
    ]);
  });

  it("shows ordinary values as they are, and arrays as a whole with their credential-like fields redacted", () => {
    const before = { to: [{ email: "a@x.io", password: "p1" }], subject: "Hi" };
    const after = { to: [{ email: "b@x.io", password: "p1" }], subject: "Hi" };
    expect(shown(before, after)).toEqual([
      { path: "/to", from: [{ email: "a@x.io", password: "[redacted]" }], to: [{ email: "b@x.io", password: "[redacted]" }] },
    ]);
  });
});
