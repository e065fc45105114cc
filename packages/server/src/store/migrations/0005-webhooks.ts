import type { Kysely } from "kysely";

// Webhook endpoints, one delivery per (event, endpoint), and one row per attempt. Timestamps and
// JSON are text in both engines (see store/schema.ts).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhook_endpoints")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("event_types", "text")
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("disabled_reason", "text")
    .addColumn("disabled_message", "text")
    .addColumn("disabled_at", "text")
    .addColumn("secret_sealed", "text", (c) => c.notNull())
    .addColumn("secret_prefix", "text", (c) => c.notNull())
    .addColumn("previous_secret_sealed", "text")
    .addColumn("previous_secret_expires_at", "text")
    .addColumn("consecutive_failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failing_since", "text")
    .addColumn("last_attempt_at", "text")
    .addColumn("last_outcome", "text")
    .addColumn("last_http_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("last_latency_ms", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_endpoints_tenant").on("webhook_endpoints").columns(["tenant_id", "created_at"]).execute();

  await db.schema
    .createTable("webhook_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("endpoint_id", "text", (c) => c.notNull().references("webhook_endpoints.id").onDelete("cascade"))
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("event_type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempt_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("next_attempt_at", "text")
    .addColumn("next_trigger", "text", (c) => c.notNull())
    .addColumn("lease_until", "text")
    .addColumn("lease_token", "text")
    .addColumn("last_attempt_at", "text")
    .addColumn("last_http_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("completed_at", "text")
    .addUniqueConstraint("webhook_deliveries_message", ["endpoint_id", "event_id"])
    .execute();
  await db.schema.createIndex("webhook_deliveries_due").on("webhook_deliveries").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("webhook_deliveries_log").on("webhook_deliveries").columns(["endpoint_id", "created_at"]).execute();

  await db.schema
    .createTable("webhook_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("delivery_id", "text", (c) => c.notNull().references("webhook_deliveries.id").onDelete("cascade"))
    .addColumn("tenant_id", "text", (c) => c.notNull())
    .addColumn("endpoint_id", "text", (c) => c.notNull())
    .addColumn("attempt_number", "integer", (c) => c.notNull())
    .addColumn("triggered_by", "text", (c) => c.notNull())
    .addColumn("attempted_at", "text", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("http_status", "integer")
    .addColumn("error", "text")
    .addColumn("latency_ms", "integer", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_attempts_delivery").on("webhook_attempts").columns(["delivery_id", "attempt_number"]).execute();
}
