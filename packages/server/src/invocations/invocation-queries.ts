/**
 * Every query on `invocations` and `usage_events`; bound to the store once. Statements that belong
 * to a lifecycle step's write take that write's transaction as their last argument.
 */
import type { Executor, Store } from "../store/database.js";
import { hotStatement, type Statement } from "../store/prepared.js";
import type { InvocationsTable, UsageEventsTable } from "../store/schema.js";
import type { Invocation, InvocationStep } from "./invocation.js";

function invocationFromRow(row: InvocationsTable): Invocation {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    env: row.env,
    agentAppId: row.agent_app_id,
    actorType: row.actor_type,
    actorId: row.actor_id,
    toolName: row.tool_name,
    provider: row.provider,
    connectionId: row.connection_id,
    secretItemId: row.secret_item_id,
    status: row.status,
    errorCode: row.error_code,
    upstreamStatus: row.upstream_status,
    latencyMs: row.latency_ms,
    argumentsRedactedJson: row.arguments_redacted,
    argumentsSealed: row.arguments_sealed,
    argumentsFingerprint: row.arguments_fingerprint,
    outcomeSealed: row.outcome_sealed,
    approvalId: row.approval_id,
    idempotencyKey: row.idempotency_key,
    requestFingerprint: row.request_fingerprint,
    createdAt: row.created_at,
    completedAt: row.completed_at,
    endUserId: row.end_user_id,
    meteredPeriod: row.metered_period,
    traceId: row.trace_id,
  };
}

function invocationToRow(invocation: Invocation): InvocationsTable {
  return {
    id: invocation.id,
    tenant_id: invocation.tenantId,
    env: invocation.env,
    agent_app_id: invocation.agentAppId,
    actor_type: invocation.actorType,
    actor_id: invocation.actorId,
    tool_name: invocation.toolName,
    provider: invocation.provider,
    connection_id: invocation.connectionId,
    secret_item_id: invocation.secretItemId,
    status: invocation.status,
    error_code: invocation.errorCode,
    upstream_status: invocation.upstreamStatus,
    latency_ms: invocation.latencyMs,
    arguments_redacted: invocation.argumentsRedactedJson,
    arguments_sealed: invocation.argumentsSealed,
    arguments_fingerprint: invocation.argumentsFingerprint,
    outcome_sealed: invocation.outcomeSealed,
    approval_id: invocation.approvalId,
    idempotency_key: invocation.idempotencyKey,
    request_fingerprint: invocation.requestFingerprint,
    created_at: invocation.createdAt,
    completed_at: invocation.completedAt,
    end_user_id: invocation.endUserId,
    metered_period: invocation.meteredPeriod,
    trace_id: invocation.traceId,
  };
}


export function createInvocationQueries(store: Pick<Store, "db" | "kind">) {
  const { db } = store;
  // The execute path's two inserts, compiled ahead of time (store/hot-statements.ts, store/prepared.ts).
  const insertInvocations = hotStatement<InvocationsTable>(store, "invocations.insert");
  // Only calls metered after their first record get a usage event (a call that reached the
  // provider when first recorded is metered on its own row); one at most per invocation.
  const insertUsageRows = hotStatement<UsageEventsTable>(store, "usage_events.insert");
  return {
    /** The INSERTs of new invocations, for the caller to run in its transaction (store/prepared.ts, runTogether). */
    insertStatements: (invocations: readonly Invocation[]): Statement[] => insertInvocations(invocations.map(invocationToRow)),

    async find(tenantId: string, id: string, executor: Executor = db): Promise<Invocation | undefined> {
      const row = await executor.selectFrom("invocations").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst();
      return row && invocationFromRow(row);
    },

    /** Moves a waiting or sending call on (to sending, or to its outcome); a finished call never changes. */
    advance: (id: string, step: InvocationStep, executor: Executor = db) =>
      executor
        .updateTable("invocations")
        .set({
          status: step.status,
          error_code: step.errorCode,
          upstream_status: step.upstreamStatus,
          latency_ms: step.latencyMs,
          outcome_sealed: step.outcomeSealed,
          completed_at: step.completedAt,
          approval_id: step.approvalId,
        })
        .where("id", "=", id)
        .where("status", "in", ["awaiting_approval", "sending"])
        .executeTakeFirst(),

    /**
     * The approved call starts: it is `sending` from now on, in the transaction that consumes its
     * approval (invocations/invocation-lifecycle.ts, `start`). False when it no longer waits (denied meanwhile).
     */
    startSending: async (id: string, approvalId: string, executor: Executor = db) => {
      const result = await executor
        .updateTable("invocations")
        .set({ status: "sending", approval_id: approvalId })
        .where("id", "=", id)
        .where("status", "=", "awaiting_approval")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * A call whose sending was announced but never finished; true when this request settled it.
     * `awaiting_approval` is for calls whose approval was consumed apart from their sending mark
     * (before the two were one transaction): the caller checks that the approval was consumed.
     */
    settleUnknown: async (id: string, values: Pick<Invocation, "errorCode" | "outcomeSealed" | "completedAt">, executor: Executor = db) => {
      const result = await executor
        .updateTable("invocations")
        .set({ error_code: values.errorCode, outcome_sealed: values.outcomeSealed, completed_at: values.completedAt, status: "unknown" })
        .where("id", "=", id)
        .where("status", "in", ["sending", "awaiting_approval"])
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** A waiting call refused when continued; false when it no longer waits. */
    markDenied: async (id: string, values: Pick<Invocation, "errorCode" | "completedAt">, executor: Executor = db) => {
      const result = await executor
        .updateTable("invocations")
        .set({ status: "denied", error_code: values.errorCode, completed_at: values.completedAt })
        .where("id", "=", id)
        .where("status", "=", "awaiting_approval")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Which of these invocations are metered on their own row (and so must never get a usage event). */
    async meteredOnRow(ids: readonly string[], executor: Executor = db): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await executor.selectFrom("invocations").select("id").where("id", "in", ids).where("metered_period", "is not", null).execute();
      return new Set(rows.map((row) => row.id));
    },

    /** The INSERTs of usage events of calls that already had a row (one per invocation at most), to run like `insertStatements`. */
    usageStatements: (rows: readonly UsageEventsTable[]): Statement[] => insertUsageRows(rows),
  };
}

export type InvocationQueries = ReturnType<typeof createInvocationQueries>;
