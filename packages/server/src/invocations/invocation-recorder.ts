/**
 * Writes each step of an invocation's lifecycle in one transaction with what goes with it: the
 * invocation row, its audit event, its metering (only when the upstream answered: on the row of a
 * call that is new, by a usage event for one that had a row already) and what becomes of the
 * idempotency key. Concurrent steps share one transaction (group commit).
 */
import type { AuditEntry, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { uuidv7 } from "../ids.js";
import type { Store, Tx } from "../store/database.js";
import { runTogether } from "../store/prepared.js";
import type { UsageEventsTable } from "../store/schema.js";
import { batchesAtOnce, createWriteBatcher } from "../store/write-batcher.js";
import type { Sealed, Vault } from "../vault/vault.js";
import { actorOf, type ActingCaller } from "./caller.js";
import type { Idempotency } from "./idempotency.js";
import type { Completion } from "./idempotency-queries.js";
import { outcomeUnknown, parseStoredOutcome, type CallDescription, type InvocationRecord, type StoredOutcome } from "./invocation-states.js";
import type { Invocation } from "./invocation.js";
import type { InvocationQueries } from "./invocation-queries.js";

type PendingWrite = { record: InvocationRecord; sealedOutcome: Sealed | null; argumentsSealed: Sealed | undefined; extra: ((trx: Tx) => Promise<void>) | undefined };

const outcomeContext = (tenantId: string, invocationId: string) => ({ tenantId, table: "invocations", rowId: invocationId, field: "outcome" });

type RecorderDeps = {
  store: Pick<Store, "db" | "kind">;
  queries: InvocationQueries;
  vault: Pick<Vault, "seal" | "open">;
  audit: Pick<AuditLog, "appendManyIn" | "appendStatementsIn">;
  idempotency: Pick<Idempotency, "completeStatements" | "markSending" | "release">;
  clock: Clock;
};

/** `sending` is a write-ahead mark, not an outcome: it is audited when the call finishes. */
const isAudited = (record: InvocationRecord) => record.status !== "sending";

function auditEntry(record: InvocationRecord): AuditEntry {
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
    },
  };
}

function newInvocation(item: PendingWrite, now: string): Invocation {
  const { call, status } = item.record;
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
    errorCode: item.record.errorCode,
    upstreamStatus: item.record.upstreamStatus,
    latencyMs: item.record.latencyMs,
    argumentsRedactedJson: JSON.stringify(call.argumentsRedacted ?? {}),
    argumentsSealed: item.argumentsSealed ?? null,
    argumentsFingerprint: call.argumentsFingerprint,
    outcomeSealed: item.sealedOutcome,
    approvalId: call.approvalId,
    idempotencyKey: call.idempotency?.key ?? null,
    requestFingerprint: call.idempotency ? call.requestFingerprint : null,
    endUserId: call.caller.endUserId,
    createdAt: now,
    completedAt: status === "awaiting_approval" || status === "sending" ? null : now,
    // A call that reached the provider is metered; one that did so before its first record is
    // metered on this row, in the same write, instead of on a usage event of its own.
    meteredPeriod: item.record.upstreamStatus !== null ? now.slice(0, 7) : null,
  };
}

/** The usage events of calls that already had a row and reached the provider in this step (an approved call, a write announced as `sending`). */
function usageOf(existing: readonly PendingWrite[], now: string): UsageEventsTable[] {
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

export function createInvocationRecorder({ store, queries, vault, audit, idempotency, clock }: RecorderDeps) {
  /** Invocations that already have a row (approved or continued calls) move on, one UPDATE each. */
  async function advanceExisting(trx: Tx, items: PendingWrite[], now: string) {
    for (const { record, sealedOutcome } of items.filter((item) => item.record.call.existing)) {
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
  async function usageOfExisting(trx: Tx, existing: PendingWrite[], now: string): Promise<UsageEventsTable[]> {
    const rows = usageOf(existing, now);
    const metered = await queries.meteredOnRow(rows.map((row) => row.invocation_id), trx);
    return rows.filter((row) => !metered.has(row.invocation_id));
  }

  /** Announces or releases keys (one statement each); answers the keys the batch completes. */
  async function settleKeys(trx: Tx, items: PendingWrite[]): Promise<Completion[]> {
    const completions: Completion[] = [];
    for (const { record } of items) {
      const scope = record.call.idempotency;
      if (!scope) continue;
      if (record.idempotencyKey === "keep" && record.outcome) completions.push({ scope, invocationId: record.call.invocationId, responseStatus: record.outcome.status });
      else if (record.idempotencyKey === "sending") await idempotency.markSending(trx, scope, record.call.invocationId);
      else if (record.idempotencyKey === "release") await idempotency.release(scope, trx, record.call.invocationId);
    }
    return completions;
  }

  /**
   * One transaction for a whole batch: the new rows of every table in multi-row inserts, one
   * audit-chain lookup per tenant. On PostgreSQL the chain locks are taken last, with the lookups,
   * and the inserts go as one statement: a batch is BEGIN, the locks, the inserts and COMMIT, and
   * the chains are held for the last two only.
   */
  async function writeBatch(items: PendingWrite[]) {
    const now = clock.now().toISOString();
    await store.db.transaction().execute(async (trx) => {
      for (const item of items) await item.extra?.(trx);
      await advanceExisting(trx, items, now);
      const completions = await settleKeys(trx, items);
      const auditInserts = await audit.appendStatementsIn(trx, items.filter((item) => isAudited(item.record)).map((item) => auditEntry(item.record)));
      const fresh = items.filter((item) => !item.record.call.existing).map((item) => newInvocation(item, now));
      await runTogether(store, trx, [
        ...queries.insertStatements(fresh),
        ...queries.usageStatements(await usageOfExisting(trx, items.filter((item) => item.record.call.existing), now)),
        ...idempotency.completeStatements(completions),
        ...auditInserts,
      ]);
    });
  }

  const batcher = createWriteBatcher(writeBatch, { concurrency: batchesAtOnce(store) });
  const sealOutcome = (tenantId: string, invocationId: string, outcome: StoredOutcome) => vault.seal(outcomeContext(tenantId, invocationId), JSON.stringify(outcome));

  return {
    /** Writes what the group commit still holds, then refuses new records (shutdown, main.ts). */
    close: () => batcher.close(),

    openOutcome: async (invocation: Pick<Invocation, "tenantId" | "id" | "outcomeSealed">): Promise<StoredOutcome | undefined> =>
      invocation.outcomeSealed ? parseStoredOutcome(await vault.open(outcomeContext(invocation.tenantId, invocation.id), invocation.outcomeSealed)) : undefined,

    /**
     * Resolves once the step is durably written. `extra` writes more rows in the same transaction
     * (e.g. the approval a waiting call needs).
     */
    async record(record: InvocationRecord, options: { argumentsSealed?: Sealed; extra?: (trx: Tx) => Promise<void> } = {}) {
      const sealedOutcome = record.outcome ? await sealOutcome(record.call.caller.tenantId, record.call.invocationId, record.outcome) : null;
      await batcher.write({ record, sealedOutcome, argumentsSealed: options.argumentsSealed, extra: options.extra });
    },

    /**
     * A call announced as sending whose process died: marked unknown, audited once, and its key (if
     * any) answers outcome_unknown from now on. A no-op when another request settled it first.
     */
    async markUnknown(invocation: Invocation, key: string | null): Promise<void> {
      const error = outcomeUnknown(invocation.id, key);
      const outcome: StoredOutcome = { kind: "error", status: error.status, code: error.code, message: error.message, details: error.details ?? {} };
      const sealed = await sealOutcome(invocation.tenantId, invocation.id, outcome);
      const now = clock.now().toISOString();
      await store.db.transaction().execute(async (trx) => {
        const changed = await queries.settleUnknown(invocation.id, { errorCode: error.code, outcomeSealed: sealed, completedAt: now }, trx);
        if (!changed) return;
        const call = callFromInvocation(invocation, originalCaller(invocation));
        const record: InvocationRecord = { call, status: "unknown", errorCode: error.code, upstreamStatus: null, latencyMs: null, outcome, idempotencyKey: "keep" };
        await audit.appendManyIn(trx, [auditEntry(record)]);
        if (call.idempotency) await runTogether(store, trx, idempotency.completeStatements([{ scope: call.idempotency, invocationId: invocation.id, responseStatus: outcome.status }]));
      });
    },

    sealArguments: (tenantId: string, invocationId: string, args: unknown) =>
      vault.seal({ tenantId, table: "invocations", rowId: invocationId, field: "arguments" }, JSON.stringify(args)),
    openArguments: async (invocation: Pick<Invocation, "tenantId" | "id" | "argumentsSealed">) =>
      JSON.parse(await vault.open({ tenantId: invocation.tenantId, table: "invocations", rowId: invocation.id, field: "arguments" }, (invocation.argumentsSealed ?? "") as Sealed)) as Record<string, unknown>,
  };
}

/** Whoever started an invocation, as it recorded them. */
function originalCaller(invocation: Invocation): ActingCaller {
  const { tenantId, env, agentAppId, endUserId } = invocation;
  return invocation.actorType === "control_key"
    ? { kind: "control_key", tenantId, env, keyId: invocation.actorId, agentAppId, endUserId }
    : { kind: "agent_app", tenantId, env, agentAppId, endUserId };
}

/** The call an existing invocation describes, made by `caller` (acting as the invocation's agent app). */
export function callFromInvocation(invocation: Invocation, caller: ActingCaller, approvalId: string | null = invocation.approvalId): CallDescription {
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

export type InvocationRecorder = ReturnType<typeof createInvocationRecorder>;
