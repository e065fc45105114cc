import type { TestOrLive } from "../ids.js";
import type { Sealed } from "../shared/sealed.js";
import type { InvocationStatus } from "./invocation-states.js";

/** One tool call as it was recorded, with its outcome once it has one. */
export type Invocation = {
  id: string;
  tenantId: string;
  env: TestOrLive;
  agentAppId: string;
  /** Who called: the agent app's broker JWT, or a control key acting for it. */
  actorType: "agent_app" | "control_key";
  actorId: string;
  toolName: string;
  provider: string | null;
  connectionId: string | null;
  secretItemId: string | null;
  status: InvocationStatus;
  errorCode: string | null;
  upstreamStatus: number | null;
  latencyMs: number | null;
  /** Kept as the stored JSON text: only the calls that are carried on (continue, unknown) parse it. */
  argumentsRedactedJson: string;
  /** The exact arguments, kept only for calls that wait for an approval. */
  argumentsSealed: Sealed | null;
  argumentsFingerprint: string;
  /** The scrubbed result (or error envelope) of a finished call. */
  outcomeSealed: Sealed | null;
  approvalId: string | null;
  idempotencyKey: string | null;
  /** The fingerprint of the request made under `idempotencyKey`, which its key is written back with when the call is continued. */
  requestFingerprint: string | null;
  createdAt: string;
  completedAt: string | null;
  endUserId: string | null;
  /** The billing period a call that reached the provider when first recorded is metered in, on this row (store/schema.ts). */
  meteredPeriod: string | null;
  /** The trace of the request that first recorded the call (W3C trace id, 32 hex digits); null when tracing was off. */
  traceId: string | null;
};

/** What a lifecycle step changes on an invocation that exists already. */
export type InvocationStep = Pick<Invocation, "status" | "errorCode" | "upstreamStatus" | "latencyMs" | "outcomeSealed" | "completedAt" | "approvalId">;
