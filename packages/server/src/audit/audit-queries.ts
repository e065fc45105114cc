/**
 * Every query on `audit_events`; bound to the store once in app.ts. Appends run in the caller's
 * transaction, after taking the tenant's chain lock, so two writers never chain after the same row.
 */
import { CompiledQuery } from "kysely";
import type { Store, Tx } from "../store/database.js";
import { AUDIT_COLUMNS } from "../store/hot-statements.js";
import { hotStatement, preparedQuery, runTogether, type Statement } from "../store/prepared.js";
import type { AuditEventsTable } from "../store/schema.js";

export type AuditRow = AuditEventsTable;
/** A chain's last row: the next one chains after it. */
export type ChainLink = Pick<AuditRow, "seq" | "hash">;

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


export function createAuditQueries(store: Pick<Store, "db" | "kind" | "transaction">) {
  const { db } = store;
  // Every append runs these: compiled ahead of time (store/hot-statements.ts, store/prepared.ts).
  const insertRows = hotStatement<AuditRow>(store, "audit_events.insert");
  const TENANT = Symbol("tenant");
  const lastLinkOf = preparedQuery(
    db.selectFrom("audit_events").select(["seq", "hash"]).where("tenant_id", "=", TENANT as unknown as string).orderBy("seq", "desc").limit(1).compile(),
    TENANT,
  );

  /** SQLite has one writer at a time, so the chains need no lock: each tail is one lookup. */
  async function sqliteTails(tenantIds: readonly string[], trx: Tx) {
    const tails = new Map<string, ChainLink>();
    for (const tenantId of tenantIds) {
      const [last] = await lastLinkOf(tenantId, trx);
      if (last) tails.set(tenantId, last);
    }
    return tails;
  }

  /** PostgreSQL: the locks and the lookups in one round trip (migration 0010-audit-chain-tails). */
  async function postgresTails(tenantIds: readonly string[], trx: Tx) {
    const query = CompiledQuery.raw("select chain_tenant_id, last_seq, last_hash from audit_chain_tails($1)", [tenantIds]);
    const { rows } = await trx.executeQuery<{ chain_tenant_id: string; last_seq: number; last_hash: string }>(query);
    return new Map(rows.map((row): [string, ChainLink] => [row.chain_tenant_id, { seq: row.last_seq, hash: row.last_hash }]));
  }

  return {
    /** The store's transaction (retried on a lost race: the standalone appends are database work only). */
    transaction: store.transaction,

    /**
     * Holds the tenants' chains for the rest of `trx`, locked in the order given, and answers each
     * chain's last row (none for a tenant without events yet).
     */
    lockTails: (tenantIds: readonly string[], trx: Tx): Promise<Map<string, ChainLink>> =>
      store.kind === "postgres" ? postgresTails(tenantIds, trx) : sqliteTails(tenantIds, trx),

    /** The INSERTs of chained rows, for the caller to run in the transaction that holds their chains. */
    insertStatements: (rows: readonly AuditRow[]): Statement[] => insertRows(rows),

    insertMany: (rows: readonly AuditRow[], trx: Tx): Promise<void> => runTogether(store, insertRows(rows), trx),

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
