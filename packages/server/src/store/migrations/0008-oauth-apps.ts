import { sql, type Kysely } from "kysely";

/**
 * Tenants' own OAuth apps ("bring your own OAuth client"). A replaced or removed app is kept: the
 * connections it issued refresh and revoke with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("oauth_apps")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("client_id", "text", (c) => c.notNull())
    .addColumn("client_secret_sealed", "text", (c) => c.notNull())
    .addColumn("client_secret_hint", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("retired_at", "text")
    .execute();
  // At most one current app per tenant, env and provider, whatever races: the database says so.
  await db.schema
    .createIndex("oauth_apps_one_current")
    .on("oauth_apps")
    .columns(["tenant_id", "env", "provider"])
    .unique()
    .where(sql.ref("status"), "=", "current")
    .execute();
  await db.schema.alterTable("connections").addColumn("oauth_app_id", "text").execute();
  await db.schema.alterTable("oauth_states").addColumn("oauth_app_id", "text").execute();
}
