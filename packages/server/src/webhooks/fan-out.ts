/**
 * Turns committed outbox events into deliveries, one per subscribed enabled endpoint, in one
 * transaction with marking the events dispatched: a crash leaves an event either untouched or
 * fully fanned out, never half.
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import type { EventsTable } from "../store/schema.js";
import type { DeliveryQueries, DeliveryRow } from "./delivery-queries.js";
import { MAX_ATTEMPTS } from "./retry-policy.js";
import { endpointWants, type EndpointRow } from "./webhook-queries.js";

const BATCH = 100;

export function newDelivery(
  event: Pick<EventsTable, "id" | "tenant_id" | "type" | "payload">,
  endpointId: string,
  now: string,
  overrides: Partial<DeliveryRow> = {},
): DeliveryRow {
  return {
    id: randomUUID(),
    tenant_id: event.tenant_id,
    endpoint_id: endpointId,
    event_id: event.id,
    event_type: event.type,
    payload: event.payload,
    status: "pending",
    attempt_count: 0,
    max_attempts: MAX_ATTEMPTS,
    next_attempt_at: now,
    next_trigger: "automatic",
    lease_until: null,
    lease_token: null,
    last_attempt_at: null,
    last_http_status: null,
    last_error: null,
    created_at: now,
    completed_at: null,
    ...overrides,
  };
}

type FanOutDeps = { deliveries: Pick<DeliveryQueries, "transaction" | "takeUndispatchedEvents" | "enabledEndpointsOf" | "insertDeliveries">; clock: Clock };

export function createFanOut({ deliveries, clock }: FanOutDeps) {
  async function dispatchBatch(): Promise<number> {
    const now = clock.now().toISOString();
    return deliveries.transaction(async (trx) => {
      const events = await deliveries.takeUndispatchedEvents(now, BATCH, trx);
      if (events.length === 0) return 0;
      const endpoints = await deliveries.enabledEndpointsOf([...new Set(events.map((e) => e.tenant_id))], trx);
      const subscribed = (event: EventsTable) =>
        endpoints.filter((e: Pick<EndpointRow, "id" | "tenant_id" | "event_types">) => e.tenant_id === event.tenant_id && endpointWants(e, event.type));
      const rows = events.flatMap((event) => subscribed(event).map((endpoint) => newDelivery(event, endpoint.id, now)));
      await deliveries.insertDeliveries(rows, trx);
      return events.length;
    });
  }

  return {
    /** Fans out every undispatched event; returns how many events it took. */
    async dispatchPending(): Promise<number> {
      let total = 0;
      for (;;) {
        const taken = await dispatchBatch();
        total += taken;
        if (taken < BATCH) return total;
      }
    },
  };
}

export type FanOut = ReturnType<typeof createFanOut>;
