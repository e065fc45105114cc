/**
 * Group commit (src/store/write-batcher.ts) on a real database, through its user the audit log's
 * standalone appends: concurrent writes share one transaction and each resolves only once its row
 * is committed; a batch that fails on one bad row is retried row by row; a batch that fails as
 * the database goes away rolls back and rejects every writer in it, and the next batch commits;
 * close() writes what is queued before it resolves. The batcher's scheduling with fake writers
 * is in src/store/write-batcher.unit.test.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAuditLog, type AuditEntry } from "../../src/audit/audit-log.js";
import { createAuditQueries } from "../../src/audit/audit-queries.js";
import { systemClock } from "../../src/clock.js";
import { migrateToLatest, openStore, type Store, type Tx } from "../../src/store/database.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../support/databases.js";

describeEachDatabase("group commit on a real database", (kind) => {
  let database: TestDatabase;
  let store: Store;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    store = openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    await migrateToLatest(store.db);
    for (const id of ["shared", "bad-row", "outage", "drain"]) {
      await store.db.insertInto("tenants").values({ id, name: id, plan_id: "free", created_at: new Date().toISOString() }).execute();
    }
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /** An audit log whose transactions are counted, and whose next one can be failed after its writes. */
  function countedAuditLog() {
    const queries = createAuditQueries(store);
    const state = { transactions: 0, failAfterWriting: undefined as Error | undefined };
    const transaction = <T>(work: (trx: Tx) => Promise<T>) => {
      state.transactions += 1;
      return queries.transaction(async (trx) => {
        const result = await work(trx);
        const failure = state.failAfterWriting;
        state.failAfterWriting = undefined;
        if (failure) throw failure;
        return result;
      });
    };
    return { audit: createAuditLog({ queries: { ...queries, transaction }, clock: systemClock }), state };
  }

  const entry = (tenantId: string, action: string): AuditEntry => ({ tenantId, actor: { type: "system", id: "group-commit-test" }, action });
  const actionsOf = async (tenantId: string) =>
    (await store.db.selectFrom("audit_events").select("action").where("tenant_id", "=", tenantId).orderBy("seq").execute()).map((row) => row.action);
  const committed = async (tenantId: string, action: string) =>
    (await store.db.selectFrom("audit_events").select("id").where("tenant_id", "=", tenantId).where("action", "=", action).execute()).length === 1;

  it("commits concurrent appends in one transaction, and each caller goes on only once its own row is committed", async () => {
    const { audit, state } = countedAuditLog();
    const seenAtResolve = await Promise.all(
      Array.from({ length: 50 }, (_, i) => audit.append(entry("shared", `a${i}`)).then(() => committed("shared", `a${i}`))),
    );
    expect(seenAtResolve).toEqual(Array(50).fill(true));
    expect(state.transactions).toBe(1);
    expect(await audit.verify("shared")).toEqual({ ok: true, events: 50 });
  });

  it("retries a batch that one bad row failed row by row: only that writer is refused, the others commit", async () => {
    const { audit, state } = countedAuditLog();
    const outcomes = await Promise.allSettled([
      audit.append(entry("bad-row", "before")),
      // No such tenant: the foreign key refuses the row, and with it the batch's transaction.
      audit.append(entry("no-such-tenant", "orphan")),
      audit.append(entry("bad-row", "after")),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(state.transactions).toBe(1 + 3);
    expect(await actionsOf("bad-row")).toEqual(["before", "after"]);
    expect(await audit.verify("bad-row")).toEqual({ ok: true, events: 2 });
  });

  it("rejects every writer of a batch that failed as the database went away, keeps none of its rows, and commits the next batch", async () => {
    const { audit, state } = countedAuditLog();
    await audit.append(entry("outage", "first"));
    // pg's words when the server closes the connection (store/database-errors.ts), after the rows were written.
    const lost = new Error("Connection terminated unexpectedly");
    state.failAfterWriting = lost;
    const transactionsBefore = state.transactions;
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => audit.append(entry("outage", `lost${i}`))));
    expect(outcomes).toEqual(Array(10).fill({ status: "rejected", reason: lost }));
    // Not retried row by row: each retry could only wait out another timeout.
    expect(state.transactions - transactionsBefore).toBe(1);
    await Promise.all([audit.append(entry("outage", "next-1")), audit.append(entry("outage", "next-2"))]);
    expect(await actionsOf("outage")).toEqual(["first", "next-1", "next-2"]);
    expect(await audit.verify("outage")).toEqual({ ok: true, events: 3 });
  });

  it("writes every queued append before close() resolves, then refuses new ones", async () => {
    const { audit } = countedAuditLog();
    const appends = Array.from({ length: 20 }, (_, i) => audit.append(entry("drain", `d${i}`)));
    await audit.close();
    expect(await actionsOf("drain")).toHaveLength(20);
    await Promise.all(appends);
    await expect(audit.append(entry("drain", "late"))).rejects.toMatchObject({ code: "service_unavailable" });
    expect(await actionsOf("drain")).toHaveLength(20);
  });
});
