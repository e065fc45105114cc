/** The approval state machine's rules, without a server or a database. */
import { describe, expect, it } from "vitest";
import { BrokerError } from "../errors.js";
import { DEFAULT_REQUIREMENT, type Approval } from "./approval.js";
import { assertUsable, mismatchOf, visibleStatus, type ExactCall } from "./approval-rules.js";

const NOW = new Date("2026-05-01T12:00:00.000Z");
const LATER = "2026-05-02T12:00:00.000Z";
const EARLIER = "2026-05-01T11:00:00.000Z";

const approval = (overrides: Partial<Approval> = {}): Approval => ({
  id: "ap-1",
  tenantId: "t",
  env: "test",
  agentAppId: "app",
  invocationId: "inv-1",
  toolName: "scm.delete_repository",
  provider: "scm",
  connectionId: "conn",
  secretItemId: null,
  argumentsFingerprint: "fp",
  argumentsRedacted: {},
  status: "approved",
  ruleId: null,
  reason: null,
  decidedBy: "op",
  decidedAt: EARLIER,
  consumedAt: null,
  requestedAt: EARLIER,
  expiresAt: LATER,
  requirement: DEFAULT_REQUIREMENT,
  edit: null,
  remindedAt: null,
  expiryAnnouncedAt: null,
  endUserId: null,
  ...overrides,
});

const exactCall = (overrides: Partial<ExactCall> = {}): ExactCall => ({
  tenantId: "t",
  env: "test",
  agentAppId: "app",
  endUserId: null,
  toolName: "scm.delete_repository",
  connectionId: "conn",
  secretItemId: null,
  argumentsFingerprint: "fp",
  ...overrides,
});

const codeOf = (run: () => void) => {
  try {
    run();
    return "usable";
  } catch (error) {
    return (error as BrokerError).code;
  }
};

describe("assertUsable", () => {
  it.each([
    ["pending", LATER, "approval_pending"],
    ["pending", EARLIER, "approval_expired"],
    ["approved", LATER, "usable"],
    ["approved", EARLIER, "approval_expired"],
    ["denied", LATER, "policy_denied"],
    ["expired", LATER, "approval_expired"],
    ["consumed", LATER, "approval_already_used"],
  ] as const)("answers a %s approval expiring %s with %s", (status, expiresAt, expected) => {
    expect(codeOf(() => assertUsable(approval({ status, expiresAt }), NOW))).toBe(expected);
  });

  it("names the approval and its invocation in every refusal", () => {
    try {
      assertUsable(approval({ status: "pending" }), NOW);
    } catch (error) {
      expect((error as BrokerError).details).toMatchObject({ approval_id: "ap-1", invocation_id: "inv-1" });
    }
  });
});

describe("visibleStatus", () => {
  it("reads pending and approved approvals past their expiry as expired, and leaves decided ones alone", () => {
    expect(visibleStatus(approval({ status: "pending", expiresAt: EARLIER }), NOW)).toBe("expired");
    expect(visibleStatus(approval({ status: "approved", expiresAt: EARLIER }), NOW)).toBe("expired");
    expect(visibleStatus(approval({ status: "consumed", expiresAt: EARLIER }), NOW)).toBe("consumed");
    expect(visibleStatus(approval({ status: "denied", expiresAt: EARLIER }), NOW)).toBe("denied");
    expect(visibleStatus(approval({ status: "pending" }), NOW)).toBe("pending");
  });
});

describe("mismatchOf", () => {
  it("accepts exactly the approved call", () => {
    expect(mismatchOf(approval(), exactCall())).toBeUndefined();
  });

  it.each([
    ["env", { env: "live" }],
    ["agent_app", { agentAppId: "other-app" }],
    ["end_user", { endUserId: "alice" }],
    ["tool", { toolName: "scm.create_issue" }],
    ["credential", { connectionId: "other" }],
    ["credential", { connectionId: null, secretItemId: "item" }],
    ["arguments", { argumentsFingerprint: "other" }],
  ] as const)("refuses a call with another %s", (what, change) => {
    const error = mismatchOf(approval(), exactCall(change));
    expect(error?.code).toBe("approval_mismatch");
    expect(error?.details).toEqual({ mismatch: what });
  });

  it("refuses a call for no end user when the approval was for one", () => {
    expect(mismatchOf(approval({ endUserId: "alice" }), exactCall())?.details).toEqual({ mismatch: "end_user" });
  });

  it("accepts the call as requested or as an approver edited it, and nothing else", () => {
    const edit = { argumentsSealed: "sealed", argumentsRedacted: {}, argumentsFingerprint: "edited", changes: [], editedBy: "member", editedAt: NOW.toISOString() };
    const edited = approval({ edit });
    expect(mismatchOf(edited, exactCall())).toBeUndefined();
    expect(mismatchOf(edited, exactCall({ argumentsFingerprint: "edited" }))).toBeUndefined();
    expect(mismatchOf(edited, exactCall({ argumentsFingerprint: "other" }))?.details).toEqual({ mismatch: "arguments" });
    expect(mismatchOf(approval(), exactCall({ argumentsFingerprint: "edited" }))?.details).toEqual({ mismatch: "arguments" });
  });
});
