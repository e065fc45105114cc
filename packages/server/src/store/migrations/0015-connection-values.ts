import { PostgresAdapter, type Kysely } from "kysely";

/**
 * Per-connection values (a provider's `connection_values`: an Atlassian cloud id, a Salesforce
 * instance, a Zendesk subdomain) are kept as JSON with each connection and secret item, and with
 * an OAuth flow under way (the values its person typed in before leaving for the provider).
 * Null for rows without any, which is every row before this migration: no provider had values.
 */
const COLUMNS = {
  connections: ["connection_values"],
  secret_items: ["connection_values"],
  oauth_states: ["connection_values"],
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
