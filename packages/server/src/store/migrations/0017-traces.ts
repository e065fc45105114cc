import { PostgresAdapter, type Kysely } from "kysely";

/**
 * Traces (issue 40): an invocation keeps the trace id of the request that first recorded it, and
 * a tenant decides whether a call's W3C trace context goes on to the upstream with its request
 * (off until an admin turns it on: a traceparent tells the vendor which calls belong together).
 */
async function apply(db: Kysely<any>, kind: "sqlite" | "postgres") {
  // SQLite commits DDL before the migrator records it: a start that stopped in between finds the column.
  const invocations = kind === "sqlite" ? (await db.introspection.getTables()).find((table) => table.name === "invocations") : undefined;
  if (!invocations?.columns.some((column) => column.name === "trace_id")) await db.schema.alterTable("invocations").addColumn("trace_id", "text").execute();
  await db.schema
    .createTable("tracing_settings")
    .ifNotExists()
    .addColumn("tenant_id", "text", (c) => c.primaryKey().references("tenants.id").onDelete("cascade"))
    .addColumn("propagate_trace_context", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.notNull())
    .execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL migrations already run in the migrator's transaction.
  if (db.getExecutor().adapter instanceof PostgresAdapter) return apply(db, "postgres");
  await db.transaction().execute((trx) => apply(trx, "sqlite"));
}
