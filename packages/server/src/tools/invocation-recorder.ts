/**
 * Writes what happened to one execute attempt in a single transaction: the invocation row, its
 * audit event, the usage event (only when the upstream was reached) and the idempotency outcome.
 */
import { uuidv7 } from "../ids.js";
import type { AuditEntry, AuditLog } from "../audit/audit-log.js";
import { createWriteBatcher } from "../store/write-batcher.js";
import type { Clock } from "../clock.js";
import type { Env } from "../ids.js";
import type { Store, Tx } from "../store/database.js";
import type { Vault } from "../vault/vault.js";
import type { Idempotency, IdempotencyScope } from "./idempotency.js";
import type { InvocationQueries, InvocationRow } from "./invocation-queries.js";

export type Caller = { tenantId: string; env: Env; agentAppId: string; actor: { type: "agent_app" | "control_key"; id: string } };
export type StoredOutcome = { status: number; body: unknown };

export type AttemptRecord = {
  caller: Caller;
  invocationId: string;
  toolName: string;
  provider: string | null;
  connectionId: string | null;
  secretItemId: string | null;
  argumentsRedacted: unknown;
  argumentsFingerprint: string;
  status: InvocationRow["status"];
  errorCode: string | null;
  upstreamStatus: number | null;
  latencyMs: number | null;
  outcome: StoredOutcome | undefined;
  approvalId: string | null;
  idempotency: IdempotencyScope | undefined;
  /** True when the row already exists (a call that waited for approval). */
  existing: boolean;
};

type PendingWrite = { record: AttemptRecord; sealedOutcome: string | null; argumentsSealed: string | undefined; extra: ((trx: Tx) => Promise<void>) | undefined };

/** Rows per INSERT: well under SQLite's limit of bound parameters (22 columns × 100). */
const INSERT_CHUNK = 100;

const outcomeContext = (tenantId: string, invocationId: string) => ({ tenantId, table: "invocations", rowId: invocationId, field: "outcome" });

type RecorderDeps = {
  store: Pick<Store, "db">;
  queries: InvocationQueries;
  vault: Pick<Vault, "seal" | "open">;
  audit: Pick<AuditLog, "appendManyIn">;
  idempotency: Pick<Idempotency, "complete">;
  clock: Clock;
};

export function createInvocationRecorder({ store, queries, vault, audit, idempotency, clock }: RecorderDeps) {
  function auditEntry(record: AttemptRecord): AuditEntry {
    const finished = record.status !== "awaiting_approval";
    const outcome = record.status === "succeeded" || record.status === "awaiting_approval" ? "success" : record.status === "denied" ? "denied" : "failure";
    return {
      tenantId: record.caller.tenantId,
      actor: record.caller.actor,
      action: finished ? "tool.executed" : "tool.approval_requested",
      target: { type: "invocation", id: record.invocationId },
      outcome,
      agentAppId: record.caller.agentAppId,
      toolName: record.toolName,
      data: {
        env: record.caller.env,
        status: record.status,
        connected_account_id: record.connectionId,
        secret_item_id: record.secretItemId,
        error_code: record.errorCode,
        upstream_status: record.upstreamStatus,
        latency_ms: record.latencyMs,
        approval_id: record.approvalId,
        arguments: record.argumentsRedacted,
      },
    };
  }

  function invocationRow(item: PendingWrite, now: string): InvocationRow {
    const { record } = item;
    return {
      id: record.invocationId,
      tenant_id: record.caller.tenantId,
      env: record.caller.env,
      agent_app_id: record.caller.agentAppId,
      actor_type: record.caller.actor.type,
      actor_id: record.caller.actor.id,
      tool_name: record.toolName,
      provider: record.provider,
      connection_id: record.connectionId,
      secret_item_id: record.secretItemId,
      status: record.status,
      error_code: record.errorCode,
      upstream_status: record.upstreamStatus,
      latency_ms: record.latencyMs,
      arguments_redacted: JSON.stringify(record.argumentsRedacted ?? {}),
      arguments_sealed: item.argumentsSealed ?? null,
      arguments_fingerprint: record.argumentsFingerprint,
      outcome_sealed: item.sealedOutcome,
      approval_id: record.approvalId,
      idempotency_key: record.idempotency?.key ?? null,
      created_at: now,
      completed_at: record.status === "awaiting_approval" ? null : now,
    };
  }

  /** One transaction for a whole batch: multi-row inserts, one audit-chain lookup per tenant. */
  async function writeBatch(items: PendingWrite[]) {
    const now = clock.now().toISOString();
    await store.db.transaction().execute(async (trx) => {
      for (const item of items) await item.extra?.(trx);
      const fresh = items.filter((item) => !item.record.existing).map((item) => invocationRow(item, now));
      for (let i = 0; i < fresh.length; i += INSERT_CHUNK) await queries.insertMany(trx, fresh.slice(i, i + INSERT_CHUNK));
      for (const { record, sealedOutcome } of items.filter((item) => item.record.existing)) {
        await queries.complete(trx, record.invocationId, {
          status: record.status,
          error_code: record.errorCode,
          upstream_status: record.upstreamStatus,
          latency_ms: record.latencyMs,
          outcome_sealed: sealedOutcome,
          completed_at: now,
          approval_id: record.approvalId,
        });
      }
      await audit.appendManyIn(trx, items.map((item) => auditEntry(item.record)));
      const usage = items
        .filter((item) => item.record.upstreamStatus !== null)
        .map(({ record }) => ({
          id: uuidv7(),
          tenant_id: record.caller.tenantId,
          env: record.caller.env,
          agent_app_id: record.caller.agentAppId,
          tool_name: record.toolName,
          invocation_id: record.invocationId,
          period: now.slice(0, 7),
          occurred_at: now,
        }));
      for (let i = 0; i < usage.length; i += INSERT_CHUNK) await queries.insertUsage(trx, usage.slice(i, i + INSERT_CHUNK));
      for (const { record } of items) {
        if (record.idempotency && record.outcome) await idempotency.complete(trx, record.idempotency, record.invocationId, record.outcome.status);
      }
    });
  }

  const batcher = createWriteBatcher(writeBatch);

  return {
    openOutcome: async (row: Pick<InvocationRow, "tenant_id" | "id" | "outcome_sealed">): Promise<StoredOutcome | undefined> =>
      row.outcome_sealed ? (JSON.parse(await vault.open(outcomeContext(row.tenant_id, row.id), row.outcome_sealed)) as StoredOutcome) : undefined,

    /**
     * Resolves once the attempt is durably written. Concurrent attempts share one transaction
     * (group commit); `extra` writes more rows in it (e.g. the approval a waiting call needs).
     */
    async record(record: AttemptRecord, options: { argumentsSealed?: string; extra?: (trx: Tx) => Promise<void> } = {}) {
      const sealedOutcome = record.outcome ? await vault.seal(outcomeContext(record.caller.tenantId, record.invocationId), JSON.stringify(record.outcome)) : null;
      await batcher.write({ record, sealedOutcome, argumentsSealed: options.argumentsSealed, extra: options.extra });
    },

    sealArguments: (tenantId: string, invocationId: string, args: unknown) =>
      vault.seal({ tenantId, table: "invocations", rowId: invocationId, field: "arguments" }, JSON.stringify(args)),
    openArguments: async (row: Pick<InvocationRow, "tenant_id" | "id" | "arguments_sealed">) =>
      JSON.parse(await vault.open({ tenantId: row.tenant_id, table: "invocations", rowId: row.id, field: "arguments" }, row.arguments_sealed ?? "")) as Record<string, unknown>,
  };
}

export type InvocationRecorder = ReturnType<typeof createInvocationRecorder>;
