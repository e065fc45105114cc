import { PostgresAdapter, type Kysely } from "kysely";

/**
 * Credentials are bound to the origins they were issued for. Each connection keeps the origin of
 * its token endpoint and of its API base URL at connect time, why it needs a reconnect (if it
 * does), and a write-ahead mark set before a refresh request leaves and cleared when its answer is
 * stored; each secret item keeps the origin of its API base URL and why it needs storing again; an
 * OAuth flow under way keeps the origins it started with, so its code is exchanged nowhere else.
 * Existing rows get no origins here (SQL cannot know the configuration they were issued under):
 * each is bound at its first use after the upgrade to the origins its provider has then.
 */
const COLUMNS = {
  connections: ["token_origin", "api_origin", "reconnect_reason", "refresh_started_at"],
  secret_items: ["api_origin", "reconnect_reason"],
  oauth_states: ["token_origin", "api_origin"],
} as const;

export async function up(db: Kysely<any>): Promise<void> {
  const addColumns = async (executor: Kysely<any>, kind: "sqlite" | "postgres") => {
    // SQLite commits DDL before the migrator records it: a start that stopped in between finds the columns.
    const tables = kind === "sqlite" ? await executor.introspection.getTables() : [];
    for (const [table, columns] of Object.entries(COLUMNS)) {
      const existing = new Set(tables.find((t) => t.name === table)?.columns.map((c) => c.name) ?? []);
      for (const column of columns) {
        if (!existing.has(column)) await executor.schema.alterTable(table).addColumn(column, "text").execute();
      }
    }
  };
  if (db.getExecutor().adapter instanceof PostgresAdapter) return addColumns(db, "postgres");
  await db.transaction().execute((trx) => addColumns(trx, "sqlite"));
}
