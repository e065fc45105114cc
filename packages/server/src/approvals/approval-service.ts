/**
 * Human approvals for risky calls. An approval authorises exactly one call: the same tenant, env,
 * agent app, tool, credential handle and arguments (by canonical fingerprint), once.
 */
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { Env } from "../ids.js";
import type { Store, Tx } from "../store/database.js";
import type { ApprovalsTable } from "../store/schema.js";
import { createApprovalQueries } from "./approval-queries.js";

export type ApprovalRow = ApprovalsTable;
export type PendingCall = {
  approvalId: string;
  tenantId: string;
  env: Env;
  agentAppId: string;
  invocationId: string;
  toolName: string;
  provider: string;
  connectionId: string | null;
  secretItemId: string | null;
  argumentsFingerprint: string;
  argumentsRedacted: unknown;
  ruleId: string | null;
};

type ApprovalDeps = { store: Pick<Store, "db">; audit: Pick<AuditLog, "appendIn">; events: Pick<EventOutbox, "emitIn">; clock: Clock; ttlSeconds: number };

export function present(row: ApprovalRow, now: Date) {
  const expired = row.status === "expired" || ((row.status === "pending" || row.status === "approved") && row.expires_at <= now.toISOString());
  return {
    approval_id: row.id,
    status: expired ? ("expired" as const) : row.status,
    invocation_id: row.invocation_id,
    tool_name: row.tool_name,
    provider: row.provider,
    agent_app_id: row.agent_app_id,
    env: row.env,
    connected_account_id: row.connection_id,
    secret_item_id: row.secret_item_id,
    arguments: JSON.parse(row.arguments_redacted) as Record<string, unknown>,
    rule_id: row.rule_id,
    requested_at: row.created_at,
    expires_at: row.expires_at,
    decision: row.decided_at ? { decision: row.status === "denied" ? ("deny" as const) : ("approve" as const), decided_by: row.decided_by, decided_at: row.decided_at, reason: row.reason } : null,
    consumed_at: row.consumed_at,
  };
}

export function createApprovalService({ store, audit, events, clock, ttlSeconds }: ApprovalDeps) {
  const { db } = store;
  const queries = createApprovalQueries();
  const isExpired = (row: ApprovalRow) => row.expires_at <= clock.now().toISOString();

  return {
    /** Inside the caller's transaction, alongside the invocation that waits for it. */
    async createIn(trx: Tx, call: PendingCall): Promise<ApprovalRow> {
      const now = clock.now();
      const row: ApprovalRow = {
        id: call.approvalId,
        tenant_id: call.tenantId,
        env: call.env,
        agent_app_id: call.agentAppId,
        invocation_id: call.invocationId,
        tool_name: call.toolName,
        provider: call.provider,
        connection_id: call.connectionId,
        secret_item_id: call.secretItemId,
        arguments_fingerprint: call.argumentsFingerprint,
        arguments_redacted: JSON.stringify(call.argumentsRedacted),
        status: "pending",
        rule_id: call.ruleId,
        reason: null,
        decided_by: null,
        decided_at: null,
        consumed_at: null,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + ttlSeconds * 1000).toISOString(),
      };
      await queries.insert(trx, row);
      await events.emitIn(trx, {
        tenantId: call.tenantId,
        type: "approval.requested",
        data: { approval_id: row.id, invocation_id: row.invocation_id, tool_name: row.tool_name, agent_app_id: row.agent_app_id, env: row.env, expires_at: row.expires_at },
      });
      return row;
    },

    async listPending(tenantId: string, page: { limit: number; after?: { created_at: string; id: string } }) {
      const rows = await queries.listPending(db, tenantId, { limit: page.limit + 1, after: page.after, now: clock.now().toISOString() });
      return { rows: rows.slice(0, page.limit), more: rows.length > page.limit };
    },

    async get(tenantId: string, id: string): Promise<ApprovalRow> {
      const row = await queries.find(db, tenantId, id);
      if (!row) throw notFound("approval");
      return row;
    },

    /** The approval a waiting invocation asked for (an invocation asks for at most one). */
    async findForInvocation(tenantId: string, invocationId: string): Promise<ApprovalRow | undefined> {
      return queries.findForInvocation(db, tenantId, invocationId);
    },

    async decide(tenantId: string, id: string, input: { decision: "approve" | "deny"; reason?: string | undefined }, actor: AuditActor) {
      const row = await this.get(tenantId, id);
      if (row.status !== "pending") throw new BrokerError("approval_already_decided", `the approval was already ${row.status}`, { status: row.status });
      if (isExpired(row)) throw new BrokerError("approval_expired", "the approval expired before a decision", { expires_at: row.expires_at });
      const at = clock.now().toISOString();
      const status = input.decision === "approve" ? "approved" : "denied";
      await db.transaction().execute(async (trx) => {
        const decided = await queries.decide(trx, id, { status, decided_by: actor.id, decided_at: at, reason: input.reason ?? null });
        // Two operators deciding at once: the second loses cleanly.
        if (!decided) throw new BrokerError("approval_already_decided", "the approval was decided concurrently");
        await audit.appendIn(trx, {
          tenantId,
          actor,
          action: "approval.decided",
          target: { type: "approval", id },
          agentAppId: row.agent_app_id,
          toolName: row.tool_name,
          outcome: input.decision === "approve" ? "success" : "denied",
          data: { decision: input.decision, invocation_id: row.invocation_id, reason: input.reason ?? null },
        });
        await events.emitIn(trx, {
          tenantId,
          type: "approval.decided",
          data: { approval_id: id, invocation_id: row.invocation_id, tool_name: row.tool_name, decision: input.decision, decided_by: actor.id, decided_at: at },
        });
      });
      return { ...row, status, decided_by: actor.id, decided_at: at, reason: input.reason ?? null } as ApprovalRow;
    },

    /** Atomically turns an approved approval into a used one; false if someone else got there first. */
    async consume(id: string): Promise<boolean> {
      return queries.consume(db, id, clock.now().toISOString());
    },

    isExpired,
  };
}

export type ApprovalService = ReturnType<typeof createApprovalService>;
