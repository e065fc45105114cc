/**
 * The one place that tells "the database is unavailable" (unreachable, shutting down, out of disk,
 * its file gone) from every other database error (a constraint, a bug in a query). The first kind
 * is a dependency failing: callers get 503 service_unavailable and may retry; it never says
 * anything about the request.
 */

/** Node socket errors seen when the database server cannot be reached or drops the connection. */
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "ECONNABORTED"]);

/**
 * PostgreSQL SQLSTATEs that mean the server is not serving us (as opposed to refusing a query):
 * class 08 connection exceptions, 53 insufficient resources (disk full, too many connections),
 * 58 system errors (I/O), admin/crash shutdown and "starting up", a read-only server (a standby
 * after failover) and login failures (rotated credentials, a dropped database).
 */
const POSTGRES_CODES = new Set(["57P01", "57P02", "57P03", "57P04", "25006", "28000", "28P01", "3D000"]);
const POSTGRES_CLASSES = ["08", "53", "58"];

/** Messages pg (and pg-pool) use for a lost or unobtainable connection; they carry no code. */
const POSTGRES_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Client was closed and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
];

/**
 * SQLite result codes (better-sqlite3 reports extended codes such as SQLITE_IOERR_WRITE) for a file
 * that cannot be read or written: I/O errors, a full disk, a file removed, replaced, read-only or
 * damaged, and a lock held past busy_timeout by another process.
 */
const SQLITE_PREFIXES = ["SQLITE_IOERR", "SQLITE_FULL", "SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_CORRUPT", "SQLITE_NOTADB", "SQLITE_PROTOCOL"];
/** Busy past the timeout, not SQLITE_BUSY_SNAPSHOT: that one is a lost race (store/retrying-transaction.ts). */
const SQLITE_BUSY_CODES = new Set(["SQLITE_BUSY", "SQLITE_BUSY_RECOVERY", "SQLITE_BUSY_TIMEOUT"]);

/** What made the database unavailable, short and free of secrets (a code, never a connection string). */
export function databaseUnavailableReason(error: unknown): string | undefined {
  return findReason(error, 0);
}

export const isDatabaseUnavailable = (error: unknown): boolean => databaseUnavailableReason(error) !== undefined;

function findReason(error: unknown, depth: number): string | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === "string") {
    if (NETWORK_CODES.has(code) || POSTGRES_CODES.has(code)) return code;
    if (/^[0-9A-Z]{5}$/.test(code) && POSTGRES_CLASSES.includes(code.slice(0, 2))) return code;
    if (SQLITE_BUSY_CODES.has(code) || SQLITE_PREFIXES.some((prefix) => code.startsWith(prefix))) return code;
  }
  if (typeof message === "string" && POSTGRES_MESSAGES.some((pattern) => pattern.test(message))) return "connection_lost";
  // A connection attempt to several addresses fails with an AggregateError of the individual ones.
  const nested = [...((error as { errors?: unknown }).errors instanceof Array ? (error as { errors: unknown[] }).errors : []), (error as { cause?: unknown }).cause];
  for (const inner of nested) {
    const reason = findReason(inner, depth + 1);
    if (reason) return reason;
  }
  return undefined;
}
