/**
 * Transactions that survive the database's own concurrency verdicts. PostgreSQL may abort a
 * transaction as a deadlock victim (SQLSTATE 40P01) or a serialization failure (40001), and SQLite
 * refuses a write at once (SQLITE_BUSY_SNAPSHOT, no busy wait) when another process wrote since
 * this transaction's first read. None of these is the caller's mistake or a broken broker: the
 * transaction rolled back whole, so it is run again a few times, and if it keeps losing the caller
 * gets 409 `conflict` to retry, never a 500. (A plain SQLITE_BUSY has already waited the busy
 * timeout: that is the database being unavailable, not a race, and is not retried here.)
 *
 * Only for transactions whose work is nothing but statements on `trx`: the work runs again on a
 * retry, so it must not send anything or change memory that outlives the transaction.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Kysely, Transaction } from "kysely";
import { BrokerError } from "../errors.js";

const TRANSIENT_CODES = new Set(["40P01", "40001", "SQLITE_BUSY_SNAPSHOT"]);
export const TRANSACTION_ATTEMPTS = 4;

/** Whether a database error means "lost a race with a concurrent transaction; the same work may succeed now". */
export function isTransientConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && TRANSIENT_CODES.has(code);
}

/** `onRetry` hears each run again (the store counts them for the metrics). */
export async function retryingTransaction<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>, attempts = TRANSACTION_ATTEMPTS, onRetry?: () => void): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.transaction().execute(work);
    } catch (error) {
      if (!isTransientConflict(error)) throw error;
      if (attempt >= attempts) {
        const conflict = new BrokerError("conflict", "the change collided with concurrent changes and was not made; try again", { reason: "concurrent_change" });
        conflict.cause = error;
        throw conflict;
      }
      onRetry?.();
      // Jittered, growing pauses so the transactions that collided do not collide again in step.
      await sleep(Math.random() * 10 * 2 ** attempt);
    }
  }
}
