/**
 * The start of an approved call: its approval is consumed and the call is marked `sending` (the
 * invocation, and its idempotency key when it has one) in one transaction. Continue, a re-execute
 * with `approval_id` and MCP's identical call all start this way. So a broker that dies after the
 * start leaves a call that answers `outcome_unknown` once the takeover window has passed, never one
 * that waits forever for an approval already spent, and never a key a new request could reuse.
 */
import type { ApprovalService } from "../approvals/approval-service.js";
import { BrokerError } from "../errors.js";
import type { Store } from "../store/database.js";
import { retryingTransaction } from "../store/retrying-transaction.js";
import type { Idempotency } from "./idempotency.js";
import type { CallDescription } from "./invocation-states.js";
import type { InvocationQueries } from "./invocation-queries.js";

type StartDeps = {
  store: Pick<Store, "db">;
  approvals: Pick<ApprovalService, "consumeIn">;
  invocationQueries: Pick<InvocationQueries, "startSending">;
  idempotency: Pick<Idempotency, "markStarted">;
};

/** A call to start: it runs as the invocation that waited, under the approval given. */
export type StartingCall = CallDescription & { approvalId: string };

/**
 * Answers true when this request started the call and must send it; false when the approval was
 * not there to consume (another request started the call first, or the approval expired). A key
 * held by another call, or a call that no longer waits, is refused and nothing is consumed.
 * `claimedAs` is the invocation id under which this request claimed the key (execute).
 */
export function createInvocationStart({ store, approvals, invocationQueries, idempotency }: StartDeps) {
  return async function start(call: StartingCall, options: { claimedAs?: string } = {}): Promise<boolean> {
    return retryingTransaction(store.db, async (trx) => {
      if (!(await approvals.consumeIn(trx, call.approvalId))) return false;
      if (!(await invocationQueries.startSending(call.invocationId, call.approvalId, trx))) {
        throw new BrokerError("conflict", "the invocation no longer waits for its approval", { invocation_id: call.invocationId });
      }
      if (call.idempotency) {
        await idempotency.markStarted(trx, call.idempotency, {
          // An invocation recorded before migration 0013 has no request fingerprint: its key then
          // matches no request, so it is only ever replayed through the invocation itself.
          requestFingerprint: call.requestFingerprint ?? "",
          invocationId: call.invocationId,
          ...(options.claimedAs ? { claimedAs: options.claimedAs } : {}),
        });
      }
      return true;
    });
  };
}

export type InvocationStart = ReturnType<typeof createInvocationStart>;
