import { randomUUID } from "node:crypto";
import type { Executor, Store } from "../store/database.js";
import type { ApprovalChannelKind } from "./approval.js";
import type { DeliveryPurpose } from "./approval-channel.js";

/** Every query on `approval_deliveries` (the channels' outbox), bound to the store; a transaction may be passed last. */
export function createApprovalDeliveryQueries({ db: storeDb }: Pick<Store, "db">) {
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

    /** An approval's deliveries, oldest first (the console shows how each channel fared). */
    listForApproval: (tenantId: string, approvalId: string, db: Executor = storeDb) =>
      db.selectFrom("approval_deliveries").selectAll().where("tenant_id", "=", tenantId).where("approval_id", "=", approvalId).orderBy("created_at").orderBy("id").execute(),
  };
}

export type ApprovalDeliveryQueries = ReturnType<typeof createApprovalDeliveryQueries>;
