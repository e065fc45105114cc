/**
 * Delivers the approval outbox (`approval_deliveries`) to the channels (Slack, email). Each due
 * delivery is leased by a conditional update (approval-delivery-queries.ts), so across instances
 * one worker attempts it at a time; a worker that dies mid-send leaves a lease that lapses and the
 * delivery is tried again. A failure is kept (worded without secrets) and retried with backoff,
 * then given up: the approval stays in the console either way.
 */
import type { Clock } from "../clock.js";
import type { ApprovalChannelKind } from "./approval.js";
import { ChannelFailure, type ApprovalChannel } from "./approval-channel.js";
import { failureText, MAX_DELIVERY_ATTEMPTS, retryAt } from "./approval-delivery-retry.js";
import type { ApprovalDeliveryQueries, DeliveryResult, LeasedDelivery } from "./approval-delivery-queries.js";
import type { ApprovalNotices } from "./approval-notice.js";
import type { ApprovalQueries } from "./approval-queries.js";
import { visibleStatus } from "./approval-rules.js";

/** How long a claimed delivery is one worker's; a channel's send must finish well within it. */
export const DELIVERY_LEASE_MS = 120_000;
/** How many deliveries one pass claims (and sends concurrently). */
export const DELIVERY_BATCH = 20;

export type OutboxLog = { warn(fields: Record<string, unknown>, message: string): void; error(fields: Record<string, unknown>, message: string): void };

/** The channels this broker can send on, by kind; a later channel of the same kind replaces an earlier one. */
export function channelRegistry(channels: readonly ApprovalChannel[]): ReadonlyMap<ApprovalChannelKind, ApprovalChannel> {
  return new Map(channels.map((channel) => [channel.kind, channel]));
}

type DeliveryWorkerDeps = {
  deliveries: Pick<ApprovalDeliveryQueries, "claimDue" | "finish">;
  approvals: Pick<ApprovalQueries, "findById">;
  notices: Pick<ApprovalNotices, "build">;
  channels: ReadonlyMap<ApprovalChannelKind, ApprovalChannel>;
  clock: Clock;
  /** Source of retry jitter. */
  random: () => number;
  leaseMs?: number;
};

export function createApprovalDeliveryWorker({ deliveries, approvals, notices, channels, clock, random, leaseMs = DELIVERY_LEASE_MS }: DeliveryWorkerDeps) {
  const storedProgress = (delivery: LeasedDelivery): unknown => (delivery.progress === null ? null : (JSON.parse(delivery.progress) as unknown));

  /** What a failed attempt leaves: another try later, or given up once the attempts are spent. */
  function failed(delivery: LeasedDelivery, error: unknown, progress: unknown): DeliveryResult {
    const lastError = failureText(error);
    if (delivery.attempts >= MAX_DELIVERY_ATTEMPTS) return { status: "gave_up", lastError, progress };
    return { status: "pending", nextAttemptAt: retryAt(clock.now(), delivery.attempts, random).toISOString(), lastError, progress };
  }

  /** One attempt: nothing thrown escapes; the result is what `finish` writes. */
  async function attempt(delivery: LeasedDelivery): Promise<DeliveryResult | undefined> {
    const approval = await approvals.findById(delivery.approval_id);
    if (!approval) return undefined;
    const progress = storedProgress(delivery);
    // A request or a reminder is for a decision still to make; once there is none, it is not sent.
    const status = visibleStatus(approval, clock.now());
    if (delivery.purpose !== "outcome" && status !== "pending") {
      return { status: "gave_up", lastError: `not sent: the approval was ${status} first`, progress };
    }
    const channel = channels.get(delivery.channel);
    if (!channel) return failed(delivery, `no ${delivery.channel} channel is configured on this broker`, progress);
    try {
      const sent = await channel.send(await notices.build(approval, delivery));
      return { status: "sent", at: clock.now().toISOString(), progress: sent };
    } catch (error) {
      return failed(delivery, error, error instanceof ChannelFailure ? error.progress : progress);
    }
  }

  async function deliver(delivery: LeasedDelivery, log: OutboxLog): Promise<void> {
    const result = await attempt(delivery);
    if (!result) return;
    const kept = await deliveries.finish(delivery, result);
    const fields = { delivery_id: delivery.id, approval_id: delivery.approval_id, channel: delivery.channel, purpose: delivery.purpose, attempts: delivery.attempts };
    if (!kept) log.warn(fields, "approval delivery outlived its lease; another worker's attempt stands");
    else if (result.status === "pending") log.warn({ ...fields, error: result.lastError, next_attempt_at: result.nextAttemptAt }, "approval delivery failed; retrying later");
    else if (result.status === "gave_up") log.warn({ ...fields, error: result.lastError }, "approval delivery given up; the approval stays in the console");
  }

  return {
    /** Claims the due deliveries and sends them; resolves with how many it claimed once all are done. */
    async deliverDue(log: OutboxLog): Promise<number> {
      const now = clock.now();
      const claimed = await deliveries.claimDue(now.toISOString(), new Date(now.getTime() + leaseMs).toISOString(), DELIVERY_BATCH);
      await Promise.all(
        claimed.map((delivery) =>
          deliver(delivery, log).catch((error: unknown) =>
            log.error({ delivery_id: delivery.id, error: failureText(error) }, "approval delivery failed to run; it is retried when its lease lapses"),
          ),
        ),
      );
      return claimed.length;
    },
  };
}

export type ApprovalDeliveryWorker = ReturnType<typeof createApprovalDeliveryWorker>;
