import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("policies")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("document", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("created_by", "text", (c) => c.notNull())
    .addUniqueConstraint("policies_version", ["tenant_id", "env", "version"])
    .execute();

  await db.schema
    .createTable("approvals")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("agent_app_id", "text", (c) => c.notNull())
    .addColumn("invocation_id", "text", (c) => c.notNull())
    .addColumn("tool_name", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("connection_id", "text")
    .addColumn("secret_item_id", "text")
    .addColumn("arguments_fingerprint", "text", (c) => c.notNull())
    .addColumn("arguments_redacted", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("rule_id", "text")
    .addColumn("reason", "text")
    .addColumn("decided_by", "text")
    .addColumn("decided_at", "text")
    .addColumn("consumed_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("approvals_pending").on("approvals").columns(["tenant_id", "status", "created_at"]).execute();
}
