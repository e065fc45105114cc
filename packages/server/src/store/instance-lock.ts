/**
 * One broker process per SQLite file (docs/behaviour.md, "Storage"): `serve`, `demo` and `worker`
 * hold this lock while they run, so a second one on the same file refuses to start instead of
 * starting silently (issue 41). Short commands (`keys create`, `migrate`, …) never take it.
 *
 * The lock is SQLite's own, on a small file beside the database: the holder keeps a write
 * transaction open (SQLite's RESERVED lock, an OS-level file lock), which the operating system
 * drops when the process ends however it ends, so a crashed broker never blocks the next one. The
 * lock file also records who holds it (pid, command, since), for the refusal's message; readers
 * may read it while the lock is held.
 */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import SQLite from "better-sqlite3";
import { sqliteFileOf, type StoreOptions } from "./database.js";

export type InstanceLock = { file: string; release(): void };

/** A second broker on a held file: one line saying which file, who holds it, and what to do. */
export class InstanceLockedError extends Error {}

type Holder = { pid: number; command: string; started_at: string };

/** Referenced for as long as they are held: a connection the garbage collector took would drop its lock. */
const held = new Set<SQLite.Database>();

/** How long a start waits for a lock being taken or handed over before it refuses. */
const BUSY_WAIT_MS = 1000;

/** The lock for a long-running command on SQLite; none on PostgreSQL, where several instances are the point. */
export function lockSqliteInstance(options: StoreOptions, command: string): InstanceLock | undefined {
  const databaseFile = sqliteFileOf(options);
  return databaseFile && databaseFile !== ":memory:" ? acquireInstanceLock(databaseFile, command) : undefined;
}

export const instanceLockFileOf = (databaseFile: string) => `${databaseFile}-instance-lock`;

export function acquireInstanceLock(databaseFile: string, command: string): InstanceLock {
  const file = instanceLockFileOf(databaseFile);
  mkdirSync(dirname(file), { recursive: true });
  const lock = new SQLite(file, { timeout: BUSY_WAIT_MS });
  try {
    beginOrRefuse(lock, databaseFile);
    lock.exec("create table if not exists holder (id integer primary key check (id = 1), pid integer not null, command text not null, started_at text not null)");
    lock.prepare("insert or replace into holder (id, pid, command, started_at) values (1, ?, ?, ?)").run(process.pid, command, new Date().toISOString());
    // Committed so that a refused process can read it; the lock is then taken again at once. A
    // process that slips in between holds it (and has written itself down): this one refuses.
    lock.exec("commit");
    beginOrRefuse(lock, databaseFile);
  } catch (error) {
    lock.close();
    throw error;
  }
  held.add(lock);
  return {
    file,
    release() {
      if (!held.delete(lock)) return;
      lock.exec("rollback");
      lock.close();
    },
  };
}

function beginOrRefuse(lock: SQLite.Database, databaseFile: string): void {
  try {
    lock.exec("begin immediate");
  } catch (error) {
    if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
    throw new InstanceLockedError(refusal(databaseFile, readHolder(lock)));
  }
}

function readHolder(lock: SQLite.Database): Holder | undefined {
  try {
    return lock.prepare("select pid, command, started_at from holder where id = 1").get() as Holder | undefined;
  } catch {
    // Taken by a process that has not written itself down yet.
    return undefined;
  }
}

function refusal(databaseFile: string, holder: Holder | undefined): string {
  const who = holder ? `(pid ${holder.pid}, toolbroker ${holder.command}, since ${holder.started_at})` : "(pid unknown)";
  return (
    `another broker ${who} is running on the SQLite database ${databaseFile}: one broker process per SQLite file. ` +
    "Stop that one first, or give this one its own BROKER_DATA_DIR (several instances share PostgreSQL: DATABASE_URL)"
  );
}
