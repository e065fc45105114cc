/**
 * Domains raise events here, inside the transaction of the change that caused them, so an event
 * exists exactly when its change committed. The webhooks domain drains this table; this module
 * knows nothing of webhooks.
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import type { Tx } from "../store/database.js";
import type { EventQueries } from "./event-queries.js";

export type EventType =
  | "connection.created"
  | "connection.revoked"
  | "connection.expired"
  | "connection.required"
  | "approval.requested"
  | "approval.decided"
  | "approval.expired"
  | "billing.period_finalized"
  | "webhook.test";

export const EVENT_TYPES: readonly EventType[] = [
  "connection.created",
  "connection.revoked",
  "connection.expired",
  "connection.required",
  "approval.requested",
  "approval.decided",
  "approval.expired",
  "billing.period_finalized",
  "webhook.test",
];

export type EventPayload = { type: EventType; timestamp: string; data: Record<string, unknown> };

export function createEventOutbox({ queries, clock }: { queries: EventQueries; clock: Clock }) {
  return {
    async emitIn(event: { tenantId: string; type: EventType; data: Record<string, unknown> }, trx: Tx): Promise<string> {
      const id = randomUUID();
      const timestamp = clock.now().toISOString();
      const payload: EventPayload = { type: event.type, timestamp, data: event.data };
      await queries.insert({ id, tenant_id: event.tenantId, type: event.type, occurred_at: timestamp, payload: JSON.stringify(payload), dispatched_at: null }, trx);
      return id;
    },
  };
}

export type EventOutbox = ReturnType<typeof createEventOutbox>;
