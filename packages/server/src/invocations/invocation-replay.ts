/**
 * Answers for a call that already happened: the stored outcome of an invocation, replayed for an
 * idempotency key or a repeated continue, and the `unknown` outcome of a send that was abandoned.
 */
import { BrokerError } from "../errors.js";
import { settle } from "./invocation-states.js";
import type { InvocationLifecycle } from "./invocation-lifecycle.js";
import type { InvocationQueries } from "./invocation-queries.js";
import type { InvocationSeals } from "./invocation-seals.js";

type ReplayDeps = { invocationQueries: Pick<InvocationQueries, "find">; seals: Pick<InvocationSeals, "openOutcome">; lifecycle: Pick<InvocationLifecycle, "markUnknown"> };

const stillRunning = () => new BrokerError("request_in_progress", "the original request has not finished yet; retry shortly");

export function createInvocationReplay({ invocationQueries, seals, lifecycle }: ReplayDeps) {
  return {
    /** The stored result, or the stored error raised again; `request_in_progress` until there is one. */
    async replay(tenantId: string, invocationId: string) {
      const invocation = await invocationQueries.find(tenantId, invocationId);
      const outcome = invocation ? await seals.openOutcome(invocation) : undefined;
      if (!outcome) throw stillRunning();
      return { ...settle(outcome, { replayed: true }), replayed: true };
    },

    /** The process that announced this send died: the call's outcome is unknown, never re-sent. */
    async settleAbandoned(tenantId: string, invocationId: string, key: string) {
      const invocation = await invocationQueries.find(tenantId, invocationId);
      if (invocation?.status === "sending") await lifecycle.markUnknown(invocation, key);
    },
  };
}

export type InvocationReplay = ReturnType<typeof createInvocationReplay>;
