/**
 * The outbox's one write. It always runs in the transaction of the change that raised the event,
 * so it takes that transaction rather than the store. (Draining the outbox is the webhooks
 * domain's query, `webhooks/delivery-queries.ts`.)
 */
import type { Tx } from "../store/database.js";
import type { EventsTable } from "../store/schema.js";

export function createEventQueries() {
  return {
    insert: (row: EventsTable, trx: Tx) => trx.insertInto("events").values(row).execute(),
  };
}

export type EventQueries = ReturnType<typeof createEventQueries>;
