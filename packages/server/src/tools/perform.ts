/**
 * Sends an admitted call to its provider and finishes it — for execute and for continue alike.
 * A write under an idempotency key is marked `sending` (written ahead) once its credential is
 * open and its request built, right before the request leaves, so that a crash can never lead to
 * sending it twice. An approved call was marked sending when it started: it is not marked again.
 */
import type { CatalogueTool } from "../catalogue/tool-catalogue.js";
import type { InvocationLifecycle } from "../invocations/invocation-lifecycle.js";
import type { CallDescription, CallOutcome } from "../invocations/invocation-states.js";
import type { CredentialHandle } from "./credential-resolution.js";
import type { UpstreamCall } from "./upstream-call.js";

type PerformDeps = {
  upstreamCall: UpstreamCall;
  lifecycle: Pick<InvocationLifecycle, "markSending" | "finish">;
  /**
   * Whether the tenant lets its calls' trace context go to the upstream (tenants/tracing-settings-service.ts);
   * asked only while traces are exported.
   */
  tracePropagation?: { enabled: boolean; allows: (tenantId: string) => Promise<boolean> } | undefined;
};

export function createPerform({ upstreamCall, lifecycle, tracePropagation }: PerformDeps) {

  return async function perform(call: CallDescription, entry: CatalogueTool, handle: CredentialHandle, args: Record<string, unknown>): Promise<CallOutcome> {
    // Settings that cannot be read mean no propagation: the call itself goes on.
    const propagateTraceContext = tracePropagation?.enabled ? await tracePropagation.allows(call.caller.tenantId).catch(() => false) : false;
    const preparation = await upstreamCall.prepare(entry, handle, args);
    if ("outcome" in preparation) {
      await lifecycle.finish(call, preparation.outcome);
      return preparation.outcome;
    }
    // A call running under an approval is one that started (an approval id is set on a call only
    // as it waits, which throws, or as it starts).
    const writesUnderKey = call.idempotency !== undefined && entry.tool.sideEffect === "write" && call.approvalId === null;
    const sending = writesUnderKey ? await lifecycle.markSending(call) : call;
    const outcome = await upstreamCall.send(preparation.ready, { propagateTraceContext });
    await lifecycle.finish(sending, outcome);
    return outcome;
  };
}

export type Perform = ReturnType<typeof createPerform>;
