import { mkdirSync } from "node:fs";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type SqliteDatabase, type Transaction } from "kysely";
import pg from "pg";
import { migrations } from "./migrations/index.js";
import type { Database } from "./schema.js";

export type StoreKind = "sqlite" | "postgres";
export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or an open transaction: queries accept both. */
export type Executor = Kysely<Database>;

export type Store = {
  db: Db;
  kind: StoreKind;
  /**
   * Serialises a critical section across processes for the rest of `trx`. SQLite already runs one
   * writer at a time through Kysely's single connection, so only PostgreSQL needs a lock.
   */
  lock(trx: Tx, key: string): Promise<void>;
  close(): Promise<void>;
};

export type StoreOptions = { databaseUrl?: string | undefined; dataDir: string; sqliteFile?: string };

// COUNT(*) and BIGINT arrive as strings from pg by default; every count here fits in 2^53.
pg.types.setTypeParser(20, (value) => Number.parseInt(value, 10));

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    return openPostgres(options.databaseUrl);
  }
  return openSqlite(options.sqliteFile ?? sqliteFileIn(options.dataDir));
}

export const sqliteFileIn = (dataDir: string) => join(dataDir, "toolbroker.sqlite");

function openSqlite(file: string): Store {
  if (file !== ":memory:") mkdirSync(join(file, ".."), { recursive: true });
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  database.pragma("synchronous = NORMAL");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  return {
    db,
    kind: "sqlite",
    lock: async () => {},
    close: () => db.destroy(),
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh; preparing costs as much as running a small statement.
 * better-sqlite3 statements are reusable, so keep the recent ones by SQL text.
 */
function withStatementCache(database: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statement = database.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

function openPostgres(connectionString: string): Store {
  const pool = new pg.Pool({ connectionString, max: 10 });
  // An idle client losing its server (a restart, a terminated backend) is dropped by the pool and
  // replaced on next use; without a listener the 'error' event would crash the process.
  pool.on("error", () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: "postgres",
    lock: async (trx, key) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
    },
    close: () => db.destroy(),
  };
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: "schema_migrations",
    migrationLockTableName: "schema_migrations_lock",
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
