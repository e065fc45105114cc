/**
 * Every query on `audit_events`; bound to the store once in app.ts. Appends run in the caller's
 * transaction, after taking the tenant's chain lock, so two writers never chain after the same row.
 */
import type { Store, Tx } from "../store/database.js";
import { preparedInsert, preparedQuery } from "../store/prepared.js";
import type { AuditEventsTable } from "../store/schema.js";

export type AuditRow = AuditEventsTable;

export type AuditFilter = {
  since?: string;
  until?: string;
  agent_app_id?: string;
  tool?: string;
  action?: string;
  outcome?: string;
  end_user_id?: string;
  beforeSeq?: number | undefined;
  limit: number;
};

const AUDIT_COLUMNS = [
  "id",
  "tenant_id",
  "seq",
  "occurred_at",
  "actor_type",
  "actor_id",
  "action",
  "target_type",
  "target_id",
  "outcome",
  "agent_app_id",
  "tool_name",
  "data",
  "prev_hash",
  "hash",
  "end_user_id",
] as const satisfies readonly (keyof AuditRow)[];

export function createAuditQueries(store: Pick<Store, "db" | "kind" | "lock">) {
  const { db } = store;
  // Every append runs these two: compiled once (store/prepared.ts).
  const insertRows = preparedInsert<AuditRow>(store, AUDIT_COLUMNS, (executor, rows) => executor.insertInto("audit_events").values(rows));
  const TENANT = Symbol("tenant");
  const lastLinkOf = preparedQuery(
    db.selectFrom("audit_events").select(["seq", "hash"]).where("tenant_id", "=", TENANT as unknown as string).orderBy("seq", "desc").limit(1).compile(),
    TENANT,
  );
  return {
    transaction: <T>(work: (trx: Tx) => Promise<T>) => db.transaction().execute(work),

    /** Holds the tenant's chain for the rest of `trx` (PostgreSQL; SQLite has one writer anyway). */
    lockChain: (trx: Tx, tenantId: string) => store.lock(trx, `audit:${tenantId}`),

    /** The tenant's newest row: the next one chains after it. */
    lastLink: async (trx: Tx, tenantId: string): Promise<Pick<AuditRow, "seq" | "hash"> | undefined> => (await lastLinkOf(trx, tenantId))[0],

    insertMany: (trx: Tx, rows: readonly AuditRow[]): Promise<void> => insertRows(trx, rows),

    /** A page of the tenant's events, newest first. */
    list(tenantId: string, filter: AuditFilter): Promise<AuditRow[]> {
      let query = db.selectFrom("audit_events").select(AUDIT_COLUMNS).where("tenant_id", "=", tenantId);
      if (filter.since) query = query.where("occurred_at", ">=", new Date(filter.since).toISOString());
      if (filter.until) query = query.where("occurred_at", "<", new Date(filter.until).toISOString());
      if (filter.agent_app_id) query = query.where("agent_app_id", "=", filter.agent_app_id);
      if (filter.tool) query = query.where("tool_name", "=", filter.tool);
      if (filter.action) query = query.where("action", "=", filter.action);
      if (filter.outcome) query = query.where("outcome", "=", filter.outcome);
      if (filter.end_user_id) query = query.where("end_user_id", "=", filter.end_user_id);
      if (filter.beforeSeq !== undefined) query = query.where("seq", "<", filter.beforeSeq);
      return query.orderBy("seq", "desc").limit(filter.limit).execute();
    },

    /** One page of the tenant's chain, oldest first, from `fromSeq` on (for verification). */
    chainPage: (tenantId: string, fromSeq: number, limit: number): Promise<AuditRow[]> =>
      db.selectFrom("audit_events").select(AUDIT_COLUMNS).where("tenant_id", "=", tenantId).where("seq", ">=", fromSeq).orderBy("seq", "asc").limit(limit).execute(),

    count: async (tenantId: string): Promise<number> =>
      Number((await db.selectFrom("audit_events").select((eb) => eb.fn.countAll<number>().as("n")).where("tenant_id", "=", tenantId).executeTakeFirstOrThrow()).n),
  };
}

export type AuditQueries = ReturnType<typeof createAuditQueries>;
