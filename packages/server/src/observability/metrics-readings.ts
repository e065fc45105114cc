/**
 * Gauges read when Prometheus scrapes, not on the hot path: the approval queue, the webhook
 * backlog (one count query each, on an index), the store's own counts (memory only). A query's
 * answer is kept for `ttlMs`, so several scrapers (or a fast one) cost one query per interval; a
 * database that does not answer within `timeoutMs` never holds a scrape up: the gauge keeps its
 * last value, `toolbroker_metrics_reading_ok{reading}` turns 0, and no second query is started
 * while the first still hangs.
 */
import { Counter, Gauge, type Registry } from "prom-client";
import { METRIC_PREFIX } from "./metrics.js";

export type PoolStats = { total: number; idle: number; waiting: number };

/** Where the readings come from; app.ts passes the queries and the store. */
export type MetricsReadingSources = {
  pendingApprovals: () => Promise<number>;
  pendingWebhookDeliveries: () => Promise<number>;
  undispatchedEvents: () => Promise<number>;
  storeStats: () => { transactionRetries: number; pool: PoolStats | null };
};

export type ReadingTiming = { ttlMs: number; timeoutMs: number; now?: () => number };

export const DEFAULT_READING_TIMING: ReadingTiming = { ttlMs: 5_000, timeoutMs: 1_000 };

/** One query, cached for `ttlMs`, never more than one in flight, given up on after `timeoutMs`. */
export function cachedReading(read: () => Promise<number>, timing: ReadingTiming): () => Promise<number | undefined> {
  const now = timing.now ?? Date.now;
  let last: { value: number; at: number } | undefined;
  let inFlight: Promise<number | undefined> | undefined;
  return async () => {
    if (last && now() - last.at < timing.ttlMs) return last.value;
    inFlight ??= read().then(
      (value) => {
        last = { value, at: now() };
        return value;
      },
      () => undefined,
    ).finally(() => {
      inFlight = undefined;
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timing.timeoutMs);
    });
    try {
      return await Promise.race([inFlight, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };
}

export function registerReadings(registry: Registry, sources: MetricsReadingSources, timing: ReadingTiming = DEFAULT_READING_TIMING) {
  const readings = {
    approvals_pending: { help: "Approvals waiting for a decision (all tenants)", current: cachedReading(sources.pendingApprovals, timing) },
    webhook_deliveries_pending: { help: "Webhook deliveries not yet delivered or given up (the delivery backlog)", current: cachedReading(sources.pendingWebhookDeliveries, timing) },
    events_undispatched: { help: "Events in the outbox not yet fanned out to webhook endpoints", current: cachedReading(sources.undispatchedEvents, timing) },
  };
  for (const [name, { help, current }] of Object.entries(readings)) {
    new Gauge({
      name: METRIC_PREFIX + name,
      help,
      registers: [registry],
      async collect() {
        const value = await current();
        if (value !== undefined) this.set(value);
      },
    });
  }
  // Each gauge and this one await the same cached reading: one query per reading and interval.
  new Gauge({
    name: `${METRIC_PREFIX}metrics_reading_ok`,
    help: "1 when a scrape-time reading answered in time, 0 when it failed or timed out (its gauge then keeps its last value)",
    labelNames: ["reading"],
    registers: [registry],
    async collect() {
      const answered = await Promise.all(Object.values(readings).map(({ current }) => current()));
      Object.keys(readings).forEach((reading, index) => this.set({ reading }, answered[index] === undefined ? 0 : 1));
    },
  });

  new Counter({
    name: `${METRIC_PREFIX}db_transaction_retries_total`,
    help: "Transactions run again after the database aborted them for a concurrent change (deadlock, serialization, SQLite busy snapshot)",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(sources.storeStats().transactionRetries);
    },
  });
  // SQLite has one connection and no pool: nothing to show there.
  if (sources.storeStats().pool === null) return;
  new Gauge({
    name: `${METRIC_PREFIX}db_pool_connections`,
    help: "PostgreSQL pool connections, by state (total open, idle)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      const pool = sources.storeStats().pool;
      if (!pool) return;
      this.set({ state: "total" }, pool.total);
      this.set({ state: "idle" }, pool.idle);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}db_pool_waiting_requests`,
    help: "Queries waiting for a PostgreSQL pool connection",
    registers: [registry],
    collect() {
      this.set(sources.storeStats().pool?.waiting ?? 0);
    },
  });
}
