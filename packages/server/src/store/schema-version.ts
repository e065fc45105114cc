/**
 * Whether the database's schema is the one this build expects: every migration it knows has run.
 * The migrator runs them in order, so the last one being recorded means all are. A schema migrated
 * further by a later build still counts as current here (that build's rollout decides; this one
 * refuses to start on it anyway, store/database.ts).
 */
import { sql } from "kysely";
import { MIGRATION_TABLE, type Db } from "./database.js";
import { isDatabaseUnavailable } from "./database-errors.js";
import { migrations } from "./migrations/index.js";

/** The name of the last migration this build knows, e.g. `0020-…`. */
export const LATEST_MIGRATION = Object.keys(migrations).at(-1)!;

/**
 * True when the latest migration is recorded; false when it is not, or when there is no migration
 * table at all (a database never migrated). The database being unavailable still rejects.
 */
export async function schemaIsCurrent(db: Db): Promise<boolean> {
  try {
    const recorded = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)} where name = ${LATEST_MIGRATION}`.execute(db);
    return recorded.rows.length === 1;
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    return false;
  }
}
