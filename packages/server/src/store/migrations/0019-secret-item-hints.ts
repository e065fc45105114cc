import { PostgresAdapter, type Kysely } from "kysely";

/**
 * A secret item's hint: the last four characters of its value, kept in the clear so an operator
 * can tell keys apart (and see that a rotation took) without the value ever leaving the vault.
 * Null for values shorter than 16 characters (four would give away too much of them) and for
 * every item stored before this migration, whose value the broker does not open to make one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const addColumn = async (executor: Kysely<any>, kind: "sqlite" | "postgres") => {
    // SQLite commits DDL before the migrator records it: a start that stopped in between finds the column.
    const tables = kind === "sqlite" ? await executor.introspection.getTables() : [];
    const existing = new Set(tables.find((t) => t.name === "secret_items")?.columns.map((c) => c.name) ?? []);
    if (!existing.has("value_hint")) await executor.schema.alterTable("secret_items").addColumn("value_hint", "text").execute();
  };
  if (db.getExecutor().adapter instanceof PostgresAdapter) return addColumn(db, "postgres");
  await db.transaction().execute((trx) => addColumn(trx, "sqlite"));
}
