/**
 * Time-driven steps of an approval, run by every instance: a pending approval past its expiry
 * becomes `expired` (announced once, with the `approval.expired` event and an audit entry, and the
 * outcome sent where the request went), and a reminder goes out once, `remindBeforeSeconds` before
 * the expiry, on the channels the request went to. Each step is claimed by a conditional update,
 * so instances sweeping at once announce and remind exactly once.
 */
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { Store } from "../store/database.js";
import type { ApprovalDeliveryQueries } from "./approval-delivery-queries.js";
import type { ApprovalOutboxQueries } from "./approval-outbox-queries.js";
import type { ApprovalQueries } from "./approval-queries.js";

/** How many approvals one sweep expires, and reminds, at most; the next sweep takes the rest. */
export const SWEEP_BATCH = 100;
const SWEEPER = { type: "system", id: "approval-sweeper" } as const;

type SweeperDeps = {
  store: Pick<Store, "transaction">;
  queries: Pick<ApprovalOutboxQueries, "expiredIds" | "markExpired" | "remindableIds" | "markReminded">;
  approvals: Pick<ApprovalQueries, "findById">;
  deliveries: Pick<ApprovalDeliveryQueries, "enqueue" | "requestChannels">;
  audit: Pick<AuditLog, "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  clock: Clock;
};

export function createApprovalSweeper({ store, queries, approvals, deliveries, audit, events, clock }: SweeperDeps) {
  /** Expires one approval and announces it, all in one transaction; false when another sweeper (or a decision) came first. */
  const expire = (id: string, now: string) =>
    store.transaction(async (trx) => {
      if (!(await queries.markExpired(id, now, trx))) return false;
      const approval = (await approvals.findById(id, trx))!;
      const data = {
        approval_id: approval.id,
        invocation_id: approval.invocationId,
        tool_name: approval.toolName,
        agent_app_id: approval.agentAppId,
        end_user_id: approval.endUserId,
        env: approval.env,
        expires_at: approval.expiresAt,
      };
      await audit.appendIn({ tenantId: approval.tenantId, actor: SWEEPER, action: "approval.expired", target: { type: "approval", id }, agentAppId: approval.agentAppId, toolName: approval.toolName, data }, trx);
      await events.emitIn({ tenantId: approval.tenantId, type: "approval.expired", data }, trx);
      await deliveries.enqueue(approval, "outcome", await deliveries.requestChannels(id, trx), now, trx);
      return true;
    });

  const remind = (id: string, now: string) =>
    store.transaction(async (trx) => {
      if (!(await queries.markReminded(id, now, trx))) return false;
      const approval = (await approvals.findById(id, trx))!;
      await deliveries.enqueue(approval, "reminder", await deliveries.requestChannels(id, trx), now, trx);
      return true;
    });

  return {
    /** One sweep: what expired, then the reminders that are due. Resolves with how many of each this instance did. */
    async sweep(): Promise<{ expired: number; reminded: number }> {
      const now = clock.now().toISOString();
      let expired = 0;
      for (const id of await queries.expiredIds(now, SWEEP_BATCH)) if (await expire(id, now)) expired += 1;
      let reminded = 0;
      for (const id of await queries.remindableIds(now, SWEEP_BATCH)) if (await remind(id, now)) reminded += 1;
      return { expired, reminded };
    },
  };
}

export type ApprovalSweeper = ReturnType<typeof createApprovalSweeper>;
