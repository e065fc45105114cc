/**
 * Reading the outbox back, a tenant's events in the order they occurred, for `GET /v1/events`
 * (what `toolbroker listen` tails). The webhooks domain drains the same table; this never writes.
 */
import type { Store } from "../store/database.js";

export type EventRow = { id: string; type: string; occurred_at: string; payload: string };

export type EventFilter = {
  /** Only events that occurred at or after this instant (ISO 8601). */
  since?: string;
  /** Only events after this one in (occurred_at, id) order: the last row of the previous page. */
  after?: { occurred_at: string; id: string };
  type?: string;
  limit: number;
};

export function createEventLogQueries(store: Pick<Store, "db">) {
  const { db } = store;
  return {
    /** A page of the tenant's events, oldest first (the `events_tenant` index). */
    list(tenantId: string, filter: EventFilter): Promise<EventRow[]> {
      let query = db.selectFrom("events").select(["id", "type", "occurred_at", "payload"]).where("tenant_id", "=", tenantId);
      if (filter.since) query = query.where("occurred_at", ">=", new Date(filter.since).toISOString());
      if (filter.type) query = query.where("type", "=", filter.type);
      const after = filter.after;
      if (after) {
        query = query.where((eb) => eb.or([eb("occurred_at", ">", after.occurred_at), eb.and([eb("occurred_at", "=", after.occurred_at), eb("id", ">", after.id)])]));
      }
      return query.orderBy("occurred_at", "asc").orderBy("id", "asc").limit(filter.limit).execute();
    },
  };
}

export type EventLogQueries = ReturnType<typeof createEventLogQueries>;
