/**
 * Sends an admitted call to its provider and records how it ended — for execute and for continue
 * alike. A write under an idempotency key is announced (written ahead) right before its request
 * leaves, so that a crash can never lead to sending it twice. An approved call was marked sending
 * when it started (invocation-start.ts), read or write, key or not: it is not announced again.
 */
import type { CredentialHandle } from "./credential-resolution.js";
import { transitions, type CallDescription, type CallOutcome } from "../invocations/invocation-states.js";
import type { InvocationRecorder } from "../invocations/invocation-recorder.js";
import type { CatalogueTool } from "../catalogue/tool-catalogue.js";
import type { UpstreamCall } from "./upstream-call.js";

type PerformDeps = { upstreamCall: UpstreamCall; recorder: Pick<InvocationRecorder, "record"> };

export function createPerform({ upstreamCall, recorder }: PerformDeps) {
  return async function perform(call: CallDescription, entry: CatalogueTool, handle: CredentialHandle, args: Record<string, unknown>): Promise<CallOutcome> {
    let announced = false;
    const announce = async () => {
      await recorder.record(transitions.sending(call));
      announced = true;
    };
    // A call running under an approval is one that started (an approval id is set on a call only
    // as it waits, which throws, or as it starts).
    const writesUnderKey = call.idempotency !== undefined && entry.tool.sideEffect === "write" && call.approvalId === null;
    const outcome = await upstreamCall.call(entry, handle, args, { beforeSend: writesUnderKey ? announce : undefined });
    await recorder.record(transitions.finished({ ...call, existing: call.existing || announced }, outcome));
    return outcome;
  };
}

export type Perform = ReturnType<typeof createPerform>;
