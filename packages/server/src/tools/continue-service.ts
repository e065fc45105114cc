/**
 * Resuming a call that waited for a human: POST /v1/tools/invocations/{id}/continue. An approved
 * call runs exactly once; every later continue returns the stored outcome.
 */
import type { ApprovalRow, ApprovalService } from "../approvals/approval-service.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { PolicyService } from "../policy/policy-service.js";
import type { Store } from "../store/database.js";
import { assertApprovedAndLive } from "./approval-gate.js";
import type { CredentialResolution } from "./credential-resolution.js";
import { envelopeOf, type Attempt, type ExecuteResponse, type ExecuteService } from "./execute-service.js";
import type { Caller, InvocationRecorder } from "./invocation-recorder.js";
import type { InvocationQueries, InvocationRow } from "./invocation-queries.js";
import type { ToolCatalogue } from "./tool-catalogue.js";

type ContinueDeps = {
  store: Pick<Store, "db">;
  clock: Clock;
  invocationQueries: InvocationQueries;
  policies: Pick<PolicyService, "current">;
  approvals: Pick<ApprovalService, "findForInvocation" | "consume" | "isExpired">;
  recorder: InvocationRecorder;
  toolCatalogue: ToolCatalogue;
  credentialResolution: CredentialResolution;
  executor: Pick<ExecuteService, "perform" | "replay">;
};

/** The agent app that started a call (or a control key of its tenant and env) may see it. */
export function visibleTo(row: InvocationRow | undefined, caller: Pick<Caller, "tenantId" | "env" | "agentAppId"> & { anyAgentApp?: boolean }) {
  if (!row || row.tenant_id !== caller.tenantId || row.env !== caller.env) return false;
  return caller.anyAgentApp === true || row.agent_app_id === caller.agentAppId;
}

export function createContinueService(deps: ContinueDeps) {
  const { store, invocationQueries, recorder } = deps;

  async function runApproved(row: InvocationRow, approval: ApprovalRow, caller: Caller): Promise<ExecuteResponse> {
    const attempt: Attempt = {
      caller: { ...caller, agentAppId: row.agent_app_id },
      invocationId: row.id,
      toolName: row.tool_name,
      provider: row.provider,
      connectionId: row.connection_id,
      secretItemId: row.secret_item_id,
      argumentsRedacted: JSON.parse(row.arguments_redacted),
      argumentsFingerprint: row.arguments_fingerprint,
      approvalId: approval.id,
      idempotency: undefined,
      existing: true,
    };
    const args = await recorder.openArguments(row);
    try {
      const entry = deps.toolCatalogue.resolve(row.tool_name);
      const handle = await deps.credentialResolution.resolve(entry, row.tenant_id, row.env, { connected_account_id: row.connection_id, secret_item_id: row.secret_item_id });
      return await deps.executor.perform(attempt, entry, handle, args);
    } catch (error) {
      if (!(error instanceof BrokerError) || attempt.began) throw error;
      // The handle went bad while the call waited (e.g. the account was revoked): record it as the outcome.
      const failure = new BrokerError(error.code, error.message, { ...error.details, invocation_id: row.id }, { status: error.status });
      await recorder.record({ ...attempt, status: "failed", errorCode: error.code, upstreamStatus: null, latencyMs: null, outcome: { status: failure.status, body: envelopeOf(failure) } });
      throw failure;
    }
  }

  /** Policy applies to every execution: a deny rule added after the approval still wins. */
  async function assertPolicyStillAllows(row: InvocationRow) {
    const entry = deps.toolCatalogue.resolve(row.tool_name);
    const policy = await deps.policies.current(row.tenant_id, row.env);
    const args = await recorder.openArguments(row);
    const decision = policy.evaluate({ toolName: row.tool_name, risk: entry.tool.risk, agentAppId: row.agent_app_id, arguments: args });
    if (decision.effect !== "deny") return;
    await invocationQueries.markDenied(store.db, row.id, deps.clock.now().toISOString());
    throw new BrokerError("policy_denied", `policy rule "${decision.rule_id}" denies this call`, { rule_id: decision.rule_id, invocation_id: row.id });
  }

  return {
    async continueInvocation(caller: Caller & { anyAgentApp?: boolean }, invocationId: string): Promise<ExecuteResponse> {
      const row = await invocationQueries.find(store.db, caller.tenantId, invocationId);
      if (!row || !visibleTo(row, caller)) throw notFound("invocation");
      if (row.status === "succeeded" || row.status === "failed") return deps.executor.replay(row.tenant_id, row.id);
      if (row.status === "denied") throw new BrokerError("policy_denied", "this call was denied", { invocation_id: row.id });
      // Looked up by invocation: the waiting row is written before it knows its approval's id.
      const approval = row.status === "awaiting_approval" ? await deps.approvals.findForInvocation(row.tenant_id, row.id) : undefined;
      if (!approval) {
        throw new BrokerError("conflict", `invocation is ${row.status}; only calls awaiting approval can be continued`, { invocation_id: row.id, status: row.status });
      }
      if (approval.status === "consumed") return deps.executor.replay(row.tenant_id, row.id);
      if (approval.status === "denied") await invocationQueries.markDenied(store.db, row.id, deps.clock.now().toISOString());
      assertApprovedAndLive(approval, deps.approvals.isExpired(approval));
      await assertPolicyStillAllows(row);
      // Concurrent continues: one wins the approval and runs the call; the others replay or wait.
      if (!(await deps.approvals.consume(approval.id))) return deps.executor.replay(row.tenant_id, row.id);
      return runApproved(row, approval, caller);
    },
  };
}

export type ContinueService = ReturnType<typeof createContinueService>;
