/**
 * The approval outbox's loop: every `intervalMs` it sweeps (expiry, reminders) and then delivers
 * what is due to the channels, until nothing due is left. `serve` runs it in process (unless
 * BROKER_APPROVAL_WORKER=false) and so does `toolbroker worker`; any number of instances may run it.
 */
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { Store } from "../store/database.js";
import { createTenantQueries } from "../tenants/tenant-queries.js";
import type { ApprovalBindings } from "./approval-binding.js";
import type { ApprovalChannel } from "./approval-channel.js";
import type { ApprovalDeliveryQueries } from "./approval-delivery-queries.js";
import { failureText } from "./approval-delivery-retry.js";
import { channelRegistry, createApprovalDeliveryWorker, type OutboxLog } from "./approval-delivery-worker.js";
import { createApprovalNotices } from "./approval-notice.js";
import { createApprovalOutboxQueries } from "./approval-outbox-queries.js";
import type { ApprovalQueries } from "./approval-queries.js";
import { createApprovalSweeper } from "./approval-sweeper.js";
import type { Metrics } from "../observability/metrics.js";

const silentLog: OutboxLog = { warn: () => undefined, error: () => undefined };
/** A pass delivers at most this many batches before the loop yields to the next interval. */
const MAX_BATCHES_PER_PASS = 50;

export type ApprovalOutboxDeps = {
  store: Pick<Store, "db" | "kind" | "transaction">;
  approvalQueries: Pick<ApprovalQueries, "findById">;
  approvalDeliveries: Pick<ApprovalDeliveryQueries, "enqueue" | "requestChannels" | "claimDue" | "finish">;
  approvalBindings: Pick<ApprovalBindings, "describe">;
  audit: Pick<AuditLog, "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  clock: Clock;
  /** The channels deliveries go to (app.ts registers them); a delivery for a channel not here fails and is retried. */
  channels: readonly ApprovalChannel[];
  intervalMs: number;
  metrics: Pick<Metrics, "approvalsExpired">;
  random?: () => number;
};

export function createApprovalOutbox(deps: ApprovalOutboxDeps) {
  const queries = createApprovalOutboxQueries(deps.store);
  const notices = createApprovalNotices({ bindings: deps.approvalBindings, members: createTenantQueries(deps.store), queries });
  const channels = channelRegistry(deps.channels);
  const worker = createApprovalDeliveryWorker({ deliveries: deps.approvalDeliveries, approvals: deps.approvalQueries, notices, channels, clock: deps.clock, random: deps.random ?? Math.random });
  const sweeper = createApprovalSweeper({ store: deps.store, queries, approvals: deps.approvalQueries, deliveries: deps.approvalDeliveries, audit: deps.audit, events: deps.events, clock: deps.clock });

  let log = silentLog;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let passing: Promise<void> | undefined;

  /**
   * One sweep, then deliveries until none is due: a sent request lets its channel's outcome go in
   * the same pass, and a failure is rescheduled later, so the loop ends.
   */
  async function pass(): Promise<void> {
    const { expired } = await sweeper.sweep();
    deps.metrics.approvalsExpired(expired);
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS; batch += 1) {
      if ((await worker.deliverDue(log)) === 0) break;
    }
  }

  /** Runs one pass at a time: a caller arriving during a pass waits for it, then runs its own. */
  async function runOnce(): Promise<void> {
    while (passing) await passing.catch(() => undefined);
    passing = pass().finally(() => {
      passing = undefined;
    });
    return passing;
  }

  function schedule() {
    if (!running) return;
    timer = setTimeout(() => {
      runOnce()
        .catch((error: unknown) => log.error({ error: failureText(error) }, "approval outbox pass failed; retrying on the next interval"))
        .finally(schedule);
    }, deps.intervalMs);
  }

  return {
    channels,
    start(logger: OutboxLog = silentLog) {
      if (running) return;
      log = logger;
      running = true;
      schedule();
    },
    /** One sweep and delivery pass now (tests, with their own clock); resolves when it is done. */
    runOnce,
    /** Stops the loop; a pass in progress finishes first. */
    async stop() {
      running = false;
      clearTimeout(timer);
      while (passing) await passing.catch(() => undefined);
    },
  };
}

export type ApprovalOutbox = ReturnType<typeof createApprovalOutbox>;
