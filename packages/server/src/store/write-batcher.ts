/**
 * Group commit: writes that arrive while a transaction is being written wait and go together in
 * the next one, so under load many requests share one BEGIN/COMMIT. Every caller still resolves
 * only after its own rows are committed. A batch that fails is retried one item at a time, so one
 * bad item cannot fail the others.
 */
export const MAX_BATCH = 200;

export function createWriteBatcher<T>(writeBatch: (items: T[]) => Promise<void>) {
  type Pending = { item: T; resolve: () => void; reject: (error: unknown) => void };
  const queue: Pending[] = [];
  let flushing = false;

  async function flush() {
    while (queue.length > 0) {
      const batch = queue.splice(0, MAX_BATCH);
      try {
        await writeBatch(batch.map((p) => p.item));
        for (const pending of batch) pending.resolve();
      } catch (error) {
        if (batch.length === 1) {
          batch[0]!.reject(error);
          continue;
        }
        for (const pending of batch) {
          await writeBatch([pending.item]).then(pending.resolve, pending.reject);
        }
      }
    }
    flushing = false;
  }

  return {
    write(item: T): Promise<void> {
      return new Promise((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!flushing) {
          flushing = true;
          // Let the requests of this turn of the event loop join the first batch.
          setImmediate(() => void flush());
        }
      });
    },
  };
}
