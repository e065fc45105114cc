/**
 * The life of one tool call, as data. An invocation is received, then either refused (rejected,
 * denied), parked (awaiting approval), or sent (sending) and finished (succeeded, failed); a call
 * whose sending was announced but whose process died before it finished is `unknown`.
 *
 * Execute, continue and MCP describe a call and hand each step to the lifecycle
 * (invocation-lifecycle.ts), which turns it into a record with `transitions` and writes it.
 * Nothing here knows HTTP or the database.
 */
import type { ArgumentChange } from "../approvals/argument-changes.js";
import { BrokerError } from "../errors.js";
import type { ActingCaller } from "./caller.js";
import type { IdempotencyScope } from "./idempotency.js";

export type InvocationStatus = "rejected" | "denied" | "awaiting_approval" | "sending" | "succeeded" | "failed" | "unknown";

/** What is known of a call once its request is read; the same for every step that follows. */
/** The door a call came through: the REST API or MCP's tools/call. Audited with the call. */
export type Channel = "rest" | "mcp";

export type CallDescription = {
  caller: ActingCaller;
  invocationId: string;
  toolName: string;
  provider: string | null;
  connectionId: string | null;
  secretItemId: string | null;
  argumentsRedacted: unknown;
  argumentsFingerprint: string;
  /** The approval this call waits for or runs under; never an id the caller merely sent. */
  approvalId: string | null;
  idempotency: IdempotencyScope | undefined;
  /** The fingerprint of the request made under the key (null without one), kept with its claim. */
  requestFingerprint: string | null;
  /** The invocation row exists already (the call waited for approval, or its sending was announced). */
  existing: boolean;
  channel: Channel;
  /**
   * Set when the call runs with arguments an approver edited: `argumentsRedacted` and
   * `argumentsFingerprint` above are then the edited call's, and this keeps what was asked for.
   */
  approvalEdit?: ApprovalEditRun | undefined;
  /** The trace of the request making this step (observability/tracing.ts); unset when tracing is off. */
  traceId?: string | null | undefined;
};

/** An approver's edit of the call that runs: what changed (redacted values), who edited, and what the agent asked for. */
export type ApprovalEditRun = { changes: ArgumentChange[]; editedBy: string; requestedArgumentsRedacted: unknown };

/** What a call that ran under an approval tells its caller: which approval, and whether and how a person edited it. */
export type ApprovalNote = { approval_id: string; edited: boolean; changes: ArgumentChange[] };

/**
 * A call carries an approval id only while it waits (which never finishes) or once it started
 * under the approval: a finished call with one ran under it.
 */
export const approvalNoteOf = (call: CallDescription): ApprovalNote | undefined =>
  call.approvalId === null ? undefined : { approval_id: call.approvalId, edited: call.approvalEdit !== undefined, changes: call.approvalEdit?.changes ?? [] };

/** How a call that reached the sending stage ended. */
export type CallOutcome =
  | { kind: "succeeded"; result: unknown; upstreamStatus: number; latencyMs: number }
  | {
      kind: "failed";
      error: BrokerError;
      /** Null when no upstream answer arrived (timeout, network, a failure before sending). */
      upstreamStatus: number | null;
      latencyMs: number | null;
      /** The tool's own request may have reached the provider: the outcome must never be re-sent. */
      requestMayHaveLeft: boolean;
    };

/** A finished call as stored under its invocation (sealed) and replayed for its idempotency key. */
export type StoredOutcome =
  | { kind: "result"; status: 200; invocation_id: string; result: unknown; approval?: ApprovalNote }
  | { kind: "error"; status: number; code: string; message: string; details?: Record<string, unknown> };

/** What the lifecycle writes for one step. */
export type InvocationRecord = {
  call: CallDescription;
  status: InvocationStatus;
  errorCode: string | null;
  upstreamStatus: number | null;
  latencyMs: number | null;
  outcome: StoredOutcome | undefined;
  /**
   * What becomes of the call's idempotency key in the same transaction: "keep" stores the outcome
   * for replay, "release" forgets a key whose request never left, "sending" marks it as on the way.
   */
  idempotencyKey: "keep" | "release" | "sending" | undefined;
};

/** The one rule for idempotency keys: an outcome is kept exactly when the tool's request may have left. */
export const keepsIdempotencyKey = (outcome: CallOutcome) => outcome.kind === "succeeded" || outcome.requestMayHaveLeft;

const withInvocation = (error: BrokerError, invocationId: string, approval: ApprovalNote | undefined) =>
  new BrokerError(error.code, error.message, { ...error.details, invocation_id: invocationId, ...(approval ? { approval } : {}) }, { status: error.status, headers: error.headers });

/** The answer a finished call keeps; one that ran under an approval says so (and what an approver changed), in replays too. */
export function storedOutcomeOf(call: CallDescription, outcome: CallOutcome): StoredOutcome {
  const approval = approvalNoteOf(call);
  if (outcome.kind === "succeeded") return { kind: "result", status: 200, invocation_id: call.invocationId, result: outcome.result, ...(approval ? { approval } : {}) };
  const error = withInvocation(outcome.error, call.invocationId, approval);
  return { kind: "error", status: error.status, code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
}

const base = (call: CallDescription) => ({ call, upstreamStatus: null, latencyMs: null, outcome: undefined });
const keyDecision = (call: CallDescription, decision: "keep" | "release" | "sending") => (call.idempotency ? decision : undefined);

export const transitions = {
  /** Refused before anything was sent: bad tool, arguments or handle; an approval that does not fit. */
  rejected: (call: CallDescription, error: BrokerError): InvocationRecord => ({
    ...base(call),
    status: "rejected",
    errorCode: error.code,
    idempotencyKey: keyDecision(call, "release"),
  }),
  denied: (call: CallDescription, error: BrokerError): InvocationRecord => ({
    ...base(call),
    status: "denied",
    errorCode: error.code,
    idempotencyKey: keyDecision(call, "release"),
  }),
  awaitingApproval: (call: CallDescription): InvocationRecord => ({
    ...base(call),
    status: "awaiting_approval",
    errorCode: "approval_required",
    idempotencyKey: keyDecision(call, "release"),
  }),
  /** Write-ahead: the request is about to leave; after a crash the key answers outcome_unknown. */
  sending: (call: CallDescription): InvocationRecord => ({ ...base(call), status: "sending", errorCode: null, idempotencyKey: keyDecision(call, "sending") }),
  finished: (call: CallDescription, outcome: CallOutcome): InvocationRecord => ({
    call,
    status: outcome.kind,
    errorCode: outcome.kind === "failed" ? outcome.error.code : null,
    upstreamStatus: outcome.upstreamStatus,
    latencyMs: outcome.latencyMs,
    outcome: storedOutcomeOf(call, outcome),
    idempotencyKey: keyDecision(call, keepsIdempotencyKey(outcome) ? "keep" : "release"),
  }),
};

export const outcomeUnknown = (invocationId: string, key: string | null) =>
  new BrokerError(
    "outcome_unknown",
    "the broker stopped while this request was being sent; whether the provider acted is unknown, so it is not sent again",
    { invocation_id: invocationId, ...(key === null ? {} : { idempotency_key: key }) },
  );

/** The answer a finished call gives: its result, or its error raised again (for replays too). */
export function settle(stored: StoredOutcome, options: { replayed: boolean }): { invocation_id: string; result: unknown; approval?: ApprovalNote } {
  if (stored.kind === "result") return { invocation_id: stored.invocation_id, result: stored.result, ...(stored.approval ? { approval: stored.approval } : {}) };
  throw new BrokerError(stored.code as BrokerError["code"], stored.message, stored.details, {
    status: stored.status,
    ...(options.replayed ? { headers: { "idempotent-replayed": "true" } } : {}),
  });
}

/** Reads a sealed outcome, including those stored before outcomes had a `kind` (`{status, body}`). */
export function parseStoredOutcome(json: string): StoredOutcome {
  const value = JSON.parse(json) as StoredOutcome | { status: number; body: { invocation_id?: string; result?: unknown; error?: { code: string; message: string; details?: Record<string, unknown> } } };
  if ("kind" in value) return value;
  const { status, body } = value;
  if (body.error) return { kind: "error", status, code: body.error.code, message: body.error.message, ...(body.error.details ? { details: body.error.details } : {}) };
  return { kind: "result", status: 200, invocation_id: body.invocation_id ?? "", result: body.result };
}
