/**
 * POST /v1/tools/invocations/{id}/continue as a caller of the invocation lifecycle: a call that
 * waited for a human runs exactly once after approval; every later continue replays its outcome.
 */
import type { Approval } from "../approvals/approval.js";
import type { ApprovalService } from "../approvals/approval-service.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { PolicyService } from "../policy/policy-service.js";
import { policyDenied } from "../policy/policy-denial.js";
import { actingFor, canSee, type ActingCaller, type Caller } from "../invocations/caller.js";
import type { CredentialHandle, CredentialResolution } from "./credential-resolution.js";
import { IN_PROGRESS_STALE_MS } from "../invocations/idempotency.js";
import { callOf, type InvocationLifecycle, type StartingCall } from "../invocations/invocation-lifecycle.js";
import type { InvocationQueries } from "../invocations/invocation-queries.js";
import type { InvocationReplay } from "../invocations/invocation-replay.js";
import type { InvocationSeals } from "../invocations/invocation-seals.js";
import { settle, storedOutcomeOf, type CallOutcome } from "../invocations/invocation-states.js";
import type { Invocation } from "../invocations/invocation.js";
import type { Perform } from "./perform.js";
import { approvedRun } from "./approved-call.js";
import type { ExecuteResult } from "./execute-service.js";
import type { CatalogueTool, ScopedTools } from "../catalogue/tool-catalogue.js";
import { timeOutcome, type Metrics, type ToolCallTimer } from "../observability/metrics.js";
import { sentUpstream } from "./perform.js";
import { NO_TRACING, SpanKind, type Span, type TraceCarrier, type Tracing } from "../observability/tracing.js";
import { ATTR, SPANS } from "../observability/tracing-attributes.js";
import { notePolicy, traceOutcome } from "./call-tracing.js";

type ContinueDeps = {
  clock: Clock;
  invocationQueries: Pick<InvocationQueries, "find">;
  policies: Pick<PolicyService, "current">;
  approvals: Pick<ApprovalService, "findForInvocation" | "whyNotConsumed" | "assertUsable">;
  lifecycle: Pick<InvocationLifecycle, "start" | "finish" | "denyWaiting" | "markUnknown">;
  seals: Pick<InvocationSeals, "openArguments" | "openEditedArguments">;
  catalogue: ScopedTools;
  credentialResolution: CredentialResolution;
  perform: Perform;
  replay: InvocationReplay;
  metrics: Pick<Metrics, "startToolCall">;
  tracing?: Tracing | undefined;
};

/** The caller's W3C trace context (the request's headers): the continue span joins that trace. */
export type ContinueOptions = { traceContext?: TraceCarrier | undefined };

export function createContinueService(deps: ContinueDeps) {
  const { invocationQueries, lifecycle } = deps;
  const tracing = deps.tracing ?? NO_TRACING;

  async function runStarted(invocation: Invocation, call: StartingCall, args: Record<string, unknown>, timer: ToolCallTimer): Promise<ExecuteResult> {
    const answer = (outcome: CallOutcome) => ({ ...settle(storedOutcomeOf(call, outcome), { replayed: false }), replayed: false });
    let admitted: { entry: CatalogueTool; handle: CredentialHandle };
    try {
      const entry = (await deps.catalogue.view(invocation)).tools.resolve(invocation.toolName);
      admitted = { entry, handle: await deps.credentialResolution.resolve(entry, call.caller, { connected_account_id: invocation.connectionId, secret_item_id: invocation.secretItemId }) };
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error;
      // The tool or the handle went bad while the call waited (e.g. the account was revoked): that is its outcome.
      const outcome: CallOutcome = { kind: "failed", error, upstreamStatus: null, latencyMs: null, requestMayHaveLeft: false };
      await lifecycle.finish(call, outcome);
      return answer(outcome);
    }
    // Outside the catch above: an error from here on is the lifecycle's own (the call may have
    // been sent), never an outcome that says nothing left.
    const outcome = await deps.perform(call, admitted.entry, admitted.handle, args);
    if (sentUpstream(outcome)) timer.upstream(outcome.latencyMs);
    return answer(outcome);
  }

  /**
   * Policy applies to every execution, judged on the arguments that will be sent (an approver's
   * edit, if any): a deny rule added after the approval still wins.
   */
  async function assertPolicyStillAllows(invocation: Invocation, caller: ActingCaller, args: Record<string, unknown>) {
    const decision = await tracing.inSpan(SPANS.policy, {}, async (span) => {
      const entry = (await deps.catalogue.view(invocation)).tools.resolve(invocation.toolName);
      const policy = await deps.policies.current(invocation.tenantId, invocation.env);
      return notePolicy(span, policy.evaluate({ toolName: invocation.toolName, risk: entry.tool.risk, agentAppId: invocation.agentAppId, endUserId: invocation.endUserId, arguments: args }));
    });
    if (decision.effect !== "deny") return;
    const error = policyDenied(decision, { invocation_id: invocation.id });
    await lifecycle.denyWaiting(invocation, caller, error);
    throw error;
  }

  /** The approval must be usable now; one a person denied denies the call with it. */
  async function assertApproved(invocation: Invocation, caller: ActingCaller, approval: Approval) {
    try {
      deps.approvals.assertUsable(approval);
    } catch (error) {
      if (approval.status === "denied" && error instanceof BrokerError) await lifecycle.denyWaiting(invocation, caller, error);
      throw error;
    }
  }

  /**
   * A started call without an outcome is running, or its broker died while sending it. Past the
   * takeover window it is the latter: the call becomes `unknown` (audited once) and answers
   * `outcome_unknown`; it is never sent again, since its approval is spent.
   */
  async function replayStarted(invocation: Invocation, approval: Approval): Promise<ExecuteResult> {
    const takeoverAt = new Date(deps.clock.now().getTime() - IN_PROGRESS_STALE_MS).toISOString();
    if (!invocation.outcomeSealed && approval.consumedAt !== null && approval.consumedAt <= takeoverAt) {
      await lifecycle.markUnknown(invocation, invocation.idempotencyKey);
    }
    return deps.replay.replay(invocation.tenantId, invocation.id);
  }

  /** The invocation's ids on the continue span, once it is known to be the caller's. */
  function noteInvocation(span: Span, invocation: Invocation) {
    if (!span.isRecording()) return;
    span.setAttributes({
      [ATTR.tenantId]: invocation.tenantId,
      [ATTR.env]: invocation.env,
      [ATTR.agentAppId]: invocation.agentAppId,
      [ATTR.invocationId]: invocation.id,
      [ATTR.tool]: invocation.toolName,
      [ATTR.genAiTool]: invocation.toolName,
      ...(invocation.provider ? { [ATTR.provider]: invocation.provider } : {}),
    });
  }

  /** The continue itself; `timer` hears the waiting call's tool and the upstream request's time. */
  async function continueTraced(timer: ToolCallTimer, caller: Caller, invocationId: string, span: Span): Promise<ExecuteResult> {
    const invocation = await invocationQueries.find(caller.tenantId, invocationId);
    if (!invocation || !canSee(caller, invocation)) throw notFound("invocation");
    noteInvocation(span, invocation);
    timer.named(invocation.toolName, invocation.tenantId, true);
    const { tenantId, id, status } = invocation;
    if (status === "succeeded" || status === "failed" || status === "unknown") return deps.replay.replay(tenantId, id);
    // Looked up by invocation: the waiting invocation is written before it knows its approval's id.
    const approval = status === "awaiting_approval" || status === "sending" || status === "denied" ? await deps.approvals.findForInvocation(tenantId, id) : undefined;
    if (status === "denied") {
      // Asked again after a person denied it, the caller hears the same refusal, reason included.
      if (approval?.status === "denied") deps.approvals.assertUsable(approval);
      throw new BrokerError("policy_denied", "this call was denied", { invocation_id: id });
    }
    if (!approval) {
      throw new BrokerError("conflict", `invocation is ${status}; only calls awaiting approval can be continued`, { invocation_id: id, status });
    }
    if (approval.status === "consumed") return replayStarted(invocation, approval);
    const acting = actingFor(caller, invocation);
    await assertApproved(invocation, acting, approval);
    // The approval is approved, so its edit (if any) is final: that is the call that runs.
    // This request's trace goes into the audit entries it writes; the invocation keeps the trace that created it.
    const requested = { call: { ...callOf(invocation, acting, approval.id), traceId: tracing.traceId() }, args: await deps.seals.openArguments(invocation) };
    const run = await approvedRun(requested, approval, deps.seals);
    await assertPolicyStillAllows(invocation, acting, run.args);
    const call = { ...run.call, approvalId: approval.id };
    // Concurrent continues: one consumes the approval and runs the call; the others replay or wait.
    const started = await tracing.inSpan(SPANS.approvalConsume, { attributes: { [ATTR.approvalId]: approval.id } }, () => lifecycle.start(call));
    if (started) return runStarted(invocation, call, run.args, timer);
    const refusal = await deps.approvals.whyNotConsumed(approval.id);
    if (refusal) throw refusal;
    return deps.replay.replay(tenantId, id);
  }

  return {
    /** The continue span (`toolbroker.continue`) covers it all, up to the answer or its replay; its calls count on the `rest` channel. */
    continueInvocation(caller: Caller, invocationId: string, options: ContinueOptions = {}): Promise<ExecuteResult> {
      const timer = deps.metrics.startToolCall("rest");
      return tracing.inSpan(SPANS.continue, { kind: SpanKind.SERVER, carrier: options.traceContext, attributes: CONTINUE_ATTRIBUTES }, (span) => traceOutcome(span, timeOutcome(timer, continueTraced(timer, caller, invocationId, span))));
    },
  };
}

const CONTINUE_ATTRIBUTES = { [ATTR.channel]: "rest", [ATTR.genAiOperation]: "execute_tool" };

export type ContinueService = ReturnType<typeof createContinueService>;
