import { PostgresAdapter, sql, type Kysely } from "kysely";

/**
 * A call that reaches the provider when it is first recorded is metered on its invocation row
 * (`metered_period`) instead of on a `usage_events` row written beside it: the same fact, without
 * a second row and its four B-trees on every call. Usage and metering read both
 * (usage/metered-execution-queries.ts). The metering reports' foreign key to `usage_events` goes, since a
 * report may now name an invocation; a report still goes with its tenant.
 *
 * No index of its own: a call is metered in the month it was created, so a month's calls are a
 * range of `invocations_tenant_time` (tenant_id, created_at); the CHECK holds rows to that, and
 * one more index would cost every call.
 */
const METERED_IN_CREATION_MONTH = sql`metered_period is null or metered_period = substr(created_at, 1, 7)`;

export async function up(db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // The migrator runs this in one transaction. NOT VALID: the existing rows (all null) are not
    // scanned under the table's lock; every row written from now on is checked.
    await db.schema.alterTable("invocations").addColumn("metered_period", "text").execute();
    await sql`alter table invocations add constraint invocations_metered_in_creation_month check (${METERED_IN_CREATION_MONTH}) not valid`.execute(db);
    await sql`
      do $$
      declare constraint_name text;
      begin
        for constraint_name in
          select conname from pg_constraint
          where conrelid = 'metering_reports'::regclass and confrelid = 'usage_events'::regclass and contype = 'f'
        loop
          execute format('alter table metering_reports drop constraint %I', constraint_name);
        end loop;
      end $$`.execute(db);
    return;
  }
  // The migrator does not wrap SQLite's migrations: one transaction here, so a failure leaves the
  // store as it was and the next start runs this again. SQLite drops a foreign key only by
  // rebuilding the table.
  await db.transaction().execute(async (trx) => {
    await trx.schema.alterTable("invocations").addColumn("metered_period", "text", (c) => c.check(METERED_IN_CREATION_MONTH)).execute();
    await trx.schema
      .createTable("metering_reports_rebuilt")
      .addColumn("usage_event_id", "text", (c) => c.primaryKey())
      .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
      .addColumn("period", "text", (c) => c.notNull())
      .addColumn("mode", "text", (c) => c.notNull())
      .addColumn("reported_at", "text", (c) => c.notNull())
      .execute();
    await sql`insert into metering_reports_rebuilt (usage_event_id, tenant_id, period, mode, reported_at)
      select usage_event_id, tenant_id, period, mode, reported_at from metering_reports`.execute(trx);
    await trx.schema.dropTable("metering_reports").execute();
    await trx.schema.alterTable("metering_reports_rebuilt").renameTo("metering_reports").execute();
    await trx.schema.createIndex("metering_reports_period").on("metering_reports").columns(["tenant_id", "period"]).execute();
  });
}
