import type { Kysely } from "kysely";

// Timestamps and JSON are text in both engines (see store/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("tenants")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("plan_id", "text", (c) => c.notNull().defaultTo("free"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("tenant_members")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("issuer", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("tenant_members_identity", ["tenant_id", "issuer", "subject"])
    .execute();

  await db.schema
    .createTable("agent_apps")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("disabled_at", "text")
    .execute();
  await db.schema.createIndex("agent_apps_tenant").on("agent_apps").columns(["tenant_id", "created_at"]).execute();

  await db.schema
    .createTable("control_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("display_prefix", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("revoked_at", "text")
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("control_keys_tenant").on("control_keys").columns(["tenant_id", "created_at"]).execute();

  await db.schema
    .createTable("signing_keys")
    .addColumn("kid", "text", (c) => c.primaryKey())
    .addColumn("algorithm", "text", (c) => c.notNull())
    .addColumn("public_jwk", "text", (c) => c.notNull())
    .addColumn("private_key_sealed", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("audit_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("seq", "integer", (c) => c.notNull())
    .addColumn("occurred_at", "text", (c) => c.notNull())
    .addColumn("actor_type", "text", (c) => c.notNull())
    .addColumn("actor_id", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("target_type", "text")
    .addColumn("target_id", "text")
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("agent_app_id", "text")
    .addColumn("tool_name", "text")
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("prev_hash", "text", (c) => c.notNull())
    .addColumn("hash", "text", (c) => c.notNull())
    .addUniqueConstraint("audit_events_chain", ["tenant_id", "seq"])
    .execute();
  await db.schema.createIndex("audit_events_time").on("audit_events").columns(["tenant_id", "occurred_at"]).execute();

  await db.schema
    .createTable("tenant_data_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().unique().references("tenants.id").onDelete("cascade"))
    .addColumn("master_kid", "text", (c) => c.notNull())
    .addColumn("wrapped_key", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("occurred_at", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("dispatched_at", "text")
    .execute();
  await db.schema.createIndex("events_undispatched").on("events").columns(["dispatched_at", "occurred_at"]).execute();
  await db.schema.createIndex("events_tenant").on("events").columns(["tenant_id", "occurred_at"]).execute();

  await db.schema
    .createTable("usage_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("agent_app_id", "text", (c) => c.notNull())
    .addColumn("tool_name", "text", (c) => c.notNull())
    .addColumn("invocation_id", "text", (c) => c.notNull().unique())
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("occurred_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("usage_events_period").on("usage_events").columns(["tenant_id", "period"]).execute();
}
