import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Executor, Store } from "../store/database.js";
import type { ApprovalDeliveriesTable } from "../store/schema.js";
import type { ApprovalChannelKind } from "./approval.js";
import type { DeliveryPurpose } from "./approval-channel.js";

export type DeliveryRow = ApprovalDeliveriesTable;

/**
 * A claimed delivery: `attempts` was incremented and `next_attempt_at` pushed to the lease's end by
 * the claim. Both together are the lease: a result is written only while neither has changed, so
 * a worker whose lease lapsed (and was claimed again) cannot overwrite the newer attempt's result.
 */
export type LeasedDelivery = DeliveryRow;

export type DeliveryResult =
  | { status: "sent"; at: string; progress: unknown }
  | { status: "pending"; nextAttemptAt: string; lastError: string; progress: unknown }
  | { status: "gave_up"; lastError: string; progress: unknown };

/** Every query on `approval_deliveries` (the channels' outbox), bound to the store; a transaction may be passed last. */
export function createApprovalDeliveryQueries({ db: storeDb, kind }: Pick<Store, "db" | "kind">) {
  return {
    /** Queues a notice per channel; one per (approval, channel, purpose), so a repeat queues nothing. */
    async enqueue(approval: { id: string; tenantId: string }, purpose: DeliveryPurpose, channels: ApprovalChannelKind[], at: string, db: Executor = storeDb): Promise<void> {
      if (channels.length === 0) return;
      await db
        .insertInto("approval_deliveries")
        .values(
          channels.map((channel) => ({
            id: randomUUID(),
            tenant_id: approval.tenantId,
            approval_id: approval.id,
            channel,
            purpose,
            status: "pending" as const,
            attempts: 0,
            next_attempt_at: at,
            last_error: null,
            progress: null,
            created_at: at,
            sent_at: null,
          })),
        )
        .onConflict((oc) => oc.columns(["approval_id", "channel", "purpose"]).doNothing())
        .execute();
    },

    /** The deliveries of some approvals (a page of them), oldest first (the console shows how each channel fared). */
    async listForApprovals(tenantId: string, approvalIds: string[], db: Executor = storeDb) {
      if (approvalIds.length === 0) return [];
      return db.selectFrom("approval_deliveries").selectAll().where("tenant_id", "=", tenantId).where("approval_id", "in", approvalIds).orderBy("created_at").orderBy("id").execute();
    },

    /**
     * Leases up to `limit` due deliveries in one conditional UPDATE: it counts the attempt and moves
     * `next_attempt_at` to `leaseUntil`, so no other worker sees them as due until the lease lapses.
     * A reminder or an outcome waits while its channel's request is still pending (the outcome edits
     * the message the request posted). PostgreSQL skips rows another worker is claiming right now;
     * SQLite has one writer at a time.
     */
    async claimDue(now: string, leaseUntil: string, limit: number, db: Executor = storeDb): Promise<LeasedDelivery[]> {
      const due = db
        .selectFrom("approval_deliveries as d")
        .select("d.id")
        .where("d.status", "=", "pending")
        .where("d.next_attempt_at", "<=", now)
        .where((eb) =>
          eb.or([
            eb("d.purpose", "=", "request"),
            eb.not(
              eb.exists(
                eb
                  .selectFrom("approval_deliveries as r")
                  .select("r.id")
                  .whereRef("r.approval_id", "=", "d.approval_id")
                  .whereRef("r.channel", "=", "d.channel")
                  .where("r.purpose", "=", "request")
                  .where("r.status", "=", "pending"),
              ),
            ),
          ]),
        )
        .orderBy("d.next_attempt_at")
        .limit(limit);
      const lease = (ids: typeof due | string[]) =>
        db
          .updateTable("approval_deliveries")
          .set({ attempts: sql`attempts + 1`, next_attempt_at: leaseUntil })
          .where("id", "in", ids)
          .where("status", "=", "pending")
          .where("next_attempt_at", "<=", now)
          .returningAll()
          .execute();
      if (kind === "postgres") return lease(due.forUpdate().skipLocked());
      // SQLite: read first, and write only when something is due. Every poll would otherwise ask for
      // the write lock, and another instance on the same file holding it would stall this one.
      const ids = (await due.execute()).map((row) => row.id);
      return ids.length === 0 ? [] : lease(ids);
    },

    /** Writes an attempt's result while the lease is still this worker's; false when it lapsed and another worker took it. */
    async finish(leased: LeasedDelivery, result: DeliveryResult, db: Executor = storeDb): Promise<boolean> {
      const progress = result.progress === undefined || result.progress === null ? null : JSON.stringify(result.progress);
      const patch =
        result.status === "sent"
          ? { status: "sent" as const, sent_at: result.at, last_error: null, progress }
          : result.status === "pending"
            ? { next_attempt_at: result.nextAttemptAt, last_error: result.lastError, progress }
            : { status: "gave_up" as const, last_error: result.lastError, progress };
      const updated = await db
        .updateTable("approval_deliveries")
        .set(patch)
        .where("id", "=", leased.id)
        .where("status", "=", "pending")
        .where("attempts", "=", leased.attempts)
        .where("next_attempt_at", "=", leased.next_attempt_at)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },

    /** The channels an approval's request went to: its reminder and its outcome go to the same ones. */
    async requestChannels(approvalId: string, db: Executor = storeDb): Promise<ApprovalChannelKind[]> {
      const rows = await db.selectFrom("approval_deliveries").select("channel").where("approval_id", "=", approvalId).where("purpose", "=", "request").orderBy("channel").execute();
      return rows.map((row) => row.channel);
    },
  };
}

export type ApprovalDeliveryQueries = ReturnType<typeof createApprovalDeliveryQueries>;
