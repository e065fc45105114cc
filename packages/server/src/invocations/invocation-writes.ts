/**
 * How the lifecycle's steps reach the database: each step's record in one transaction with what
 * goes with it — the invocation row, its audit entry, its metering (only when the upstream
 * answered: on the row of a call that is new, by a usage event for one that had a row already),
 * what becomes of the idempotency key, and the approval or event the step raises. Concurrent steps
 * share one transaction (group commit). Only invocation-lifecycle.ts writes through here.
 */
import type { Approval } from "../approvals/approval.js";
import type { ApprovalService } from "../approvals/approval-service.js";
import type { AuditEntry, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import type { EventOutbox, EventType } from "../events/event-outbox.js";
import { uuidv7 } from "../ids.js";
import type { Store, Tx } from "../store/database.js";
import { runTogether } from "../store/prepared.js";
import type { UsageEventsTable } from "../store/schema.js";
import { batchesAtOnce, createWriteBatcher } from "../store/write-batcher.js";
import type { Sealed } from "../vault/vault.js";
import { actorOf } from "./caller.js";
import type { Idempotency } from "./idempotency.js";
import type { Completion } from "./idempotency-queries.js";
import type { InvocationRecord } from "./invocation-states.js";
import type { Invocation } from "./invocation.js";
import type { InvocationQueries } from "./invocation-queries.js";

/** An event a step raises for the customer's backend, written in the step's transaction (events/). */
export type RaisedEvent = { tenantId: string; type: EventType; data: Record<string, unknown> };

/** One step to write: its record, the sealed fields it stores, and the approval or event it raises. */
export type StepWrite = { record: InvocationRecord; sealedOutcome: Sealed | null; argumentsSealed?: Sealed; approval?: Approval; event?: RaisedEvent };

type WritesDeps = {
  store: Pick<Store, "transaction" | "kind">;
  queries: InvocationQueries;
  approvals: Pick<ApprovalService, "insert">;
  events: Pick<EventOutbox, "emitIn">;
  audit: Pick<AuditLog, "appendStatementsIn">;
  idempotency: Pick<Idempotency, "completeStatements" | "markSending" | "release">;
  clock: Clock;
};

/** `sending` is a write-ahead mark, not an outcome: it is audited when the call finishes. */
const isAudited = (record: InvocationRecord) => record.status !== "sending";

export function auditEntryOf(record: InvocationRecord): AuditEntry {
  const { call, status } = record;
  const outcome = status === "succeeded" || status === "awaiting_approval" ? "success" : status === "denied" ? "denied" : status === "unknown" ? "unknown" : "failure";
  return {
    tenantId: call.caller.tenantId,
    actor: actorOf(call.caller),
    action: status === "awaiting_approval" ? "tool.approval_requested" : "tool.executed",
    target: { type: "invocation", id: call.invocationId },
    outcome,
    agentAppId: call.caller.agentAppId,
    toolName: call.toolName,
    endUserId: call.caller.endUserId,
    data: {
      env: call.caller.env,
      ...(call.caller.endUserId ? { end_user_id: call.caller.endUserId } : {}),
      status,
      connected_account_id: call.connectionId,
      secret_item_id: call.secretItemId,
      error_code: record.errorCode,
      upstream_status: record.upstreamStatus,
      latency_ms: record.latencyMs,
      approval_id: call.approvalId,
      arguments: call.argumentsRedacted,
      via: call.channel,
      // Inside `data`, so the audit chain's hash covers it; absent (not null) when tracing is off, so such rows read as before.
      ...(call.traceId ? { trace_id: call.traceId } : {}),
      // A call an approver edited: what ran is `arguments`; what the agent asked for and who changed it are kept beside it.
      ...(call.approvalEdit
        ? { approval_edited: true, requested_arguments: call.approvalEdit.requestedArgumentsRedacted, edited_by: call.approvalEdit.editedBy, changes: call.approvalEdit.changes }
        : {}),
    },
  };
}

function newInvocation(step: StepWrite, now: string): Invocation {
  const { call, status } = step.record;
  const actor = actorOf(call.caller);
  return {
    id: call.invocationId,
    tenantId: call.caller.tenantId,
    env: call.caller.env,
    agentAppId: call.caller.agentAppId,
    actorType: actor.type,
    actorId: actor.id,
    toolName: call.toolName,
    provider: call.provider,
    connectionId: call.connectionId,
    secretItemId: call.secretItemId,
    status,
    errorCode: step.record.errorCode,
    upstreamStatus: step.record.upstreamStatus,
    latencyMs: step.record.latencyMs,
    argumentsRedactedJson: JSON.stringify(call.argumentsRedacted ?? {}),
    argumentsSealed: step.argumentsSealed ?? null,
    argumentsFingerprint: call.argumentsFingerprint,
    outcomeSealed: step.sealedOutcome,
    approvalId: call.approvalId,
    idempotencyKey: call.idempotency?.key ?? null,
    requestFingerprint: call.idempotency ? call.requestFingerprint : null,
    endUserId: call.caller.endUserId,
    createdAt: now,
    completedAt: status === "awaiting_approval" || status === "sending" ? null : now,
    // A call that reached the provider is metered; one that did so before its first record is
    // metered on this row, in the same write, instead of on a usage event of its own.
    meteredPeriod: step.record.upstreamStatus !== null ? now.slice(0, 7) : null,
    traceId: call.traceId ?? null,
  };
}

/** The usage events of calls that already had a row and reached the provider in this step (an approved call, a write announced as `sending`). */
function usageOf(existing: readonly StepWrite[], now: string): UsageEventsTable[] {
  return existing
    .filter(({ record }) => record.upstreamStatus !== null)
    .map(({ record: { call } }) => ({
      id: uuidv7(),
      tenant_id: call.caller.tenantId,
      env: call.caller.env,
      agent_app_id: call.caller.agentAppId,
      tool_name: call.toolName,
      invocation_id: call.invocationId,
      end_user_id: call.caller.endUserId,
      period: now.slice(0, 7),
      occurred_at: now,
    }));
}

export function createInvocationWrites({ store, queries, approvals, events, audit, idempotency, clock }: WritesDeps) {
  /** Invocations that already have a row (approved or announced calls) move on, one UPDATE each. */
  async function advanceExisting(trx: Tx, steps: StepWrite[], now: string) {
    for (const { record, sealedOutcome } of steps.filter((step) => step.record.call.existing)) {
      await queries.advance(record.call.invocationId, {
        status: record.status,
        errorCode: record.errorCode,
        upstreamStatus: record.upstreamStatus,
        latencyMs: record.latencyMs,
        outcomeSealed: sealedOutcome,
        completedAt: record.status === "sending" ? null : now,
        approvalId: record.call.approvalId,
      }, trx);
    }
  }

  /**
   * The usage events of calls that already had a row and reached the provider in this step. Such a
   * row was written before the call had an answer, so it is never metered itself; that is checked
   * here too (one lookup, on this rare path), so that no change elsewhere can ever count a call twice.
   */
  async function usageOfExisting(trx: Tx, existing: StepWrite[], now: string): Promise<UsageEventsTable[]> {
    const rows = usageOf(existing, now);
    const metered = await queries.meteredOnRow(rows.map((row) => row.invocation_id), trx);
    return rows.filter((row) => !metered.has(row.invocation_id));
  }

  /** Announces or releases keys (one statement each); answers the keys the batch completes. */
  async function settleKeys(trx: Tx, steps: StepWrite[]): Promise<Completion[]> {
    const completions: Completion[] = [];
    for (const { record } of steps) {
      const scope = record.call.idempotency;
      if (!scope) continue;
      if (record.idempotencyKey === "keep" && record.outcome) completions.push({ scope, invocationId: record.call.invocationId, responseStatus: record.outcome.status });
      else if (record.idempotencyKey === "sending") await idempotency.markSending(scope, record.call.invocationId, trx);
      else if (record.idempotencyKey === "release") await idempotency.release(scope, record.call.invocationId, trx);
    }
    return completions;
  }

  /**
   * One transaction for a whole batch: the new rows of every table in multi-row inserts, one
   * audit-chain lookup per tenant. On PostgreSQL the chain locks are taken last, with the lookups,
   * and the inserts go as one statement: a batch is BEGIN, the locks, the inserts and COMMIT, and
   * the chains are held for the last two only.
   */
  async function writeBatch(steps: StepWrite[]) {
    const now = clock.now().toISOString();
    await store.transaction(async (trx) => {
      for (const step of steps) {
        if (step.approval) await approvals.insert(step.approval, trx);
        if (step.event) await events.emitIn(step.event, trx);
      }
      await advanceExisting(trx, steps, now);
      const completions = await settleKeys(trx, steps);
      const auditInserts = await audit.appendStatementsIn(steps.filter((step) => isAudited(step.record)).map((step) => auditEntryOf(step.record)), trx);
      const fresh = steps.filter((step) => !step.record.call.existing).map((step) => newInvocation(step, now));
      await runTogether(store, [
        ...queries.insertStatements(fresh),
        ...queries.usageStatements(await usageOfExisting(trx, steps.filter((step) => step.record.call.existing), now)),
        ...idempotency.completeStatements(completions),
        ...auditInserts,
      ], trx);
    });
  }

  return createWriteBatcher(writeBatch, { concurrency: batchesAtOnce(store) });
}
