/**
 * `GET /v1/events`: the tenant's events (the outbox webhooks are sent from), oldest first, for any
 * member of the tenant. Each carries the `type`, `timestamp` and `data` a webhook delivery of it
 * carries, and its id is that delivery's `webhook-id`. `toolbroker listen` tails it.
 */
import { Type } from "@sinclair/typebox";
import type { FastifyInstance } from "fastify";
import { decodeCursor, encodeCursor, invalidCursor } from "../http/cursor.js";
import { errorResponses, StringEnum, Timestamp, Uuid } from "../http/schemas.js";
import { BrokerError } from "../errors.js";
import { withoutEndUserLink } from "./end-user-link.js";
import { EVENT_TYPES, type EventPayload } from "./event-outbox.js";
import type { EventLogQueries, EventRow } from "./event-log-queries.js";

const BrokerEvent = Type.Object(
  {
    id: Uuid,
    type: StringEnum(EVENT_TYPES),
    occurred_at: Timestamp,
    data: Type.Object({}, { additionalProperties: true, description: "What a webhook delivery of this event carries in `data`" }),
  },
  { $id: "BrokerEvent" },
);

const EventQuery = Type.Object(
  {
    since: Type.Optional(Type.String({ format: "date-time", description: "Only events that occurred at or after this instant" })),
    type: Type.Optional(StringEnum(EVENT_TYPES)),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 512, description: "`next_cursor` of the previous page" })),
  },
  { additionalProperties: false },
);
type EventQuery = { since?: string; type?: string; limit?: number; cursor?: string };

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function registerEventRoutes(app: FastifyInstance, deps: { eventLog: Pick<EventLogQueries, "list"> }) {
  app.get(
    "/v1/events",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags: ["events"],
        summary: "List the tenant's events, oldest first (what webhooks are sent from; `toolbroker listen` tails it)",
        description:
          "Every member may read; viewers read an `approval.requested` event's `data.end_user_url` as null (that link decides for the end user). An event's `id` is the `webhook-id` of its deliveries. A transaction that raised an event may commit a moment " +
          "after one that raised a later event, so a poller that wants every event re-reads the last few seconds with `since` and skips the ids " +
          "it has seen (`toolbroker listen` re-reads 10 s).",
        querystring: EventQuery,
        response: {
          200: Type.Object({ data: Type.Array(BrokerEvent), next_cursor: Type.Union([Type.String(), Type.Null()], { description: "Set when more events follow" }) }),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const query = request.query as EventQuery;
      // A time the format accepts but a Date cannot hold (a leap second, 23:59:60) is the caller's mistake, not a 500.
      if (query.since !== undefined && !Number.isFinite(Date.parse(query.since))) {
        throw new BrokerError("invalid_request", "since is not a time this API can read", { fields: [{ location: "querystring", field: "/since", message: "is not a valid time" }] });
      }
      const after = query.cursor ? decodeCursor<{ occurred_at: string; id: string }>(query.cursor, ["occurred_at", "id"]) : undefined;
      if (after && !(TIMESTAMP.test(String(after.occurred_at)) && UUID.test(String(after.id)))) throw invalidCursor();
      const limit = query.limit ?? 50;
      const rows = await deps.eventLog.list(request.credential.tenantId, { since: query.since, type: query.type, after, limit: limit + 1 });
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      const admin = request.credential.kind === "operator" && request.credential.role === "admin";
      const events = page.map(toBrokerEvent);
      return { data: admin ? events : events.map((event) => ({ ...event, data: withoutEndUserLink(event.data) })), next_cursor: rows.length > limit && last ? encodeCursor({ occurred_at: last.occurred_at, id: last.id }) : null };
    },
  );
}

const toBrokerEvent = (row: EventRow) => {
  const payload = JSON.parse(row.payload) as EventPayload;
  return { id: row.id, type: row.type, occurred_at: row.occurred_at, data: payload.data };
};
