/**
 * Reading invocations for callers: GET /v1/tools/invocations/{id}, and the continue rate limit
 * that counts against the agent app that started a call. A call the caller may not see answers
 * 404, exactly like one that does not exist.
 */
import type { Static } from "@sinclair/typebox";
import { notFound } from "../errors.js";
import { canSee, type Caller } from "./caller.js";
import type { InvocationSeals } from "./invocation-seals.js";
import type { Invocation } from "./invocation.js";
import type { Invocation as InvocationSchema } from "./invocation-schema.js";

export type InvocationView = Static<typeof InvocationSchema>;

type InvocationReaderDeps = {
  /** The tenant's invocation by id (the invocation queries, bound to the store by the wiring). */
  find: (tenantId: string, id: string) => Promise<Invocation | undefined>;
  seals: Pick<InvocationSeals, "openOutcome" | "openArguments">;
};

export function createInvocationReader({ find, seals }: InvocationReaderDeps) {
  return {
    /** The exact arguments a waiting call was sealed with (for an admin deciding its approval). */
    async sealedArgumentsOf(tenantId: string, invocationId: string): Promise<Record<string, unknown>> {
      const invocation = await find(tenantId, invocationId);
      if (!invocation?.argumentsSealed) throw notFound("invocation arguments");
      return seals.openArguments(invocation);
    },

    /** The invocation with its scrubbed outcome, if the caller may see it. */
    async read(caller: Caller, id: string): Promise<InvocationView> {
      const invocation = await find(caller.tenantId, id);
      if (!invocation || !canSee(caller, invocation)) throw notFound("invocation");
      const outcome = await seals.openOutcome(invocation);
      return {
        invocation_id: invocation.id,
        status: invocation.status,
        tool_name: invocation.toolName,
        env: invocation.env,
        agent_app_id: invocation.agentAppId,
        end_user_id: invocation.endUserId,
        connected_account_id: invocation.connectionId,
        secret_item_id: invocation.secretItemId,
        approval_id: invocation.approvalId,
        error_code: invocation.errorCode,
        upstream_status: invocation.upstreamStatus,
        latency_ms: invocation.latencyMs,
        created_at: invocation.createdAt,
        completed_at: invocation.completedAt,
        trace_id: invocation.traceId,
        ...(outcome?.kind === "result" ? { result: outcome.result, ...(outcome.approval ? { approval: outcome.approval } : {}) } : {}),
        ...(outcome?.kind === "error" ? { error: { code: outcome.code, message: outcome.message, ...(outcome.details ? { details: outcome.details } : {}) } } : {}),
      };
    },

    /** The agent app that started a call of this tenant; undefined for an unknown call. */
    async startedBy(tenantId: string, id: string): Promise<string | undefined> {
      return (await find(tenantId, id))?.agentAppId;
    },
  };
}

export type InvocationReader = ReturnType<typeof createInvocationReader>;
