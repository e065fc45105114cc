import type { Kysely } from "kysely";

// Billing periods, metering reports and the test-mode metering ledger (docs/billing.md).
// Timestamps and JSON are text in both engines (see store/schema.ts); money is integer minor units.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("billing_periods")
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("plan_id", "text", (c) => c.notNull())
    .addColumn("catalogue_version", "text", (c) => c.notNull())
    .addColumn("executions", "bigint", (c) => c.notNull())
    .addColumn("total", "bigint", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("switched_to_plan_id", "text")
    .addColumn("result", "text", (c) => c.notNull())
    .addColumn("finalized_at", "text", (c) => c.notNull())
    .addColumn("finalized_by", "text", (c) => c.notNull())
    // One row per (tenant, period): a second finalize can never write a second invoice.
    .addPrimaryKeyConstraint("billing_periods_pk", ["tenant_id", "period"])
    .execute();

  await db.schema
    .createTable("metering_reports")
    .addColumn("usage_event_id", "text", (c) => c.primaryKey().references("usage_events.id").onDelete("cascade"))
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("mode", "text", (c) => c.notNull())
    .addColumn("reported_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("metering_reports_period").on("metering_reports").columns(["tenant_id", "period"]).execute();

  await db.schema
    .createTable("metering_ledger")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("meter", "text", (c) => c.notNull())
    .addColumn("env", "text", (c) => c.notNull())
    .addColumn("period", "text", (c) => c.notNull())
    .addColumn("quantity", "bigint", (c) => c.notNull())
    .addColumn("occurred_at", "text", (c) => c.notNull())
    .addColumn("recorded_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("metering_ledger_period").on("metering_ledger").columns(["tenant_id", "period"]).execute();
}
