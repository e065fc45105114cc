/**
 * `tools/call` as one more caller of the execute pipeline: the same policy, approvals, credential
 * resolution, scrubbing, audit and metering as POST /v1/tools/execute. What MCP adds is how an
 * approval reaches a person: a URL elicitation of the console's page the client retries after
 * (2026-07-28), or an error result carrying the link (2025 clients), after which the identical
 * call runs. A missing connection is never a link: whoever holds a connect link chooses the
 * account the end user's calls use, so the agent hears `credential_required` and the customer's
 * backend, told by `connection.required`, brings its own user to a connect page.
 */
import { ProtocolError, ProtocolErrorCode, type CallToolResult, type InputRequiredResult } from "@modelcontextprotocol/server";
import { BrokerError } from "../errors.js";
import type { RateLimiter } from "../http/rate-limit.js";
import { isDatabaseUnavailable } from "../store/database-errors.js";
import { rateLimitBucket, type AgentCaller } from "../invocations/caller.js";
import type { ExecuteService } from "../tools/execute-service.js";
import type { ScopedTools } from "../catalogue/tool-catalogue.js";
import { editNote, elicit, failed, stepAsResult, succeeded } from "./mcp-results.js";
import type { ApprovalNote } from "../invocations/invocation-states.js";
import type { PendingStep, RequestStates } from "./request-state.js";

export type McpToolCall = {
  caller: AgentCaller;
  name: string;
  arguments: Record<string, unknown> | undefined;
  /** The sealed state of an earlier round, echoed back by a 2026-07-28 client. */
  requestState: string | undefined;
  /** The client's answers to the elicitations of that round, by key. */
  inputResponses: Record<string, unknown> | undefined;
  /** Whether the client can be asked to open a URL (2026-07-28 with URL elicitation). */
  canElicitUrl: boolean;
  /** The request's `params._meta`, whose `traceparent`/`tracestate` the call's span joins (MCP's trace context convention). */
  meta?: Record<string, unknown> | undefined;
};

type McpCallDeps = {
  executeService: Pick<ExecuteService, "execute">;
  catalogue: ScopedTools;
  requestStates: RequestStates;
  limiter: RateLimiter;
  publicUrl: string;
};

const invalidParams = (message: string) => new ProtocolError(ProtocolErrorCode.InvalidParams, message);

/** A refusal the agent hears as a result; the database going away is one too (REST answers it 503). Anything else is a fault. */
function asToolFailure(error: unknown): BrokerError {
  if (error instanceof BrokerError) return error;
  if (isDatabaseUnavailable(error)) return new BrokerError("service_unavailable", "the database is unavailable; retry shortly");
  throw error;
}

/** An edited call that failed still ran with the approver's arguments: the model hears that too. */
function editHint(error: BrokerError): string {
  const approval = (error.details as { approval?: ApprovalNote } | undefined)?.approval;
  return approval?.edited ? editNote(approval) : "";
}

/** Whether the person accepted the elicitation of the last round (opened the link) rather than declining or dismissing it. */
const accepted = (responses: Record<string, unknown> | undefined, step: PendingStep) =>
  (responses?.[step.kind] as { action?: unknown } | undefined)?.action === "accept";

export function createMcpCalls(deps: McpCallDeps) {
  // The console's page for one approval; `tenant` picks the right tenant for operators of several.
  const approvalUrl = (tenantId: string, approvalId: string) => `${deps.publicUrl}/console/approvals/${approvalId}?tenant=${tenantId}`;

  /** The step a person can take so that this refusal turns into a result, if there is one: only an approval. */
  function stepFor(call: McpToolCall, error: BrokerError): PendingStep | undefined {
    if (error.code !== "approval_required" && error.code !== "approval_pending") return undefined;
    const details = (error.details ?? {}) as Record<string, unknown>;
    const approvalId = String(details.approval_id);
    return { kind: "approval", approvalId, approvalUrl: approvalUrl(call.caller.tenantId, approvalId), expiresAt: String(details.expires_at) };
  }

  return {
    async call(call: McpToolCall): Promise<CallToolResult | InputRequiredResult> {
      const { caller } = call;
      // An unknown tool is a protocol error (the client asked for something that is not listed); every other refusal is a result.
      // The tenant's catalogue is read from the database: a store that is away is a failed call, like any other refusal.
      // The listed name (`scm_create_issue`), the dotted one and a provider alias's all name one tool, which runs under its dotted name.
      const known = await deps.catalogue.view(caller).then(({ tools }) => tools.canonicalName(call.name) ?? null, (thrown: unknown) => asToolFailure(thrown));
      if (known instanceof BrokerError) return failed(known);
      if (known === null) throw invalidParams(`unknown tool "${call.name}"`);
      const name = known;
      const args = call.arguments ?? {};
      const identity = { caller, toolName: name, arguments: args };
      const previous = call.requestState === undefined ? undefined : deps.requestStates.open(identity, call.requestState);
      if (call.requestState !== undefined && !previous) throw invalidParams("Invalid or expired requestState");
      try {
        await deps.limiter.consume(rateLimitBucket(caller, caller.agentAppId));
        const approvalId = previous?.kind === "approval" ? previous.approvalId : undefined;
        const outcome = await deps.executeService.execute(caller, { tool_name: name, arguments: args, approval_id: approvalId }, { channel: "mcp", traceContext: call.meta });
        return succeeded(outcome.invocation_id, outcome.result, outcome.approval);
      } catch (thrown) {
        const error = asToolFailure(thrown);
        const step = stepFor(call, error);
        if (!step) return failed(error, {}, editHint(error));
        // A person who declined or dismissed the link is not asked again in a loop: the agent hears why and decides.
        const declined = previous !== undefined && !accepted(call.inputResponses, previous);
        if (call.canElicitUrl && !declined) return elicit(step, deps.requestStates.seal(identity, step));
        return stepAsResult(error, step);
      }
    },
  };
}

export type McpCalls = ReturnType<typeof createMcpCalls>;
