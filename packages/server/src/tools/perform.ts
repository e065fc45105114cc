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
import type { Metrics, UpstreamErrorKind } from "../observability/metrics.js";

type PerformDeps = {
  upstreamCall: UpstreamCall;
  lifecycle: Pick<InvocationLifecycle, "markSending" | "finish">;
  metrics: Pick<Metrics, "upstreamError">;
  /**
   * Whether the tenant lets its calls' trace context go to the upstream (tenants/tracing-settings-service.ts);
   * asked only while traces are exported.
   */
  tracePropagation?: { enabled: boolean; allows: (tenantId: string) => Promise<boolean> } | undefined;
};

/** Whether a call's request was handed to the network (its upstream time is then the outcome's latency, when known). */
export const sentUpstream = (outcome: CallOutcome) => outcome.kind === "succeeded" || outcome.requestMayHaveLeft;

/** What went wrong at the provider, for the metrics; undefined for an outcome that is not the provider's failure. */
export function upstreamErrorKind(outcome: CallOutcome): UpstreamErrorKind | undefined {
  if (outcome.kind !== "failed" || outcome.error.code !== "upstream_error") return undefined;
  const reason = outcome.error.details?.reason;
  if (reason === "timeout") return "timeout";
  if (reason === "network") return "connection";
  if (reason === "address_refused") return "refused";
  if (reason === "too_large") return "too_large";
  if (reason === "unexpected_response") return "bad_response";
  const status = outcome.upstreamStatus;
  if (status !== null) return status >= 500 ? "status_5xx" : status >= 400 ? "status_4xx" : "bad_response";
  return "other";
}

export function createPerform({ upstreamCall, lifecycle, metrics, tracePropagation }: PerformDeps) {
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
    const errorKind = upstreamErrorKind(outcome);
    if (errorKind) metrics.upstreamError(entry.provider.id, errorKind);
    await lifecycle.finish(sending, outcome);
    return outcome;
  };
}

export type Perform = ReturnType<typeof createPerform>;
