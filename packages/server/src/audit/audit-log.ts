/**
 * The append-only audit log. Each row carries the hash of its tenant's previous row, so editing
 * or deleting a row breaks the chain that `toolbroker audit verify` checks.
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import type { Store, Tx } from "../store/database.js";
import { GENESIS_HASH, hashAuditRow, verifyChain } from "./audit-chain.js";

export type AuditActor = { type: "operator" | "control_key" | "agent_app" | "system" | "cli"; id: string };

export type AuditEntry = {
  tenantId: string;
  actor: AuditActor;
  action: string;
  target?: { type: string; id: string };
  outcome?: "success" | "failure" | "denied";
  agentAppId?: string;
  toolName?: string;
  data?: Record<string, unknown>;
};

export type AuditFilter = {
  since?: string;
  until?: string;
  agent_app_id?: string;
  tool?: string;
  action?: string;
  outcome?: string;
  beforeSeq?: number | undefined;
  limit: number;
};

type AuditLogDeps = { store: Pick<Store, "db" | "lock">; clock: Clock };

export function createAuditLog({ store, clock }: AuditLogDeps) {
  async function appendIn(trx: Tx, entry: AuditEntry): Promise<string> {
    await store.lock(trx, `audit:${entry.tenantId}`);
    const last = await trx
      .selectFrom("audit_events")
      .select(["seq", "hash"])
      .where("tenant_id", "=", entry.tenantId)
      .orderBy("seq", "desc")
      .limit(1)
      .executeTakeFirst();
    const row = {
      tenant_id: entry.tenantId,
      seq: (last?.seq ?? 0) + 1,
      occurred_at: clock.now().toISOString(),
      actor_type: entry.actor.type,
      actor_id: entry.actor.id,
      action: entry.action,
      target_type: entry.target?.type ?? null,
      target_id: entry.target?.id ?? null,
      outcome: entry.outcome ?? "success",
      agent_app_id: entry.agentAppId ?? null,
      tool_name: entry.toolName ?? null,
      data: JSON.stringify(entry.data ?? {}),
      prev_hash: last?.hash ?? GENESIS_HASH,
    };
    const id = randomUUID();
    await trx.insertInto("audit_events").values({ ...row, id, hash: hashAuditRow(row) }).execute();
    return id;
  }

  return {
    /** Appends inside the caller's transaction, so the event exists exactly when the change does. */
    appendIn,
    append: (entry: AuditEntry) => store.db.transaction().execute((trx) => appendIn(trx, entry)),
    async list(tenantId: string, filter: AuditFilter) {
      let query = store.db.selectFrom("audit_events").selectAll().where("tenant_id", "=", tenantId);
      if (filter.since) query = query.where("occurred_at", ">=", new Date(filter.since).toISOString());
      if (filter.until) query = query.where("occurred_at", "<", new Date(filter.until).toISOString());
      if (filter.agent_app_id) query = query.where("agent_app_id", "=", filter.agent_app_id);
      if (filter.tool) query = query.where("tool_name", "=", filter.tool);
      if (filter.action) query = query.where("action", "=", filter.action);
      if (filter.outcome) query = query.where("outcome", "=", filter.outcome);
      if (filter.beforeSeq !== undefined) query = query.where("seq", "<", filter.beforeSeq);
      return query.orderBy("seq", "desc").limit(filter.limit).execute();
    },

    async verify(tenantId: string) {
      const rows = await store.db
        .selectFrom("audit_events")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .orderBy("seq", "asc")
        .execute();
      return verifyChain(rows);
    },
  };
}

export type AuditLog = ReturnType<typeof createAuditLog>;
