import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("invocations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("agent_app_id", "text", (c) => c.notNull())
    .addColumn("actor_type", "text", (c) => c.notNull())
    .addColumn("actor_id", "text", (c) => c.notNull())
    .addColumn("tool_name", "text", (c) => c.notNull())
    .addColumn("provider", "text")
    .addColumn("connection_id", "text")
    .addColumn("secret_item_id", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error_code", "text")
    .addColumn("upstream_status", "integer")
    .addColumn("latency_ms", "integer")
    .addColumn("arguments_redacted", "text", (c) => c.notNull())
    .addColumn("arguments_sealed", "text")
    .addColumn("arguments_fingerprint", "text", (c) => c.notNull())
    .addColumn("outcome_sealed", "text")
    .addColumn("approval_id", "text")
    .addColumn("idempotency_key", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("completed_at", "text")
    .execute();
  await db.schema.createIndex("invocations_tenant_time").on("invocations").columns(["tenant_id", "created_at"]).execute();

  await db.schema
    .createTable("idempotency_keys")
    .addColumn("tenant_id", "text", (c) => c.notNull())
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("agent_app_id", "text", (c) => c.notNull())
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("request_fingerprint", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("invocation_id", "text", (c) => c.notNull())
    .addColumn("response_status", "integer")
    .addColumn("response_sealed", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("idempotency_keys_pk", ["tenant_id", "env", "agent_app_id", "key"])
    .execute();
  await db.schema.createIndex("idempotency_keys_expiry").on("idempotency_keys").column("expires_at").execute();
}
