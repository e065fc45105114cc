import type { Kysely } from "kysely";

/** End users: connections and secret items owned by one of a customer's users, and connect sessions. */
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ["connections", "secret_items"]) {
    await db.schema.alterTable(table).addColumn("end_user_id", "text").execute();
    await db.schema.alterTable(table).addColumn("label", "text").execute();
  }
  await db.schema.createIndex("connections_end_user").on("connections").columns(["tenant_id", "end_user_id", "provider"]).execute();
  await db.schema.createIndex("secret_items_end_user").on("secret_items").columns(["tenant_id", "end_user_id", "provider"]).execute();
  for (const table of ["invocations", "usage_events", "audit_events", "approvals"]) {
    await db.schema.alterTable(table).addColumn("end_user_id", "text").execute();
  }
  await db.schema.alterTable("oauth_states").addColumn("end_user_id", "text").execute();
  await db.schema.alterTable("oauth_states").addColumn("label", "text").execute();
  await db.schema.alterTable("oauth_states").addColumn("connect_session_id", "text").execute();

  await db.schema
    .createTable("connect_sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("end_user_id", "text", (c) => c.notNull())
    .addColumn("providers", "text", (c) => c.notNull())
    .addColumn("redirect_url", "text")
    .addColumn("label", "text")
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_by_type", "text", (c) => c.notNull())
    .addColumn("created_by_id", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
}
