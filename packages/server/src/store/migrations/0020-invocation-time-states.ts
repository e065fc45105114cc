import { PostgresAdapter, type Kysely } from "kysely";

/**
 * The console polls the last hour's calls and errors per minute (usage/usage-queries.ts,
 * `countPerMinute`): a range of one tenant's invocations by `created_at` that reads each row's
 * `env` and `status`. Through `invocations_tenant_time` (tenant_id, created_at) every row in the
 * range cost a table lookup (on SQLite about 300 ms for 60,000 calls in the hour, the event loop
 * blocked meanwhile); with `env` and `status` in the index it is read from the index alone.
 *
 * The new index replaces the old one instead of joining it: its first two columns are the old
 * ones, so every range that used `invocations_tenant_time` (the usage and metering months) uses
 * it the same way, and a call still writes one B-tree entry for it, not two. Built before the old
 * one goes, so the table is never without it.
 */
async function replaceIndex(db: Kysely<any>) {
  await db.schema.createIndex("invocations_tenant_time_state").ifNotExists().on("invocations").columns(["tenant_id", "created_at", "env", "status"]).execute();
  await db.schema.dropIndex("invocations_tenant_time").ifExists().execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL migrations already run in the migrator's transaction; SQLite's get one here, so a
  // start that stops in between leaves the old index in place.
  if (db.getExecutor().adapter instanceof PostgresAdapter) return replaceIndex(db);
  await db.transaction().execute(replaceIndex);
}
