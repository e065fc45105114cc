/**
 * Wires the webhooks domain from the broker's services: URL rules, sender, queries, the service
 * behind the routes, and the delivery worker that `serve` runs in process and `toolbroker worker`
 * runs alone.
 */
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import type { Config } from "../config.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { Store } from "../store/database.js";
import type { Vault } from "../vault/vault.js";
import type { Metrics } from "../observability/metrics.js";
import { createDeliveryAttempts } from "./delivery-attempt.js";
import { createDeliveryQueries } from "./delivery-queries.js";
import { createDeliveryWorker } from "./delivery-worker.js";
import { createFanOut } from "./fan-out.js";
import { createUrlSafety, systemResolver, type HostResolver } from "../shared/url-safety.js";
import { createWebhookQueries } from "./webhook-queries.js";
import { createWebhookSender } from "./webhook-sender.js";
import { createWebhookService } from "./webhook-service.js";

/** A lease outlives the attempt's timeout by this much, so only a dead worker's lease lapses. */
export const LEASE_MARGIN_MS = 5_000;

export type WebhooksDeps = {
  store: Pick<Store, "db" | "kind" | "transaction">;
  vault: Pick<Vault, "seal" | "open">;
  audit: Pick<AuditLog, "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  clock: Clock;
  config: Pick<Config, "environment" | "webhookAllowPrivate" | "webhookTimeoutMs">;
  /** DNS for webhook hosts; tests inject one so no real lookup happens. */
  resolver?: HostResolver | undefined;
  metrics: Pick<Metrics, "webhookAttempt">;
  /** Source of retry jitter. */
  random?: () => number;
};

export function createWebhooks(deps: WebhooksDeps) {
  const { store, vault, audit, clock, config } = deps;
  const urlSafety = createUrlSafety({
    requireHttps: config.environment === "production",
    allowPrivate: config.webhookAllowPrivate,
    resolver: deps.resolver ?? systemResolver,
  });
  const sender = createWebhookSender({ urlSafety, timeoutMs: config.webhookTimeoutMs, clock });
  const endpoints = createWebhookQueries(store);
  const deliveries = createDeliveryQueries(store);
  const leaseMs = config.webhookTimeoutMs + LEASE_MARGIN_MS;
  const attempts = createDeliveryAttempts({ deliveries, endpoints, vault, sender, audit, clock, metrics: deps.metrics, random: deps.random ?? Math.random });
  const worker = createDeliveryWorker({ fanOut: createFanOut({ deliveries, clock }), deliveries, attempts, clock, leaseMs });
  const service = createWebhookService({ endpoints, deliveries, attempts, vault, audit, events: deps.events, urlSafety, clock, leaseMs, nudge: worker.nudge });
  return {
    service,
    worker,
    /** The backlog's counts, read by the metrics at scrape time. */
    deliveryCounts: { countPendingDeliveries: deliveries.countPendingDeliveries, countUndispatchedEvents: deliveries.countUndispatchedEvents },
    async close() {
      await worker.stop();
      await sender.close();
    },
  };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
