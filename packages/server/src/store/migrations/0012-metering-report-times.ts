import { PostgresAdapter, type Kysely } from "kysely";

/**
 * Each metering report keeps when its execution occurred, so that a sync reads only the executions
 * from shortly before the newest one reported (metering/metering-service.ts) instead of the
 * tenant's whole history, which it read again on every billing status. Reports written before
 * have no time: a tenant whose reports all predate this reads its history once more, then not again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const addTimes = async (executor: Kysely<any>) => {
    await executor.schema.alterTable("metering_reports").addColumn("occurred_at", "text").execute();
    await executor.schema.createIndex("metering_reports_occurred").on("metering_reports").columns(["tenant_id", "occurred_at"]).execute();
  };
  // The migrator runs PostgreSQL's migrations in one transaction, not SQLite's: one here, so a
  // failure leaves the store as it was and the next start runs this again.
  if (db.getExecutor().adapter instanceof PostgresAdapter) return addTimes(db);
  await db.transaction().execute(addTimes);
}
