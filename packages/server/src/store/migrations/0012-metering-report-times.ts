import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * Each metering report keeps when its execution occurred, so that a sync reads only the executions
 * from shortly before the newest one reported (metering/metering-service.ts) instead of the
 * tenant's whole history, which it read again on every billing status. Existing reports take the
 * time of their execution; one whose execution is gone keeps none. Usage events get an index on
 * that time, so their half of the read is a range too.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const addTimes = async (executor: Kysely<any>, kind: "sqlite" | "postgres") => {
    // SQLite commits this before the migrator records it: a start that stopped in between finds the column.
    const reports = kind === "sqlite" ? (await executor.introspection.getTables()).find((table) => table.name === "metering_reports") : undefined;
    if (!reports?.columns.some((column) => column.name === "occurred_at")) {
      await executor.schema.alterTable("metering_reports").addColumn("occurred_at", "text").execute();
    }
    await sql`
      update metering_reports set occurred_at = coalesce(
        (select u.occurred_at from usage_events u where u.id = metering_reports.usage_event_id),
        (select i.created_at from invocations i where i.id = metering_reports.usage_event_id))
      where occurred_at is null`.execute(executor);
    await executor.schema.createIndex("metering_reports_occurred").ifNotExists().on("metering_reports").columns(["tenant_id", "occurred_at"]).execute();
    await executor.schema.createIndex("usage_events_occurred").ifNotExists().on("usage_events").columns(["tenant_id", "occurred_at"]).execute();
  };
  // The migrator runs PostgreSQL's migrations in one transaction, not SQLite's: one here, so a
  // failure leaves the store as it was and the next start runs this again.
  if (db.getExecutor().adapter instanceof PostgresAdapter) return addTimes(db, "postgres");
  await db.transaction().execute((trx) => addTimes(trx, "sqlite"));
}
