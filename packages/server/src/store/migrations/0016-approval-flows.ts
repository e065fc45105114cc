import { PostgresAdapter, type Kysely } from "kysely";

/**
 * Approvals people ask for: edits before approving, several approvers (one vote per person and
 * version of the call), the end user deciding through a hosted page, Slack and email channels
 * with a delivery outbox, per-rule expiry with reminders. Members get what channels need to reach
 * them (email, Slack identity) and the groups policy rules name; agent apps remember the member
 * who created them (a rule may keep that member from approving the app's calls).
 */
const COLUMNS = {
  approvals: [
    // The policy rule's approval block at request time (JSON); null: one admin, edits allowed.
    "requirement",
    "edited_arguments_sealed",
    "edited_arguments_redacted",
    "edited_fingerprint",
    // What the edit changed (JSON), computed once from the real arguments, values redacted.
    "edited_changes",
    "edited_by",
    "edited_at",
    "reminded_at",
    "expiry_announced_at",
  ],
  tenant_members: ["email", "display_name", "slack_user_id", "groups"],
  agent_apps: ["created_by_member_id"],
} as const;

async function addColumns(executor: Kysely<any>, kind: "sqlite" | "postgres") {
  // SQLite commits DDL before the migrator records it: a start that stopped in between finds the columns.
  const tables = kind === "sqlite" ? await executor.introspection.getTables() : [];
  for (const [table, columns] of Object.entries(COLUMNS)) {
    const existing = new Set(tables.find((t) => t.name === table)?.columns.map((c) => c.name) ?? []);
    for (const column of columns) {
      if (!existing.has(column)) await executor.schema.alterTable(table).addColumn(column, "text").execute();
    }
  }
}

async function createTables(db: Kysely<any>) {
  await db.schema
    .createTable("approval_votes")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("approval_id", "text", (c) => c.notNull().references("approvals.id").onDelete("cascade"))
    .addColumn("voter", "text", (c) => c.notNull())
    .addColumn("decision", "text", (c) => c.notNull())
    .addColumn("digest", "text", (c) => c.notNull())
    .addColumn("via", "text", (c) => c.notNull())
    .addColumn("reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("approval_votes_once", ["approval_id", "voter", "digest"])
    .execute();

  await db.schema
    .createTable("approval_deliveries")
    .ifNotExists()
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "text", (c) => c.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("approval_id", "text", (c) => c.notNull().references("approvals.id").onDelete("cascade"))
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("purpose", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("progress", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .addUniqueConstraint("approval_deliveries_once", ["approval_id", "channel", "purpose"])
    .execute();
  await db.schema.createIndex("approval_deliveries_due").ifNotExists().on("approval_deliveries").columns(["status", "next_attempt_at"]).execute();

  await db.schema
    .createTable("approval_link_uses")
    .ifNotExists()
    .addColumn("link_id", "text", (c) => c.primaryKey())
    .addColumn("approval_id", "text", (c) => c.notNull().references("approvals.id").onDelete("cascade"))
    .addColumn("used_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("approval_settings")
    .ifNotExists()
    .addColumn("tenant_id", "text", (c) => c.primaryKey().references("tenants.id").onDelete("cascade"))
    .addColumn("channels", "text", (c) => c.notNull())
    .addColumn("slack_connection_id", "text")
    .addColumn("slack_channel", "text")
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("updated_by", "text", (c) => c.notNull())
    .execute();

  await db.schema.createIndex("approvals_expiring").ifNotExists().on("approvals").columns(["status", "expires_at"]).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL migrations already run in the migrator's transaction.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await addColumns(db, "postgres");
    await createTables(db);
    return;
  }
  await db.transaction().execute(async (trx) => {
    await addColumns(trx, "sqlite");
    await createTables(trx);
  });
}
