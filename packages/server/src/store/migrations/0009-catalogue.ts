import type { Kysely } from "kysely";

/**
 * Tenant-defined providers and tools: declarations stored as JSON (checked against the published
 * schema before they are written), each visible in one env or both.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("catalogue_providers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("declaration", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("catalogue_providers_one_id", ["tenant_id", "provider_id"])
    .execute();
  await db.schema
    .createTable("catalogue_tools")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("declaration", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("catalogue_tools_one_name", ["tenant_id", "name"])
    .execute();
  await db.schema.createIndex("catalogue_tools_by_provider").on("catalogue_tools").columns(["tenant_id", "provider_id"]).execute();
}
