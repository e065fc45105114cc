import { mkdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type SqliteDatabase, type SqliteStatement, type Transaction } from "kysely";
import type pg from "pg";
import { migrations } from "./migrations/index.js";
import { retryingTransaction } from "./retrying-transaction.js";
import { BACKSTOP_CHECKPOINT_PAGES, startCheckpointer } from "./sqlite-checkpointer.js";
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
   * The one way to open a transaction: `work` runs in it, and runs again when the database
   * aborted it for losing a race (store/retrying-transaction.ts), so it must only use `trx`:
   * nothing sent, no memory changed (do that after the commit). Work that must not run twice (it
   * sends something) passes `retryOnConflict: false` and gets one attempt, saying why. Only the
   * migrations open transactions of their own: they get a bare Kysely from the migrator.
   */
  transaction<T>(work: (trx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * Serialises a critical section across processes for the rest of `trx`. SQLite already runs one
   * writer at a time through Kysely's single connection, so only PostgreSQL needs a lock.
   */
  lock(key: string, trx: Tx): Promise<void>;
  /** A cheap round trip (`select 1`) that rejects when the database does not answer within `timeoutMs`. */
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
  /** Counts kept in memory for the metrics, read at scrape time: nothing is queried. */
  stats(): StoreStats;
};

/** `pool` is PostgreSQL's connection pool (none for SQLite's single connection). */
export type StoreStats = { transactionRetries: number; pool: { total: number; idle: number; waiting: number } | null };

export type TransactionOptions = { retryOnConflict?: boolean };

/** A transaction of `work`, retried on transient conflicts unless `retryOnConflict` is false; `counts` hears each retry. */
function transactionOf(db: Db, counts: { transactionRetries: number }) {
  const onRetry = () => {
    counts.transactionRetries += 1;
  };
  return <T>(work: (trx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> =>
    options?.retryOnConflict === false ? db.transaction().execute(work) : retryingTransaction(db, work, undefined, onRetry);
}

export type StoreOptions = { databaseUrl?: string | undefined; dataDir: string; sqliteFile?: string };

/**
 * The PostgreSQL driver, loaded when a PostgreSQL URL is opened: a broker on SQLite never needs it,
 * and loading it costs every process about 3 MB of heap.
 */
function loadPostgresDriver(): typeof pg {
  const driver = createRequire(import.meta.url)("pg") as typeof pg;
  // COUNT(*) and BIGINT arrive as strings from pg by default; every count here fits in 2^53.
  driver.types.setTypeParser(20, (value) => Number.parseInt(value, 10));
  return driver;
}

export function openStore(options: StoreOptions): Store {
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    return openPostgres(options.databaseUrl);
  }
  return openSqlite(options.sqliteFile ?? sqliteFileIn(options.dataDir));
}

export const sqliteFileIn = (dataDir: string) => join(dataDir, "toolbroker.sqlite");

/** The SQLite file `openStore` opens for these options, or undefined when they name PostgreSQL. */
export const sqliteFileOf = (options: StoreOptions): string | undefined =>
  options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl) ? undefined : (options.sqliteFile ?? sqliteFileIn(options.dataDir));

/**
 * The connection's page cache, in KiB. better-sqlite3 builds SQLite with 16 MiB (SQLite's own
 * default is 2 MiB), and a cache only ever fills: as the file grows past it, the broker's memory
 * grew by the full 16 MiB. Writes touch the right edges of a few indexes and reads mostly small
 * tables, so 2 MiB holds what is hot; anything else comes from the operating system's cache.
 */
const SQLITE_CACHE_KIB = 2000;

function openSqlite(file: string): Store {
  const inMemory = file === ":memory:";
  if (!inMemory) mkdirSync(join(file, ".."), { recursive: true });
  const database = new SQLite(file);
  // No statement is left for the garbage collector to finalize: better-sqlite3 12 on Node 24 can
  // abort the process when a GC finalizes one (Statement::~Statement, "(env) != nullptr"). So the
  // pragmas run through exec (no statement object), and every statement stays referenced.
  database.exec(`PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; PRAGMA cache_size = -${SQLITE_CACHE_KIB};`);
  const checkpointer = inMemory ? undefined : startCheckpointer(file);
  if (checkpointer) database.exec(`PRAGMA wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES};`);
  let pingStatement: SQLite.Statement | undefined;
  const fileCheck = inMemory ? undefined : watchFileIdentity(file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database, fileCheck) }) });
  const counts = { transactionRetries: 0 };
  return {
    db,
    kind: "sqlite",
    transaction: transactionOf(db, counts),
    stats: () => ({ transactionRetries: counts.transactionRetries, pool: null }),
    lock: async () => {},
    ping: async () => {
      fileCheck?.(true);
      (pingStatement ??= database.prepare("select 1")).get();
    },
    close: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/** How often statements re-check that the database file is still the one that was opened. */
const FILE_CHECK_INTERVAL_MS = 1000;

/**
 * An open SQLite file that is removed, renamed or replaced keeps working through its descriptor:
 * every later write goes to a file nobody will open again and is lost at the next start. SQLite
 * reports this (SQLITE_READONLY_DBMOVED) only in rollback-journal mode, not in WAL, so compare the
 * path's device and inode with the opened ones, at most once a second, and fail statements with
 * that code while they differ (the database is unavailable; putting the file back recovers).
 */
function watchFileIdentity(file: string) {
  const identity = (stats: { dev: number; ino: number } | undefined) => (stats ? `${stats.dev}:${stats.ino}` : "missing");
  const opened = identity(statSync(file));
  let checkedAt = 0;
  let moved = false;
  return (force = false) => {
    const now = Date.now();
    if (force || now - checkedAt >= FILE_CHECK_INTERVAL_MS) {
      checkedAt = now;
      moved = identity(statSync(file, { throwIfNoEntry: false })) !== opened;
    }
    if (moved) {
      throw Object.assign(new Error("the database file was removed, moved or replaced after it was opened"), { code: "SQLITE_READONLY_DBMOVED" });
    }
  };
}

/** Far above the broker's distinct statements, so one is dropped (and finalized by a GC) almost never. */
const STATEMENT_CACHE_SIZE = 5_000;

/**
 * Kysely prepares every query afresh; preparing costs as much as running a small statement.
 * better-sqlite3 statements are reusable, so keep the recent ones by SQL text.
 */
function withStatementCache(database: SQLite.Database, fileCheck?: () => void): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  let nothing: SqliteStatement | undefined;
  return {
    close: () => database.close(),
    prepare(sql: string) {
      // A transaction that reads before it writes would otherwise hold a snapshot without the
      // write lock: if another process (a CLI command) wrote meanwhile, its first write would fail
      // at once with SQLITE_BUSY_SNAPSHOT, past the busy timeout. Taking the lock at BEGIN makes
      // such a writer wait instead. The broker's one connection runs one transaction at a time anyway.
      if (sql === "begin") sql = "begin immediate";
      if (/^rollback\b/i.test(sql)) {
        // SQLite rolls a transaction back by itself on some errors (SQLITE_FULL, SQLITE_IOERR, …);
        // Kysely's rollback would then fail and hide that error behind "no transaction is active".
        if (!database.inTransaction) return (nothing ??= bindingArguments(database.prepare("select 1 where 0")));
      } else {
        // A rollback is never refused: that would leave a transaction open on the connection.
        fileCheck?.();
      }
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statement = bindingArguments(database.prepare(sql));
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** Beyond this many parameters a statement gets them as one array (spread, they would all go on the stack). */
const MOST_SPREAD_PARAMETERS = 2_000;

/**
 * Whether parameters mean the same spread as arguments: better-sqlite3 reads an array argument as
 * several values and a plain object as named parameters, where inside the array either is refused.
 */
function spreadable(parameters: ReadonlyArray<unknown>): boolean {
  if (parameters.length > MOST_SPREAD_PARAMETERS) return false;
  for (const parameter of parameters) {
    if (typeof parameter === "object" && parameter !== null && !ArrayBuffer.isView(parameter)) return false;
  }
  return true;
}

/**
 * better-sqlite3 reads an array of parameters element by element through V8's general property
 * lookup, about 400 instructions each (callgrind); given as arguments they are read for nothing.
 * The group commit binds some fifty parameters per call.
 */
function bindingArguments(statement: SQLite.Statement): SqliteStatement {
  return {
    reader: statement.reader,
    all: (parameters) => (spreadable(parameters) ? statement.all(...parameters) : statement.all(parameters)),
    run: (parameters) => (spreadable(parameters) ? statement.run(...parameters) : statement.run(parameters)),
    iterate: (parameters) => (spreadable(parameters) ? statement.iterate(...parameters) : statement.iterate(parameters)),
  };
}

function openPostgres(connectionString: string): Store {
  const pool = new (loadPostgresDriver().Pool)({
    connectionString,
    max: 10,
    // Without a bound, a request waits forever for a server that accepts but never answers.
    connectionTimeoutMillis: 5000,
    // Notice a silently dead server (no RST) on idle connections too.
    keepAlive: true,
  });
  // A client losing its server (a reset, a restart, a terminated backend) emits 'error'; without a
  // listener that crashes the process. pg-pool listens on idle clients only, so listen on every
  // client from its creation, checked out or not. The query in flight is rejected on its own (and
  // reaches the caller as 503); the pool drops the broken client when it is released or idle, so
  // the next checkout opens a fresh connection.
  pool.on("connect", (client) => client.on("error", ignoreConnectionError));
  pool.on("error", ignoreConnectionError);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const counts = { transactionRetries: 0 };
  return {
    db,
    kind: "postgres",
    transaction: transactionOf(db, counts),
    stats: () => ({ transactionRetries: counts.transactionRetries, pool: { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } }),
    lock: async (key, trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
    },
    ping: async (timeoutMs) => {
      await withTimeout(sql`select 1`.execute(db), timeoutMs);
    },
    close: () => db.destroy(),
  };
}

/** The error also rejects the query that was running, which is where it is reported. */
const ignoreConnectionError = () => {};

/** `promise`, or a rejection with code ETIMEDOUT (a database-unavailable reason) once `timeoutMs` have passed. */
export async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`the database did not answer within ${timeoutMs} ms`), { code: "ETIMEDOUT" })), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The table where the migrator records each migration that ran (`name`, `timestamp`). */
export const MIGRATION_TABLE = "schema_migrations";

/** The broker's migrator: its migrations, and the tables that record which ran. */
export function migratorOf(db: Db): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: "schema_migrations_lock",
  });
}

export async function migrateToLatest(db: Db): Promise<string[]> {
  const { error, results } = await migratorOf(db).migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
