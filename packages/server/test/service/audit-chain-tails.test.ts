/**
 * The audit chains' locks and tails: PostgreSQL takes them in one round trip (migration
 * 0010-audit-chain-tails), which is only right if the tail is read after the lock is held.
 */
import { afterEach, expect, it } from "vitest";
import { createAuditLog } from "../../src/audit/audit-log.js";
import { createAuditQueries } from "../../src/audit/audit-queries.js";
import { systemClock } from "../../src/clock.js";
import { migrateToLatest, openStore, type Store } from "../../src/store/database.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../support/databases.js";

describeEachDatabase("audit chain tails", (kind) => {
  let database: TestDatabase;
  let stores: Store[] = [];
  afterEach(async () => {
    await Promise.all(stores.map((store) => store.close()));
    stores = [];
    await database.drop();
  });

  async function open(count: number): Promise<Store[]> {
    database = await createTestDatabase(kind);
    stores = Array.from({ length: count }, () => openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir }));
    await migrateToLatest(stores[0]!.db);
    for (const id of ["t1", "t2", "t3"]) await stores[0]!.db.insertInto("tenants").values({ id, name: id, plan_id: "free", created_at: new Date().toISOString() }).execute();
    return stores;
  }

  const entry = (tenantId: string, action: string) => ({ tenantId, actor: { type: "system" as const, id: "test" }, action });

  it("answers each chain's last row, and none for a tenant without events", async () => {
    const [store] = await open(1);
    const audit = createAuditLog({ queries: createAuditQueries(store!), clock: systemClock });
    await Promise.all([audit.append(entry("t1", "a")), audit.append(entry("t1", "b")), audit.append(entry("t2", "c"))]);
    const last = await store!.db.selectFrom("audit_events").select(["tenant_id", "seq", "hash"]).orderBy("seq", "desc").execute();
    const tails = await store!.db.transaction().execute((trx) => createAuditQueries(store!).lockTails(["t1", "t2", "t3"], trx));
    expect(tails).toEqual(
      new Map([
        ["t1", { seq: 2, hash: last.find((row) => row.tenant_id === "t1")!.hash }],
        ["t2", { seq: 1, hash: last.find((row) => row.tenant_id === "t2")!.hash }],
      ]),
    );
  });

  it.skipIf(kind !== "postgres")("makes a second writer wait for the chain and then read the first one's rows", async () => {
    const [first, second] = await open(2);
    const firstAudit = createAuditLog({ queries: createAuditQueries(first!), clock: systemClock });
    let releaseFirst!: () => void;
    const firstHolds = new Promise<void>((resolve) => (releaseFirst = resolve));
    let firstLocked!: () => void;
    const locked = new Promise<void>((resolve) => (firstLocked = resolve));
    const firstWrite = first!.db.transaction().execute(async (trx) => {
      await firstAudit.appendManyIn([entry("t1", "first 1"), entry("t1", "first 2")], trx);
      firstLocked();
      await firstHolds;
    });
    await locked;

    let secondDone = false;
    const secondTails = second!.db
      .transaction()
      .execute((trx) => createAuditQueries(second!).lockTails(["t1"], trx))
      .then((tails) => ((secondDone = true), tails));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(secondDone).toBe(false);

    releaseFirst();
    await firstWrite;
    expect((await secondTails).get("t1")?.seq).toBe(2);
  });

  it("keeps every chain unbroken while several brokers append to the same tenants at once", async () => {
    const opened = await open(kind === "postgres" ? 3 : 1);
    const logs = opened.map((store) => createAuditLog({ queries: createAuditQueries(store), clock: systemClock }));
    await Promise.all(
      Array.from({ length: 120 }, (_, i) => logs[i % logs.length]!.append(entry(["t1", "t2", "t3"][i % 3]!, `entry ${i}`))),
    );
    for (const tenantId of ["t1", "t2", "t3"]) expect(await logs[0]!.verify(tenantId)).toEqual({ ok: true, events: 40 });
  });
});
