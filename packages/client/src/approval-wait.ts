/**
 * Waiting for a human decision: after `approval_required`, poll `continue` with a growing interval
 * until the broker answers with the result (approved), `policy_denied` (denied),
 * `approval_expired`, or the caller's timeout or signal ends the wait.
 */
import { ApprovalTimeoutError, isBrokerError, type ApprovalRequiredError } from "./errors.js";
import { sleep } from "./retry.js";
import type { ContinueResult } from "./types.js";

export type WaitOptions = {
  /** Stops waiting (the promise rejects with the signal's reason). */
  signal?: AbortSignal;
  /** First wait before asking again, in ms. Default 1000. */
  pollInterval?: number;
  /** The interval grows by half each poll up to this, in ms. Default 15 000. */
  maxPollInterval?: number;
  /**
   * Give up after this many ms with `ApprovalTimeoutError` (the invocation can still be continued
   * later). Default: no client-side limit; the broker ends the wait with `approval_expired`.
   */
  timeout?: number;
  /** Called once when the call turns out to need approval, e.g. to tell a human where to decide. */
  onApprovalRequired?: (error: ApprovalRequiredError) => void | Promise<void>;
};

type Continuer = (invocationId: string, options: { signal?: AbortSignal | undefined }) => Promise<ContinueResult>;

export async function waitForDecision(continueInvocation: Continuer, pending: ApprovalRequiredError, options: WaitOptions): Promise<ContinueResult> {
  const { signal, timeout } = options;
  const maxInterval = options.maxPollInterval ?? 15_000;
  let interval = Math.min(options.pollInterval ?? 1_000, maxInterval);
  const started = Date.now();
  const deadline = timeout === undefined ? Number.POSITIVE_INFINITY : started + timeout;
  await options.onApprovalRequired?.(pending);
  for (;;) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new ApprovalTimeoutError(pending.approvalId, pending.invocationId, Date.now() - started);
    await sleep(Math.min(interval, remaining), signal);
    try {
      return await continueInvocation(pending.invocationId, { signal });
    } catch (error) {
      // Undecided, or approved and being run by a concurrent continue: ask again later.
      if (!isBrokerError(error, "approval_pending") && !isBrokerError(error, "request_in_progress")) throw error;
    }
    interval = Math.min(Math.round(interval * 1.5), maxInterval);
  }
}
