/**
 * Where executions are metered: a call that reached the provider when first recorded on its
 * invocation row (`metered_period`), any other by a `usage_events` row (migration
 * 0011-metered-invocations). Usage and metering read both, and a store migrated from before keeps
 * its events and its metering reports.
 */
import { sql } from "kysely";
import { afterEach, expect, it } from "vitest";
import { createMeteringQueries, type PendingScope } from "../../src/metering/metering-queries.js";
import { migrateToLatest, migratorOf, openStore, type Store } from "../../src/store/database.js";
import type { InvocationsTable, UsageEventsTable } from "../../src/store/schema.js";
import { createUsageQueries } from "../../src/usage/usage-queries.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "../support/databases.js";

const AT = "2026-03-14T10:00:00.000Z";

/** The migrations up to 0012 that a migration to the latest ran: what these tests are about (later ones run too). */
const migrateThrough0012 = async (opened: Store) => (await migrateToLatest(opened.db)).filter((name) => name <= "0012-metering-report-times");

/** An invocation row as these migrations know it (later migrations add nullable columns). */
function invocation(id: string, meteredPeriod: string | null, createdAt = AT): Omit<InvocationsTable, "request_fingerprint" | "trace_id"> {
  return {
    id, tenant_id: "t1", env: "live", agent_app_id: "app_1", actor_type: "agent_app", actor_id: "app_1", tool_name: "scm.get_authenticated_user",
    provider: "scm", connection_id: null, secret_item_id: null, status: "succeeded", error_code: null, upstream_status: 200, latency_ms: 3,
    arguments_redacted: "{}", arguments_sealed: null, arguments_fingerprint: "f", outcome_sealed: null, approval_id: null, idempotency_key: null,
    created_at: createdAt, completed_at: createdAt, end_user_id: null, metered_period: meteredPeriod,
  };
}

function usageEvent(id: string, invocationId: string, occurredAt = AT): UsageEventsTable {
  return { id, tenant_id: "t1", env: "test", agent_app_id: "app_1", tool_name: "scm.delete_repository", invocation_id: invocationId, end_user_id: "alice", period: occurredAt.slice(0, 7), occurred_at: occurredAt };
}

describeEachDatabase("metered executions", (kind) => {
  let database: TestDatabase;
  let store: Store;
  afterEach(async () => {
    await store.close();
    await database.drop();
  });

  async function open(until?: string): Promise<Store> {
    database = await createTestDatabase(kind);
    store = openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    if (until) {
      const { error } = await migratorOf(store.db).migrateTo(until);
      if (error) throw error;
    } else {
      await migrateToLatest(store.db);
    }
    await store.db.insertInto("tenants").values({ id: "t1", name: "t1", plan_id: "free", created_at: AT }).execute();
    return store;
  }

  it("counts calls metered on their row and usage events together, in usage, days and metering", async () => {
    await open();
    await store.db.insertInto("invocations").values([invocation("inv_row", "2026-03"), invocation("inv_event", null), invocation("inv_unmetered", null)]).execute();
    await store.db.insertInto("usage_events").values(usageEvent("use_1", "inv_event", "2026-03-15T08:00:00.000Z")).execute();
    // Another month's call, metered on its row: outside March.
    await store.db.insertInto("invocations").values(invocation("inv_april", "2026-04", "2026-04-01T00:00:00.000Z")).execute();

    const metering = createMeteringQueries(store);
    expect(await metering.usageByEnv("t1", "2026-03")).toEqual({ test: 1, live: 1 });
    expect(await metering.usageByEnv("t1", "2026-04")).toEqual({ test: 0, live: 1 });
    expect(await metering.usageByEnv("t1", "2026-05")).toEqual({ test: 0, live: 0 });

    const usage = createUsageQueries(store);
    expect(await usage.countDaily("t1", "2026-03", undefined)).toEqual(
      expect.arrayContaining([
        { day: "2026-03-14", env: "live", executions: 1 },
        { day: "2026-03-15", env: "test", executions: 1 },
      ]),
    );
    expect(await usage.countDaily("t1", "2026-03", "test")).toEqual([{ day: "2026-03-15", env: "test", executions: 1 }]);
    expect(await usage.countUsage({ tenantId: "t1", from: "2026-03", to: "2026-04", byEndUser: true })).toEqual([
      { period: "2026-03", env: "live", agent_app_id: "app_1", tool_name: "scm.get_authenticated_user", end_user_id: null, executions: 1 },
      { period: "2026-03", env: "test", agent_app_id: "app_1", tool_name: "scm.delete_repository", end_user_id: "alice", executions: 1 },
      { period: "2026-04", env: "live", agent_app_id: "app_1", tool_name: "scm.get_authenticated_user", end_user_id: null, executions: 1 },
    ]);
    expect(await usage.countUsage({ tenantId: "t1", from: "2026-03", to: "2026-03", tool: "scm.delete_repository" })).toEqual([
      { period: "2026-03", env: "test", agent_app_id: "app_1", tool_name: "scm.delete_repository", executions: 1 },
    ]);
    expect(await usage.countUsage({ tenantId: "t1", from: "2026-03", to: "2026-04", endUserId: "alice" })).toHaveLength(1);

    // Reported oldest first, keyed by the usage event's id or the invocation's; each once.
    const pending = await metering.pendingUsage("t1", 10);
    expect(pending.map((row) => [row.id, row.env, row.period, row.occurred_at])).toEqual([
      ["inv_row", "live", "2026-03", AT],
      ["use_1", "test", "2026-03", "2026-03-15T08:00:00.000Z"],
      ["inv_april", "live", "2026-04", "2026-04-01T00:00:00.000Z"],
    ]);
    expect((await metering.pendingUsage("t1", 1)).map((row) => row.id)).toEqual(["inv_row"]);
    await metering.markReported(pending.slice(0, 2), "test", AT);
    expect((await metering.pendingUsage("t1", 10)).map((row) => row.id)).toEqual(["inv_april"]);
    expect(await metering.reportedCount("t1", "2026-03")).toBe(2);
  });

  it("reads pending executions of one period, or since an instant, from both sources, and knows the newest reported", async () => {
    await open();
    await store.db.insertInto("invocations").values([
      invocation("inv_feb", "2026-02", "2026-02-27T10:00:00.000Z"),
      invocation("inv_early", "2026-03", "2026-03-01T10:00:00.000Z"),
      invocation("inv_late", "2026-03", "2026-03-20T10:00:00.000Z"),
      invocation("inv_event", null, "2026-03-02T10:00:00.000Z"),
    ]).execute();
    await store.db.insertInto("usage_events").values([usageEvent("use_feb", "inv_x", "2026-02-28T10:00:00.000Z"), usageEvent("use_mar", "inv_event", "2026-03-19T10:00:00.000Z")]).execute();
    const metering = createMeteringQueries(store);
    const ids = async (scope: PendingScope) => (await metering.pendingUsage("t1", 10, scope)).map((row) => row.id);

    expect(await ids({})).toEqual(["inv_feb", "use_feb", "inv_early", "use_mar", "inv_late"]);
    expect(await ids({ throughPeriod: "2026-02" })).toEqual(["inv_feb", "use_feb"]);
    expect(await ids({ throughPeriod: "2026-03" })).toEqual(["inv_feb", "use_feb", "inv_early", "use_mar", "inv_late"]);
    expect(await ids({ since: "2026-02-28T10:00:00.000Z" })).toEqual(["use_feb", "inv_early", "use_mar", "inv_late"]);
    expect(await ids({ since: "2026-03-19T10:00:00.001Z" })).toEqual(["inv_late"]);

    expect(await metering.newestReported("t1")).toBeUndefined();
    await metering.markReported(await metering.pendingUsage("t1", 3, {}), "test", AT);
    expect(await metering.newestReported("t1")).toBe("2026-03-01T10:00:00.000Z");
    expect(await ids({})).toEqual(["use_mar", "inv_late"]);
  });

  it("gives existing metering reports the time of their execution, from either source, when it migrates", async () => {
    await open("0011-metered-invocations");
    await store.db.insertInto("invocations").values(invocation("inv_row", "2026-03", "2026-03-05T10:00:00.000Z")).execute();
    await store.db.insertInto("usage_events").values(usageEvent("use_1", "inv_x", "2026-03-06T10:00:00.000Z")).execute();
    const report = (id: string) => ({ usage_event_id: id, tenant_id: "t1", period: "2026-03", mode: "test", reported_at: AT });
    await store.db.insertInto("metering_reports").values([report("inv_row"), report("use_1"), report("gone")]).execute();

    expect(await migrateThrough0012(store)).toEqual(["0012-metering-report-times"]);
    const times = await store.db.selectFrom("metering_reports").select(["usage_event_id", "occurred_at"]).orderBy("usage_event_id").execute();
    expect(times).toEqual([
      { usage_event_id: "gone", occurred_at: null },
      { usage_event_id: "inv_row", occurred_at: "2026-03-05T10:00:00.000Z" },
      { usage_event_id: "use_1", occurred_at: "2026-03-06T10:00:00.000Z" },
    ]);
    expect(await createMeteringQueries(store).newestReported("t1")).toBe("2026-03-06T10:00:00.000Z");
  });

  it.skipIf(kind !== "sqlite")("finishes the report times' migration on SQLite when a start stopped after its commit and before the migrator recorded it", async () => {
    await open("0011-metered-invocations");
    await store.db.schema.alterTable("metering_reports").addColumn("occurred_at", "text").execute();
    expect(await migrateThrough0012(store)).toEqual(["0012-metering-report-times"]);
    const { rows: indexes } = await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(store.db);
    expect(indexes.map((index) => index.name)).toEqual(expect.arrayContaining(["metering_reports_occurred", "usage_events_occurred"]));
  });

  it.skipIf(kind !== "sqlite")("leaves a SQLite store as it was when the report times' migration fails, and migrates it on the next try", async () => {
    await open("0011-metered-invocations");
    // Something in the way of the last new index: the migration fails after adding the column.
    await store.db.schema.createTable("usage_events_occurred").addColumn("x", "text").execute();
    await expect(migrateToLatest(store.db)).rejects.toThrow(/usage_events_occurred/);
    const columns = async () => (await store.db.introspection.getTables()).find((table) => table.name === "metering_reports")!.columns.map((column) => column.name);
    expect(await columns()).not.toContain("occurred_at");

    await store.db.schema.dropTable("usage_events_occurred").execute();
    expect(await migrateThrough0012(store)).toEqual(["0012-metering-report-times"]);
    expect(await columns()).toContain("occurred_at");
  });

  it("holds a row's metered period to the month it was created in", async () => {
    await open();
    await expect(store.db.insertInto("invocations").values(invocation("inv_bad", "2026-04")).execute()).rejects.toThrow(/check/i);
    await store.db.insertInto("invocations").values([invocation("inv_good", "2026-03"), invocation("inv_none", null)]).execute();
    expect(await store.db.selectFrom("invocations").select("id").orderBy("id").execute()).toEqual([{ id: "inv_good" }, { id: "inv_none" }]);
  });

  it.skipIf(kind !== "sqlite")("leaves a SQLite store as it was when the migration fails, and migrates it on the next try", async () => {
    await open("0010-audit-chain-tails");
    await store.db.insertInto("usage_events").values(usageEvent("use_old", "inv_old")).execute();
    await store.db.insertInto("metering_reports").values({ usage_event_id: "use_old", tenant_id: "t1", period: "2026-03", mode: "test", reported_at: AT }).execute();
    // Something in the way of the table's rebuild: the migration fails half way.
    await store.db.schema.createTable("metering_reports_rebuilt").addColumn("x", "text").execute();
    await expect(migrateToLatest(store.db)).rejects.toThrow(/metering_reports_rebuilt/);
    const columns = async () => (await store.db.introspection.getTables()).find((table) => table.name === "invocations")!.columns.map((column) => column.name);
    expect(await columns()).not.toContain("metered_period");

    await store.db.schema.dropTable("metering_reports_rebuilt").execute();
    expect(await migrateThrough0012(store)).toEqual(["0011-metered-invocations", "0012-metering-report-times"]);
    expect(await columns()).toContain("metered_period");
    expect(await store.db.selectFrom("metering_reports").select("usage_event_id").execute()).toEqual([{ usage_event_id: "use_old" }]);
  });

  it("keeps a store's usage events and metering reports through the migration, and lets reports name invocations after it", async () => {
    await open("0010-audit-chain-tails");
    const before = { ...invocation("inv_old", null) } as Partial<InvocationsTable>;
    delete before.metered_period;
    await store.db.insertInto("invocations").values(before as InvocationsTable).execute();
    await store.db.insertInto("usage_events").values([usageEvent("use_old", "inv_old"), usageEvent("use_other", "inv_other")]).execute();
    await store.db.insertInto("metering_reports").values({ usage_event_id: "use_old", tenant_id: "t1", period: "2026-03", mode: "test", reported_at: AT }).execute();

    expect(await migrateThrough0012(store)).toEqual(["0011-metered-invocations", "0012-metering-report-times"]);
    expect(await store.db.selectFrom("invocations").select(["id", "metered_period"]).execute()).toEqual([{ id: "inv_old", metered_period: null }]);
    expect(await store.db.selectFrom("metering_reports").selectAll().execute()).toEqual([{ usage_event_id: "use_old", tenant_id: "t1", period: "2026-03", mode: "test", reported_at: AT, occurred_at: AT }]);

    const metering = createMeteringQueries(store);
    expect(await metering.usageByEnv("t1", "2026-03")).toEqual({ test: 2, live: 0 });
    expect((await metering.pendingUsage("t1", 10)).map((row) => row.id)).toEqual(["use_other"]);

    // A report may name an invocation now; a second report of the same execution is ignored.
    await store.db.insertInto("invocations").values(invocation("inv_new", "2026-03")).execute();
    const pending = await metering.pendingUsage("t1", 10);
    await metering.markReported(pending, "test", AT);
    await metering.markReported(pending, "test", AT);
    expect(await metering.reportedCount("t1", "2026-03")).toBe(3);
    expect(await metering.pendingUsage("t1", 10)).toEqual([]);

    // The reports still go with their tenant.
    await store.db.deleteFrom("tenants").where("id", "=", "t1").execute();
    expect(await store.db.selectFrom("metering_reports").selectAll().execute()).toEqual([]);
  });
});
