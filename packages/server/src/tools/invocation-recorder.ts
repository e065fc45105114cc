/**
 * Writes what happened to one execute attempt in a single transaction: the invocation row, its
 * audit event, the usage event (only when the upstream was reached) and the idempotency outcome.
 */
import { randomUUID } from "node:crypto";
import type { AuditLog } from "../audit/audit-log.js";
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

const outcomeContext = (tenantId: string, invocationId: string) => ({ tenantId, table: "invocations", rowId: invocationId, field: "outcome" });

type RecorderDeps = {
  store: Pick<Store, "db">;
  queries: InvocationQueries;
  vault: Pick<Vault, "seal" | "open">;
  audit: Pick<AuditLog, "appendIn">;
  idempotency: Pick<Idempotency, "complete">;
  clock: Clock;
};

export function createInvocationRecorder({ store, queries, vault, audit, idempotency, clock }: RecorderDeps) {
  async function writeAudit(trx: Tx, record: AttemptRecord, action: string) {
    const outcome = record.status === "succeeded" || record.status === "awaiting_approval" ? "success" : record.status === "denied" ? "denied" : "failure";
    await audit.appendIn(trx, {
      tenantId: record.caller.tenantId,
      actor: record.caller.actor,
      action,
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
    });
  }

  return {
    openOutcome: async (row: Pick<InvocationRow, "tenant_id" | "id" | "outcome_sealed">): Promise<StoredOutcome | undefined> =>
      row.outcome_sealed ? (JSON.parse(await vault.open(outcomeContext(row.tenant_id, row.id), row.outcome_sealed)) as StoredOutcome) : undefined,

    /** `extra` writes more rows in the same transaction (e.g. the approval a waiting call needs). */
    async record(record: AttemptRecord, options: { argumentsSealed?: string; extra?: (trx: Tx) => Promise<void> } = {}) {
      const now = clock.now().toISOString();
      const sealedOutcome = record.outcome ? await vault.seal(outcomeContext(record.caller.tenantId, record.invocationId), JSON.stringify(record.outcome)) : null;
      const finished = record.status !== "awaiting_approval";
      await store.db.transaction().execute(async (trx) => {
        await options.extra?.(trx);
        if (record.existing) {
          await queries.complete(trx, record.invocationId, {
            status: record.status,
            error_code: record.errorCode,
            upstream_status: record.upstreamStatus,
            latency_ms: record.latencyMs,
            outcome_sealed: sealedOutcome,
            completed_at: now,
            approval_id: record.approvalId,
          });
        } else {
          await queries.insert(trx, {
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
            arguments_sealed: options.argumentsSealed ?? null,
            arguments_fingerprint: record.argumentsFingerprint,
            outcome_sealed: sealedOutcome,
            approval_id: record.approvalId,
            idempotency_key: record.idempotency?.key ?? null,
            created_at: now,
            completed_at: finished ? now : null,
          });
        }
        await writeAudit(trx, record, finished ? "tool.executed" : "tool.approval_requested");
        if (record.upstreamStatus !== null) {
          await queries.insertUsage(trx, {
            id: randomUUID(),
            tenant_id: record.caller.tenantId,
            env: record.caller.env,
            agent_app_id: record.caller.agentAppId,
            tool_name: record.toolName,
            invocation_id: record.invocationId,
            period: now.slice(0, 7),
            occurred_at: now,
          });
        }
        if (record.idempotency && record.outcome) await idempotency.complete(trx, record.idempotency, record.invocationId, record.outcome.status);
      });
    },

    sealArguments: (tenantId: string, invocationId: string, args: unknown) =>
      vault.seal({ tenantId, table: "invocations", rowId: invocationId, field: "arguments" }, JSON.stringify(args)),
    openArguments: async (row: Pick<InvocationRow, "tenant_id" | "id" | "arguments_sealed">) =>
      JSON.parse(await vault.open({ tenantId: row.tenant_id, table: "invocations", rowId: row.id, field: "arguments" }, row.arguments_sealed ?? "")) as Record<string, unknown>,
  };
}

export type InvocationRecorder = ReturnType<typeof createInvocationRecorder>;
