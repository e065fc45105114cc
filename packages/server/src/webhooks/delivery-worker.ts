/**
 * The delivery loop: fans out new events, leases due attempts and sends them concurrently.
 * It wakes every POLL_INTERVAL_MS, at once on `nudge()`, and whenever an attempt finishes.
 * Sends are never awaited by the loop, and per-endpoint and per-tenant caps keep one slow or dead
 * endpoint from taking every slot, so other tenants' deliveries keep flowing.
 */
import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Clock } from "../clock.js";
import type { DeliveryAttempts } from "./delivery-attempt.js";
import type { ClaimCandidate, DeliveryQueries, DeliveryRow } from "./delivery-queries.js";
import type { FanOut } from "./fan-out.js";

export const POLL_INTERVAL_MS = 200;
export const MAX_IN_FLIGHT = 64;
export const MAX_IN_FLIGHT_PER_TENANT = 8;
export const MAX_IN_FLIGHT_PER_ENDPOINT = 4;
const CLAIM_WINDOW = 100;

export type WorkerLog = Pick<FastifyBaseLogger, "info" | "warn" | "error">;
const silentLog: WorkerLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

type WorkerDeps = {
  fanOut: Pick<FanOut, "dispatchPending">;
  deliveries: Pick<DeliveryQueries, "claimDue">;
  attempts: Pick<DeliveryAttempts, "attempt">;
  clock: Clock;
  leaseMs: number;
  pollIntervalMs?: number;
};

type InFlight = { tenantId: string; endpointId: string; done: Promise<void> };

export function createDeliveryWorker({ fanOut, deliveries, attempts, clock, leaseMs, pollIntervalMs = POLL_INTERVAL_MS }: WorkerDeps) {
  const inFlight = new Map<string, InFlight>();
  let log = silentLog;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let ticking: Promise<void> | undefined;
  let wakeAgain = false;
  let stopSignal = new AbortController();
  /** Errors the loop caught and logged; `drain` reports how many happened while it ran. */
  let errors = 0;
  const logError = (fields: Record<string, unknown>, message: string) => {
    errors += 1;
    log.error(fields, message);
  };

  const countBy = (key: "tenantId" | "endpointId") => {
    const counts = new Map<string, number>();
    for (const flight of inFlight.values()) counts.set(flight[key], (counts.get(flight[key]) ?? 0) + 1);
    return counts;
  };

  /** Picks candidates within the caps, in due order. */
  function choose(candidates: ClaimCandidate[]): string[] {
    const perTenant = countBy("tenantId");
    const perEndpoint = countBy("endpointId");
    const chosen: string[] = [];
    for (const candidate of candidates) {
      if (inFlight.size + chosen.length >= MAX_IN_FLIGHT) break;
      const tenantCount = perTenant.get(candidate.tenant_id) ?? 0;
      const endpointCount = perEndpoint.get(candidate.endpoint_id) ?? 0;
      if (tenantCount >= MAX_IN_FLIGHT_PER_TENANT || endpointCount >= MAX_IN_FLIGHT_PER_ENDPOINT) continue;
      perTenant.set(candidate.tenant_id, tenantCount + 1);
      perEndpoint.set(candidate.endpoint_id, endpointCount + 1);
      chosen.push(candidate.id);
    }
    return chosen;
  }

  function launch(delivery: DeliveryRow) {
    const done = attempts
      .attempt(delivery, stopSignal.signal)
      .then(() => undefined)
      .catch((error: unknown) => logError({ err: error, delivery_id: delivery.id }, "webhook attempt failed to run; it is retried when its lease lapses"))
      .finally(() => {
        inFlight.delete(delivery.id);
        if (running) nudge();
      });
    inFlight.set(delivery.id, { tenantId: delivery.tenant_id, endpointId: delivery.endpoint_id, done });
  }

  async function claimAndLaunch(): Promise<number> {
    if (inFlight.size >= MAX_IN_FLIGHT) return 0;
    const now = clock.now();
    const busy = [...countBy("endpointId")].filter(([, n]) => n >= MAX_IN_FLIGHT_PER_ENDPOINT).map(([id]) => id);
    const claimed = await deliveries.claimDue({
      now: now.toISOString(),
      leaseUntil: new Date(now.getTime() + leaseMs).toISOString(),
      leaseToken: randomUUID(),
      window: CLAIM_WINDOW,
      excludeEndpoints: busy,
      choose,
    });
    for (const delivery of claimed) launch(delivery);
    return claimed.length;
  }

  async function tick(): Promise<void> {
    await fanOut.dispatchPending();
    while ((await claimAndLaunch()) > 0 && inFlight.size < MAX_IN_FLIGHT) {
      // keep filling free slots while due work remains
    }
  }

  /** Runs one tick at a time; a wake-up during a tick runs another right after it. */
  function runTick(): Promise<void> {
    if (ticking) {
      wakeAgain = true;
      return ticking;
    }
    ticking = tick()
      .catch((error: unknown) => logError({ err: error }, "webhook delivery tick failed; retrying on the next poll"))
      .finally(() => {
        ticking = undefined;
        if (!running) return;
        const delay = wakeAgain ? 0 : pollIntervalMs;
        wakeAgain = false;
        schedule(delay);
      });
    return ticking;
  }

  function schedule(delay: number) {
    clearTimeout(timer);
    timer = setTimeout(() => void runTick(), delay);
  }

  function nudge() {
    if (!running) return;
    if (ticking) wakeAgain = true;
    else schedule(0);
  }

  return {
    start(logger: WorkerLog = silentLog) {
      if (running) return;
      log = logger;
      running = true;
      stopSignal = new AbortController();
      schedule(0);
    },

    /** Wakes the loop now, e.g. after a change that created due work in this process. */
    nudge,

    /** Stops polling and aborts sends in progress; their leases are released for another worker. */
    async stop() {
      running = false;
      clearTimeout(timer);
      stopSignal.abort();
      await ticking;
      await Promise.allSettled([...inFlight.values()].map((f) => f.done));
    },

    /** Runs ticks until no due work is left and nothing is in flight; returns the errors caught meanwhile. */
    async drain(): Promise<{ errors: number }> {
      const before = errors;
      // After stop() every send would be aborted at once: there is nothing left to drain.
      if (stopSignal.signal.aborted) return { errors: 0 };
      for (let round = 0; round < 1000; round += 1) {
        // A tick that began before this call may have missed the work the caller just created.
        while (ticking) await ticking;
        await runTick();
        if (inFlight.size === 0) break;
        await Promise.allSettled([...inFlight.values()].map((f) => f.done));
      }
      return { errors: errors - before };
    },

    get inFlight() {
      return inFlight.size;
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
