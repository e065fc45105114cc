/** The lifecycle's rules, without a server or a database. */
import { describe, expect, it } from "vitest";
import { BrokerError } from "../errors.js";
import { keepsIdempotencyKey, parseStoredOutcome, settle, storedOutcomeOf, transitions, type CallDescription, type CallOutcome } from "./invocation-states.js";

const call = (overrides: Partial<CallDescription> = {}): CallDescription => ({
  caller: { kind: "agent_app", tenantId: "t", env: "test", agentAppId: "a", endUserId: null },
  invocationId: "i-1",
  toolName: "scm.create_issue",
  provider: "scm",
  connectionId: "c",
  secretItemId: null,
  argumentsRedacted: {},
  argumentsFingerprint: "f",
  requestFingerprint: null,
  approvalId: null,
  idempotency: { tenantId: "t", env: "test", agentAppId: "a", endUserId: null, key: "k" },
  existing: false,
  channel: "rest",
  ...overrides,
});

const upstreamError = new BrokerError("upstream_error", "GitHub answered 500", { upstream_status: 500 });
const failed = (requestMayHaveLeft: boolean, error = upstreamError): CallOutcome => ({ kind: "failed", error, upstreamStatus: requestMayHaveLeft ? 500 : null, latencyMs: null, requestMayHaveLeft });

describe("the idempotency key rule", () => {
  it("keeps a success and any failure whose request may have left; releases the rest", () => {
    expect(keepsIdempotencyKey({ kind: "succeeded", result: {}, upstreamStatus: 200, latencyMs: 1 })).toBe(true);
    expect(keepsIdempotencyKey(failed(true))).toBe(true);
    expect(keepsIdempotencyKey(failed(false))).toBe(false);
  });

  it("does not decide from the error code: an upstream_error that never left releases the key", () => {
    expect(transitions.finished(call(), failed(false)).idempotencyKey).toBe("release");
    expect(transitions.finished(call(), failed(true, new BrokerError("vault_unavailable", "x"))).idempotencyKey).toBe("keep");
  });

  it("releases the key of refusals and approval requests, marks a send as sending, and says nothing without a key", () => {
    const error = new BrokerError("invalid_tool_args", "bad");
    expect(transitions.rejected(call(), error).idempotencyKey).toBe("release");
    expect(transitions.denied(call(), new BrokerError("policy_denied", "no")).idempotencyKey).toBe("release");
    expect(transitions.awaitingApproval(call()).idempotencyKey).toBe("release");
    expect(transitions.sending(call()).idempotencyKey).toBe("sending");
    expect(transitions.finished(call({ idempotency: undefined }), failed(true)).idempotencyKey).toBeUndefined();
  });
});

describe("transitions", () => {
  it("records the upstream status only when the upstream answered", () => {
    expect(transitions.rejected(call(), new BrokerError("not_found", "x"))).toMatchObject({ status: "rejected", upstreamStatus: null, outcome: undefined });
    expect(transitions.finished(call(), failed(true))).toMatchObject({ status: "failed", errorCode: "upstream_error", upstreamStatus: 500 });
    expect(transitions.sending(call())).toMatchObject({ status: "sending", outcome: undefined, errorCode: null });
  });

  it("stores a failure with the invocation id in its details", () => {
    const stored = storedOutcomeOf(call(), failed(true));
    expect(stored).toEqual({ kind: "error", status: 502, code: "upstream_error", message: "GitHub answered 500", details: { upstream_status: 500, invocation_id: "i-1" } });
  });
});

describe("settling an outcome", () => {
  it("returns a stored result and raises a stored error again, marked as replayed when it is one", () => {
    expect(settle({ kind: "result", status: 200, invocation_id: "i-1", result: { ok: 1 } }, { replayed: true })).toEqual({ invocation_id: "i-1", result: { ok: 1 } });
    const stored = storedOutcomeOf(call(), failed(true));
    try {
      settle(stored, { replayed: true });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BrokerError);
      expect(error).toMatchObject({ code: "upstream_error", status: 502, headers: { "idempotent-replayed": "true" } });
    }
  });

  it("reads outcomes stored before they had a kind ({status, body})", () => {
    expect(parseStoredOutcome(JSON.stringify({ status: 200, body: { invocation_id: "i-0", result: [1] } }))).toEqual({ kind: "result", status: 200, invocation_id: "i-0", result: [1] });
    const legacyError = { status: 502, body: { ok: false, error: { code: "upstream_error", message: "m", details: { upstream_status: 500 } } } };
    expect(parseStoredOutcome(JSON.stringify(legacyError))).toEqual({ kind: "error", status: 502, code: "upstream_error", message: "m", details: { upstream_status: 500 } });
  });
});
