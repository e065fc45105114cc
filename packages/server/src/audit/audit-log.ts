/**
 * The append-only audit log. Each row carries the hash of its tenant's previous row, so editing
 * or deleting a row breaks the chain that `toolbroker audit verify` checks.
 */
import { uuidv7 } from "../ids.js";
import type { Clock } from "../clock.js";
import type { Store, Tx } from "../store/database.js";
import type { AuditEventsTable } from "../store/schema.js";
import { GENESIS_HASH, hashAuditRow, verifyChain } from "./audit-chain.js";

/** Rows per INSERT: well under SQLite's limit of bound parameters. */
const INSERT_CHUNK = 100;

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
  /** Chains a tenant's entries after its current last row, in order; one lookup per tenant. */
  async function appendTenantIn(trx: Tx, tenantId: string, entries: AuditEntry[]): Promise<string[]> {
    await store.lock(trx, `audit:${tenantId}`);
    const last = await trx
      .selectFrom("audit_events")
      .select(["seq", "hash"])
      .where("tenant_id", "=", tenantId)
      .orderBy("seq", "desc")
      .limit(1)
      .executeTakeFirst();
    let seq = last?.seq ?? 0;
    let previous = last?.hash ?? GENESIS_HASH;
    const occurredAt = clock.now().toISOString();
    const rows: AuditEventsTable[] = entries.map((entry) => {
      seq += 1;
      const row = {
        tenant_id: tenantId,
        seq,
        occurred_at: occurredAt,
        actor_type: entry.actor.type,
        actor_id: entry.actor.id,
        action: entry.action,
        target_type: entry.target?.type ?? null,
        target_id: entry.target?.id ?? null,
        outcome: entry.outcome ?? "success",
        agent_app_id: entry.agentAppId ?? null,
        tool_name: entry.toolName ?? null,
        data: JSON.stringify(entry.data ?? {}),
        prev_hash: previous,
      };
      previous = hashAuditRow(row);
      return { ...row, id: uuidv7(), hash: previous };
    });
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await trx.insertInto("audit_events").values(rows.slice(i, i + INSERT_CHUNK)).execute();
    }
    return rows.map((row) => row.id);
  }

  /** Appends many entries in the caller's transaction; tenants are locked in a fixed order. */
  async function appendManyIn(trx: Tx, entries: AuditEntry[]): Promise<void> {
    const byTenant = new Map<string, AuditEntry[]>();
    for (const entry of entries) byTenant.set(entry.tenantId, [...(byTenant.get(entry.tenantId) ?? []), entry]);
    for (const tenantId of [...byTenant.keys()].sort()) await appendTenantIn(trx, tenantId, byTenant.get(tenantId)!);
  }

  async function appendIn(trx: Tx, entry: AuditEntry): Promise<string> {
    const [id] = await appendTenantIn(trx, entry.tenantId, [entry]);
    return id!;
  }

  return {
    /** Appends inside the caller's transaction, so the event exists exactly when the change does. */
    appendIn,
    appendManyIn,
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
