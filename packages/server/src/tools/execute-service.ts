/**
 * POST /v1/tools/execute as a caller of the invocation lifecycle: idempotency → tool → arguments →
 * credential handle → policy → approval → perform, with every refusal recorded.
 */
import type { Static } from "@sinclair/typebox";
import type { AgentAppService } from "../agent-apps/agent-app-service.js";
import type { ApprovalService } from "../approvals/approval-service.js";
import { BrokerError } from "../errors.js";
import { uuidv7 } from "../ids.js";
import type { PolicyDecision } from "../policy/policy-engine.js";
import { policyDenied } from "../policy/policy-denial.js";
import type { PolicyService } from "../policy/policy-service.js";
import { fingerprint } from "../shared/canonical-json.js";
import type { ActingCaller, Caller } from "../invocations/caller.js";
import type { CredentialHandle, CredentialResolution } from "./credential-resolution.js";
import type { Idempotency } from "../invocations/idempotency.js";
import type { InvocationLifecycle } from "../invocations/invocation-lifecycle.js";
import type { InvocationReplay } from "../invocations/invocation-replay.js";
import { settle, storedOutcomeOf, type ApprovalNote, type CallDescription, type Channel } from "../invocations/invocation-states.js";
import type { RaisedEvent } from "../invocations/invocation-writes.js";
import type { Perform } from "./perform.js";
import { approvedRun, type ApprovedRun, type EditedArguments } from "./approved-call.js";
import { redactArguments } from "./scrub.js";
import type { CatalogueTool, ScopedTools, ToolCatalogue } from "../catalogue/tool-catalogue.js";
import type { ExecuteBody } from "./tool-schemas.js";
import { timeOutcome, type Metrics, type ToolCallTimer } from "../observability/metrics.js";
import { sentUpstream } from "./perform.js";
import { NO_TRACING, SpanKind, type Span, type TraceCarrier, type Tracing } from "../observability/tracing.js";
import { ATTR, SPANS } from "../observability/tracing-attributes.js";
import { argumentKeysOf, notePolicy, traceOutcome } from "./call-tracing.js";

export type ExecuteRequest = Static<typeof ExecuteBody>;
/** A request as the pipeline sees it: arguments left out are `{}`. */
type ExecuteCall = ExecuteRequest & { arguments: Record<string, unknown> };
/** `approval`: the call ran under a person's approval, which may have edited its arguments (see ApprovalNote). */
export type ExecuteResult = { invocation_id: string; result: unknown; approval?: ApprovalNote; replayed: boolean };

/**
 * How the call arrived. Over MCP a client cannot carry an `approval_id` back, so the identical call
 * (same tool, arguments, credential, agent app, env and end user) finds the approval it asked for.
 */
export type ExecuteOptions = {
  channel?: Channel;
  /** The caller's W3C trace context (REST request headers, MCP `params._meta`): the call's span joins that trace. */
  traceContext?: TraceCarrier | undefined;
};

export type ExecuteDeps = {
  catalogue: ScopedTools;
  credentialResolution: CredentialResolution;
  policies: Pick<PolicyService, "current">;
  approvals: Pick<ApprovalService, "usableForCall" | "whyNotConsumed" | "findLiveForCall">;
  agentApps: Pick<AgentAppService, "get">;
  lifecycle: Pick<InvocationLifecycle, "reject" | "deny" | "park" | "start">;
  perform: Perform;
  idempotency: Pick<Idempotency, "claim" | "release">;
  replay: InvocationReplay;
  seals: EditedArguments;
  metrics: Pick<Metrics, "startToolCall" | "policyDecision" | "approvalRequested">;
  tracing?: Tracing | undefined;
};

type Admitted = { entry: CatalogueTool; handle: CredentialHandle };
type ExactCall = Parameters<ExecuteDeps["approvals"]["usableForCall"]>[1];

export function createExecuteService(deps: ExecuteDeps) {
  const { lifecycle } = deps;
  const tracing = deps.tracing ?? NO_TRACING;

  /** Records the refusal (admit: rejected, or denied by policy), then refuses. */
  async function refuse(call: CallDescription, error: BrokerError, how: { denied: boolean; event?: RaisedEvent | undefined }): Promise<never> {
    await (how.denied ? lifecycle.deny(call, error) : lifecycle.reject(call, error, how.event));
    throw error;
  }

  /**
   * An end user without an account for the tool's provider: the customer's backend, which knows
   * its user, hears it and brings them to a connect page. The agent gets no link (it would choose
   * the account its end user's calls run on), only the refusal.
   */
  const connectionRequired = ({ caller, toolName, invocationId }: CallDescription, error: BrokerError): RaisedEvent => ({
    tenantId: caller.tenantId,
    type: "connection.required",
    data: {
      end_user_id: caller.endUserId,
      provider: (error.details as { provider: string }).provider,
      tool_name: toolName,
      invocation_id: invocationId,
      agent_app_id: caller.agentAppId,
      env: caller.env,
    },
  });

  /** Tool, arguments and handle: any fault here is the caller's and is recorded as rejected. */
  async function admit(call: CallDescription, body: ExecuteCall, tools: ToolCatalogue): Promise<Admitted> {
    try {
      const entry = tools.resolve(body.tool_name);
      tools.validateArguments(entry, body.arguments);
      const handle = await deps.credentialResolution.resolve(entry, call.caller, body);
      return { entry, handle };
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error;
      const forEndUser = error.code === "credential_required" && call.caller.endUserId !== null;
      return refuse({ ...call, provider: providerOf(tools, body.tool_name) }, error, { denied: false, event: forEndUser ? connectionRequired(call, error) : undefined });
    }
  }

  async function requestApproval(call: CallDescription, entry: CatalogueTool, args: Record<string, unknown>, decision: PolicyDecision): Promise<never> {
    const approval = await tracing.inSpan(SPANS.approvalRequest, {}, async (span) => {
      const parked = await lifecycle.park(call, { provider: entry.provider.id, args, ruleId: decision.rule_id, ruleApproval: decision.approval });
      span.setAttribute(ATTR.approvalId, parked.id);
      return parked;
    });
    deps.metrics.approvalRequested();
    throw new BrokerError("approval_required", `${entry.tool.name} needs a human approval first`, { approval_id: approval.id, invocation_id: call.invocationId, expires_at: approval.expiresAt });
  }

  /**
   * Policy and approval: returns the call as it may run and the arguments it sends (possibly as
   * the invocation that waited for approval, with the arguments an approver edited).
   */
  async function authorize(call: CallDescription, entry: CatalogueTool, body: ExecuteCall): Promise<ApprovedRun> {
    const { caller } = call;
    const { judge, decision } = await tracing.inSpan(SPANS.policy, {}, async (span) => {
      const policy = await deps.policies.current(caller.tenantId, caller.env);
      const judge = (args: Record<string, unknown>) =>
        policy.evaluate({ toolName: entry.tool.name, risk: entry.tool.risk, agentAppId: caller.agentAppId, endUserId: caller.endUserId, arguments: args });
      const decision = notePolicy(span, judge(body.arguments));
      return { judge, decision };
    });
    // The decision a call meets as it arrives (continue's re-check of an approved call is not counted again).
    deps.metrics.policyDecision(decision.effect);
    if (decision.effect === "deny") return refuse(call, policyDenied(decision), { denied: true });
    // A call that needs no approval runs on its own merits: an approval_id it carries is neither
    // checked, consumed nor recorded (the policy may have changed since the approval was asked for).
    if (decision.effect === "allow") return { call, args: body.arguments };
    const exactCall = {
      tenantId: caller.tenantId,
      env: caller.env,
      agentAppId: caller.agentAppId,
      endUserId: caller.endUserId,
      toolName: call.toolName,
      connectionId: call.connectionId,
      secretItemId: call.secretItemId,
      argumentsFingerprint: call.argumentsFingerprint,
    };
    const approvalId = body.approval_id ?? (call.channel === "mcp" ? (await deps.approvals.findLiveForCall(exactCall))?.id : undefined);
    if (!approvalId) return requestApproval(call, entry, body.arguments, decision);
    try {
      return await tracing.inSpan(SPANS.approvalConsume, { attributes: { [ATTR.approvalId]: approvalId } }, () => consumeApproval(call, body, approvalId, exactCall, judge));
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error;
      return refuse(call, error, { denied: error.code === "policy_denied" });
    }
  }

  /**
   * The approval named (or found) for this call, consumed as the call starts: the approved call runs
   * as the invocation that asked for it, with the arguments as approved (an approver's edit, if
   * any), started (its approval consumed, the call and this request's key marked sending) in one
   * transaction.
   */
  async function consumeApproval(call: CallDescription, body: ExecuteCall, approvalId: string, exactCall: ExactCall, judge: (args: Record<string, unknown>) => PolicyDecision): Promise<ApprovedRun> {
    const approval = await deps.approvals.usableForCall(approvalId, exactCall);
    const requested = { call: { ...call, invocationId: approval.invocationId, existing: true, approvalId: approval.id }, args: body.arguments };
    const run = await approvedRun(requested, approval, deps.seals);
    // An edited call meets policy too: a deny rule it falls under (one added since the decision, say) wins.
    const edited = run.call.approvalEdit ? judge(run.args) : undefined;
    if (edited?.effect === "deny") throw policyDenied(edited);
    if (await lifecycle.start({ ...run.call, approvalId: approval.id }, { claimedAs: call.invocationId })) return run;
    throw (await deps.approvals.whyNotConsumed(approval.id)) ?? new BrokerError("approval_already_used", "the approval was already used for one call", { approval_id: approval.id });
  }

  /** A control key names the agent app it acts for, which must be active. */
  async function actingCaller(caller: Caller): Promise<ActingCaller> {
    if (caller.kind === "agent_app") return caller;
    if (!caller.agentAppId) {
      throw new BrokerError("invalid_request", "agent_app_id is required when a control key executes a tool", {
        fields: [{ location: "body", field: "/agent_app_id", message: "is required with a control key" }],
      }, { status: 422 });
    }
    const agentApp = await deps.agentApps.get(caller.tenantId, caller.agentAppId);
    if (agentApp.status !== "active") throw new BrokerError("forbidden", "the agent app is disabled");
    return { ...caller, agentAppId: caller.agentAppId };
  }

  /** The call itself; `timer` hears the tool it resolved to and the upstream request's time, `span` the ids. */
  async function run(timer: ToolCallTimer, anyCaller: Caller, named: ExecuteRequest, options: ExecuteOptions, span: Span): Promise<ExecuteResult> {
    const caller = await actingCaller(anyCaller);
    if (span.isRecording()) span.setAttributes({ [ATTR.tenantId]: caller.tenantId, [ATTR.env]: caller.env, [ATTR.agentAppId]: caller.agentAppId });
    // A tool named by its MCP name or a provider alias runs, is checked by policy and is recorded
    // under its dotted name. The request sees one view of the catalogue throughout.
    const { tools: catalogue } = await deps.catalogue.view(caller);
    const body: ExecuteCall = { ...named, tool_name: catalogue.canonicalName(named.tool_name) ?? named.tool_name, arguments: named.arguments ?? {} };
    timer.named(body.tool_name, caller.tenantId, catalogue.has(body.tool_name));
    const invocationId = uuidv7();
    if (span.isRecording()) span.setAttributes({ [ATTR.tool]: body.tool_name, [ATTR.genAiTool]: body.tool_name, [ATTR.invocationId]: invocationId });
    const scope = body.idempotency_key
      ? { tenantId: caller.tenantId, env: caller.env, agentAppId: caller.agentAppId, endUserId: caller.endUserId, key: body.idempotency_key }
      : undefined;
    const requestFingerprint = scope ? requestFingerprintOf(body) : null;
    if (scope && requestFingerprint) {
      const claim = await deps.idempotency.claim(scope, requestFingerprint, invocationId);
      if (claim.kind === "abandoned_send") await deps.replay.settleAbandoned(caller.tenantId, claim.invocationId, scope.key);
      if (claim.kind !== "claimed") {
        span.setAttribute(ATTR.invocationId, claim.invocationId);
        return deps.replay.replay(caller.tenantId, claim.invocationId);
      }
    }
    const call: CallDescription = {
      caller,
      invocationId,
      toolName: body.tool_name,
      provider: null,
      connectionId: body.connected_account_id ?? null,
      secretItemId: body.secret_item_id ?? null,
      argumentsRedacted: redactArguments(body.arguments),
      argumentsFingerprint: fingerprint(body.arguments),
      approvalId: null,
      idempotency: scope,
      requestFingerprint,
      existing: false,
      channel: options.channel ?? "rest",
      traceId: tracing.traceId(),
    };
    try {
      const { entry, handle } = await admit(call, body, catalogue);
      // From here on the call is about the credential it resolved to (named or chosen by
      // default): that is what an approval pins down and what the invocation records.
      const resolved = { ...call, provider: entry.provider.id, ...handleIds(handle) };
      if (span.isRecording()) span.setAttributes({ [ATTR.provider]: entry.provider.id, [ATTR.argumentKeys]: argumentKeysOf(entry, body.arguments) });
      const admitted = await authorize(resolved, entry, body);
      // A re-execute runs as the invocation that waited for the approval.
      if (admitted.call.invocationId !== invocationId) span.setAttribute(ATTR.invocationId, admitted.call.invocationId);
      const outcome = await deps.perform(admitted.call, entry, handle, admitted.args);
      if (sentUpstream(outcome)) timer.upstream(outcome.latencyMs);
      return { ...settle(storedOutcomeOf(admitted.call, outcome), { replayed: false }), replayed: false };
    } catch (error) {
      // A key still in progress had no decision recorded (e.g. the database failed): forget it so the
      // caller may retry. Kept and announced (sending) keys are never released.
      if (scope) await deps.idempotency.release(scope).catch(() => {});
      throw error;
    }
  }

  return {
    /** The call's span (`toolbroker.execute`) covers it all, from the idempotency claim to the answer. */
    execute(anyCaller: Caller, named: ExecuteRequest, options: ExecuteOptions = {}): Promise<ExecuteResult> {
      const channel = options.channel ?? "rest";
      const timer = deps.metrics.startToolCall(channel);
      const attributes = { [ATTR.channel]: channel, [ATTR.genAiOperation]: "execute_tool", ...(channel === "mcp" ? { [ATTR.mcpMethod]: "tools/call" } : {}) };
      return tracing.inSpan(SPANS.execute, { kind: SpanKind.SERVER, carrier: options.traceContext, attributes }, (span) => traceOutcome(span, timeOutcome(timer, run(timer, anyCaller, named, options, span))));
    },
  };
}

/**
 * agent_app_id and end_user_id are part of the key's scope, not of the request: a control key
 * naming them and the broker JWT that carries them as claims send the same request.
 */
const requestFingerprintOf = (body: ExecuteRequest) => fingerprint({ ...body, idempotency_key: undefined, agent_app_id: undefined, end_user_id: undefined });

const handleIds = (handle: CredentialHandle) =>
  handle.kind === "oauth2" ? { connectionId: handle.connectionId, secretItemId: null } : { connectionId: null, secretItemId: handle.secretItemId };

const providerOf = (catalogue: ToolCatalogue, toolName: string) => (catalogue.has(toolName) ? catalogue.resolve(toolName).provider.id : null);

export type ExecuteService = ReturnType<typeof createExecuteService>;
