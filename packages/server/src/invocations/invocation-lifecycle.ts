/**
 * The one module that changes an invocation's state, consumes an approval, sets what an
 * idempotency key answers and meters a call. Execute, continue and MCP's tools/call describe a
 * call and hand each of its steps here; every step is one transaction:
 *
 * - admit: a refused call is recorded (`reject`, `deny`), or parked with the approval it waits
 *   for (`park`). A call let through is not written on admission: its record goes with its start
 *   or its finish, so a call that needs no approval pays one write after the upstream answer (and
 *   one before, when it is a write under an idempotency key).
 * - start: an approved call's approval is consumed and the call and its key are marked `sending`
 *   together (`start`); a write under a key is marked `sending` right before its request leaves
 *   (`markSending`). After a crash such a call answers `outcome_unknown`, never runs twice, and
 *   never waits for an approval already spent.
 * - finish: the outcome, its audit entry, the metering and the key's outcome (`finish`); a call
 *   whose broker died while sending it becomes `unknown` (`markUnknown`).
 */
import { randomUUID } from "node:crypto";
import type { Approval } from "../approvals/approval.js";
import type { ApprovalService } from "../approvals/approval-service.js";
import type { RuleApproval } from "../policy/policy-document.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError } from "../errors.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { Store } from "../store/database.js";
import { runTogether } from "../store/prepared.js";
import type { Vault } from "../vault/vault.js";
import type { ActingCaller } from "./caller.js";
import type { Idempotency } from "./idempotency.js";
import type { Invocation } from "./invocation.js";
import type { InvocationQueries } from "./invocation-queries.js";
import { createInvocationSeals } from "./invocation-seals.js";
import { outcomeUnknown, transitions, type CallDescription, type CallOutcome, type InvocationRecord, type StoredOutcome } from "./invocation-states.js";
import { auditEntryOf, createInvocationWrites, type RaisedEvent } from "./invocation-writes.js";
import { NO_TRACING, type Tracing } from "../observability/tracing.js";
import { RECORDS_STEPS, SPANS } from "../observability/tracing-attributes.js";

type LifecycleDeps = {
  store: Pick<Store, "transaction" | "kind">;
  queries: InvocationQueries;
  approvals: Pick<ApprovalService, "draft" | "insert" | "consume">;
  events: Pick<EventOutbox, "emitIn">;
  audit: Pick<AuditLog, "appendStatementsIn" | "appendManyIn">;
  idempotency: Pick<Idempotency, "completeStatements" | "markSending" | "markStarted" | "release">;
  vault: Pick<Vault, "seal" | "open">;
  clock: Clock;
  /** Each step's write is a `toolbroker.records` span (observability/tracing-attributes.ts). */
  tracing?: Pick<Tracing, "inSpan" | "traceId"> | undefined;
};

/** A call to start: it runs as the invocation that waited, under the approval given. */
export type StartingCall = CallDescription & { approvalId: string };

/** What a parked call asks a person to approve. */
export type ApprovalAsk = { provider: string; args: Record<string, unknown>; ruleId: string | null; ruleApproval?: RuleApproval | undefined };

export function createInvocationLifecycle(deps: LifecycleDeps) {
  const { store, queries, approvals, idempotency, clock } = deps;
  const seals = createInvocationSeals(deps.vault);
  const writes = createInvocationWrites(deps);
  const tracing = deps.tracing ?? NO_TRACING;
  const recorded = <T>(step: keyof typeof RECORDS_STEPS, work: () => Promise<T>) => tracing.inSpan(SPANS.records, RECORDS_STEPS[step], work);
  const writeStep = (step: "reject" | "deny" | "mark_sending", record: InvocationRecord, extra: { event?: RaisedEvent } = {}) =>
    recorded(step, () => writes.write({ record, sealedOutcome: null, ...extra }));

  return {
    /** Writes what the group commit still holds, then refuses new steps (shutdown, main.ts). */
    close: () => writes.close(),

    /** Admit: refused before anything was sent (tool, arguments, credential, approval); `event` is raised with it. */
    reject: (call: CallDescription, error: BrokerError, event?: RaisedEvent) => writeStep("reject", transitions.rejected(call, error), event ? { event } : {}),

    /** Admit: refused by policy. */
    deny: (call: CallDescription, error: BrokerError) => writeStep("deny", transitions.denied(call, error)),

    /** Admit: the call waits for a person; it is stored with its sealed arguments and the approval it asks for. */
    async park(call: CallDescription, ask: ApprovalAsk): Promise<Approval> {
      const { caller, invocationId } = call;
      const approval = approvals.draft({
        approvalId: randomUUID(),
        tenantId: caller.tenantId,
        env: caller.env,
        agentAppId: caller.agentAppId,
        invocationId,
        toolName: call.toolName,
        provider: ask.provider,
        connectionId: call.connectionId,
        secretItemId: call.secretItemId,
        argumentsFingerprint: call.argumentsFingerprint,
        argumentsRedacted: call.argumentsRedacted,
        ruleId: ask.ruleId,
        ruleApproval: ask.ruleApproval,
        endUserId: caller.endUserId,
      });
      const argumentsSealed = await seals.sealArguments(caller.tenantId, invocationId, ask.args);
      await recorded("park", () => writes.write({ record: transitions.awaitingApproval({ ...call, approvalId: approval.id }), sealedOutcome: null, argumentsSealed, approval }));
      return approval;
    },

    /**
     * Start of an approved call: true when this request consumed the approval and must send the
     * call; false when the approval was not there to consume (another request started the call
     * first, or it expired). A key held by another call, or a call that no longer waits, is
     * refused and nothing is consumed. `claimedAs` is the invocation id under which this request
     * claimed the key (a re-execute).
     */
    start: (call: StartingCall, options: { claimedAs?: string } = {}): Promise<boolean> =>
      recorded("start", () => store.transaction(async (trx) => {
        if (!(await approvals.consume(call.approvalId, trx))) return false;
        if (!(await queries.startSending(call.invocationId, call.approvalId, trx))) {
          throw new BrokerError("conflict", "the invocation no longer waits for its approval", { invocation_id: call.invocationId });
        }
        if (call.idempotency) {
          await idempotency.markStarted(call.idempotency, {
            // An invocation recorded before migration 0013 has no request fingerprint: its key then
            // matches no request, so it is only ever replayed through the invocation itself.
            requestFingerprint: call.requestFingerprint ?? "",
            invocationId: call.invocationId,
            ...(options.claimedAs ? { claimedAs: options.claimedAs } : {}),
          }, trx);
        }
        return true;
      })),

    /** Start of a write under an idempotency key: written ahead, right before its request leaves. Answers the call as it now is (recorded). */
    async markSending(call: CallDescription): Promise<CallDescription> {
      await writeStep("mark_sending", transitions.sending(call));
      return { ...call, existing: true };
    },

    /** Finish: the outcome with its audit entry, metering and key, durable before the caller hears it. */
    async finish(call: CallDescription, outcome: CallOutcome): Promise<void> {
      const record = transitions.finished(call, outcome);
      const sealedOutcome = record.outcome ? await seals.sealOutcome(call.caller.tenantId, call.invocationId, record.outcome) : null;
      try {
        await recorded("finish", () => writes.write({ record, sealedOutcome }));
      } catch (error) {
        throw outcomeNotRecorded(call, outcome, error);
      }
    },

    /**
     * A waiting call refused at continue (a person denied it, or a policy rule added since denies
     * it): denied and audited once; a no-op when it no longer waits. Its key was let go when it
     * was parked, so it is not touched (another request may hold it now).
     */
    async denyWaiting(invocation: Invocation, caller: ActingCaller, error: BrokerError): Promise<void> {
      const record: InvocationRecord = { ...transitions.denied({ ...callOf(invocation, caller), traceId: tracing.traceId() }, error), idempotencyKey: undefined };
      const now = clock.now().toISOString();
      await recorded("deny_waiting", () => store.transaction(async (trx) => {
        if (await queries.markDenied(invocation.id, { errorCode: error.code, completedAt: now }, trx)) await deps.audit.appendManyIn([auditEntryOf(record)], trx);
      }));
    },

    /**
     * A call announced as sending whose process died: marked unknown, audited once, and its key (if
     * any) answers outcome_unknown from now on. A no-op when another request settled it first.
     */
    async markUnknown(invocation: Invocation, key: string | null): Promise<void> {
      const error = outcomeUnknown(invocation.id, key);
      const outcome: StoredOutcome = { kind: "error", status: error.status, code: error.code, message: error.message, details: error.details ?? {} };
      const sealed = await seals.sealOutcome(invocation.tenantId, invocation.id, outcome);
      const now = clock.now().toISOString();
      await recorded("mark_unknown", () => store.transaction(async (trx) => {
        const changed = await queries.settleUnknown(invocation.id, { errorCode: error.code, outcomeSealed: sealed, completedAt: now }, trx);
        if (!changed) return;
        const call = { ...callOf(invocation, originalCaller(invocation)), traceId: tracing.traceId() };
        const record: InvocationRecord = { call, status: "unknown", errorCode: error.code, upstreamStatus: null, latencyMs: null, outcome, idempotencyKey: "keep" };
        await deps.audit.appendManyIn([auditEntryOf(record)], trx);
        if (call.idempotency) await runTogether(store, idempotency.completeStatements([{ scope: call.idempotency, invocationId: invocation.id, responseStatus: outcome.status }]), trx);
      }));
    },
  };
}

/**
 * A finish that could not be written, after the provider may have acted: a lost race's `conflict`
 * ("not made; try again") would invite a second send, so the caller hears what happened instead.
 */
function outcomeNotRecorded(call: CallDescription, outcome: CallOutcome, error: unknown): unknown {
  const mayHaveBeenSent = outcome.kind === "succeeded" || outcome.requestMayHaveLeft;
  if (!mayHaveBeenSent || !(error instanceof BrokerError) || error.code !== "conflict") return error;
  return Object.assign(
    new BrokerError("internal_error", "the call was sent to the provider, but the broker could not record its outcome; check with the provider before calling again", { invocation_id: call.invocationId }),
    { cause: error },
  );
}

/** Whoever started an invocation, as it recorded them. */
function originalCaller(invocation: Invocation): ActingCaller {
  const { tenantId, env, agentAppId, endUserId } = invocation;
  return invocation.actorType === "control_key"
    ? { kind: "control_key", tenantId, env, keyId: invocation.actorId, agentAppId, endUserId }
    : { kind: "agent_app", tenantId, env, agentAppId, endUserId };
}

/** The call an existing invocation describes, made by `caller` (acting as the invocation's agent app). */
export function callOf(invocation: Invocation, caller: ActingCaller, approvalId: string | null = invocation.approvalId): CallDescription {
  const { tenantId, env, agentAppId, endUserId, idempotencyKey } = invocation;
  return {
    caller,
    invocationId: invocation.id,
    toolName: invocation.toolName,
    provider: invocation.provider,
    connectionId: invocation.connectionId,
    secretItemId: invocation.secretItemId,
    argumentsRedacted: JSON.parse(invocation.argumentsRedactedJson) as unknown,
    argumentsFingerprint: invocation.argumentsFingerprint,
    approvalId,
    idempotency: idempotencyKey ? { tenantId, env, agentAppId, endUserId, key: idempotencyKey } : undefined,
    requestFingerprint: invocation.requestFingerprint,
    existing: true,
    // Continue is a REST route; MCP's retries run through execute. (The channel of the original request is not stored.)
    channel: "rest",
  };
}

export type InvocationLifecycle = ReturnType<typeof createInvocationLifecycle>;
