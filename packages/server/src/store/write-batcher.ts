/**
 * Group commit: writes that arrive while a transaction is being written wait and go together in
 * the next one, so under load many requests share one BEGIN/COMMIT. Every caller still resolves
 * only after its own rows are committed, with what the batch answered for its item. A batch that fails is retried one item at a time, so one
 * bad item cannot fail the others — unless the database itself is unavailable: then every waiter
 * of the batch is rejected at once (retrying item by item could only wait out one timeout each).
 */
import { BrokerError } from "../errors.js";
import type { StoreKind } from "./database.js";
import { isDatabaseUnavailable } from "./database-errors.js";

export const MAX_BATCH = 200;

export type WriteBatcher<T, R = void> = {
  write(item: T): Promise<R>;
  /** Writes what is queued, then refuses new writes (shutdown: call before closing the store). */
  close(): Promise<void>;
};

export type WriteBatcherOptions = {
  /**
   * Batches written at once. PostgreSQL overlaps one batch's round trips with another's commit on
   * a second pooled connection; SQLite has one connection, where a second batch would only wait.
   */
  concurrency?: number;
};

/** PostgreSQL writes two batches at once (see `concurrency`); SQLite one. */
export const batchesAtOnce = (store: { kind: StoreKind }) => (store.kind === "postgres" ? 2 : 1);

/**
 * `writeBatch` writes the items in one transaction and answers one result per item, in order
 * (or nothing, for writes that answer nothing).
 */
export function createWriteBatcher<T, R = void>(writeBatch: (items: T[]) => Promise<R[] | void>, { concurrency = 1 }: WriteBatcherOptions = {}): WriteBatcher<T, R> {
  type Pending = { item: T; resolve: (result: R) => void; reject: (error: unknown) => void };
  const queue: Pending[] = [];
  const flushes = new Set<Promise<void>>();
  let active = 0;
  let closed = false;

  async function writeOneByOne(batch: Pending[]) {
    for (const [index, pending] of batch.entries()) {
      try {
        const results = await writeBatch([pending.item]);
        pending.resolve(results?.[0] as R);
      } catch (error) {
        pending.reject(error);
        if (isDatabaseUnavailable(error)) {
          for (const rest of batch.slice(index + 1)) rest.reject(error);
          return;
        }
      }
    }
  }

  async function flush() {
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, MAX_BATCH);
        try {
          const results = await writeBatch(batch.map((p) => p.item));
          batch.forEach((pending, index) => pending.resolve(results?.[index] as R));
        } catch (error) {
          if (batch.length === 1 || isDatabaseUnavailable(error)) {
            for (const pending of batch) pending.reject(error);
          } else {
            await writeOneByOne(batch);
          }
        }
      }
    } finally {
      // In the same turn as the last empty-queue check, so a write arriving next starts a flush.
      active -= 1;
    }
  }

  function startFlush() {
    active += 1;
    // Let the requests of this turn of the event loop join the batch.
    const running = new Promise<void>((done) => setImmediate(() => void flush().then(done, done)));
    flushes.add(running);
    void running.then(() => flushes.delete(running));
  }

  return {
    write(item: T): Promise<R> {
      if (closed) return Promise.reject(new BrokerError("service_unavailable", "the broker is shutting down; retry shortly"));
      return new Promise((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (active < concurrency) startFlush();
      });
    },

    async close() {
      closed = true;
      await Promise.all([...flushes]);
    },
  };
}
