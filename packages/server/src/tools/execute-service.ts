/**
 * The execute pipeline (DESIGN §4): idempotency → tool → arguments → credential handle → policy →
 * approval → upstream call → scrubbed result, with every attempt recorded.
 */
import { randomUUID } from "node:crypto";
import { uuidv7 } from "../ids.js";
import type { ApprovalService } from "../approvals/approval-service.js";
import { BrokerError } from "../errors.js";
import type { PolicyService } from "../policy/policy-service.js";
import type { ApprovalGate } from "./approval-gate.js";
import { fingerprint } from "./canonical.js";
import type { CredentialHandle, CredentialResolution } from "./credential-resolution.js";
import type { Idempotency } from "./idempotency.js";
import type { AttemptRecord, Caller, InvocationRecorder, StoredOutcome } from "./invocation-recorder.js";
import type { InvocationQueries } from "./invocation-queries.js";
import { redactArguments } from "./scrub.js";
import type { CatalogueTool, ToolCatalogue } from "./tool-catalogue.js";
import type { UpstreamCall } from "./upstream-call.js";
import type { Store } from "../store/database.js";

export type ExecuteBody = {
  tool_name: string;
  arguments: Record<string, unknown>;
  connected_account_id?: string | null;
  secret_item_id?: string | null;
  idempotency_key?: string | null;
  approval_id?: string | null;
};

export type ExecuteResponse = { status: number; body: unknown; replayed: boolean };

export type ExecuteDeps = {
  store: Pick<Store, "db">;
  toolCatalogue: ToolCatalogue;
  credentialResolution: CredentialResolution;
  policies: Pick<PolicyService, "current">;
  approvals: Pick<ApprovalService, "createIn">;
  approvalGate: ApprovalGate;
  upstreamCall: UpstreamCall;
  idempotency: Idempotency;
  recorder: InvocationRecorder;
  invocationQueries: InvocationQueries;
};

export const envelopeOf = (error: BrokerError) => ({
  ok: false as const,
  error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
});

/** What one attempt knows so far; each stage fills in more before it can fail. */
export type Attempt = Omit<AttemptRecord, "status" | "errorCode" | "upstreamStatus" | "latencyMs" | "outcome"> & {
  /** Set once the upstream call starts: from then on the outcome is stored, never forgotten. */
  began?: boolean;
};

export function createExecuteService(deps: ExecuteDeps) {
  const { recorder } = deps;

  async function replay(tenantId: string, invocationId: string): Promise<ExecuteResponse> {
    const row = await deps.invocationQueries.find(deps.store.db, tenantId, invocationId);
    const outcome = row ? await recorder.openOutcome(row) : undefined;
    if (!outcome) throw new BrokerError("request_in_progress", "the original request has not finished yet; retry shortly");
    return { ...outcome, replayed: true };
  }

  async function reject(attempt: Attempt, error: BrokerError, status: "rejected" | "denied"): Promise<never> {
    await recorder.record({ ...attempt, status, errorCode: error.code, upstreamStatus: null, latencyMs: null, outcome: undefined });
    throw error;
  }

  /** Runs the upstream call and records its outcome, success or upstream failure. */
  async function perform(attempt: Attempt, entry: CatalogueTool, handle: CredentialHandle, args: Record<string, unknown>): Promise<ExecuteResponse> {
    attempt.began = true;
    try {
      const outcome = await deps.upstreamCall.call(entry, handle, args);
      const body = { invocation_id: attempt.invocationId, result: outcome.result };
      await recorder.record({ ...attempt, status: "succeeded", errorCode: null, upstreamStatus: outcome.upstreamStatus, latencyMs: outcome.latencyMs, outcome: { status: 200, body } });
      return { status: 200, body, replayed: false };
    } catch (error) {
      if (!(error instanceof BrokerError)) throw error;
      const upstreamStatus = typeof error.details?.upstream_status === "number" ? error.details.upstream_status : null;
      const details = { ...error.details, invocation_id: attempt.invocationId };
      const failure = new BrokerError(error.code, error.message, details, { status: error.status });
      const outcome: StoredOutcome = { status: failure.status, body: envelopeOf(failure) };
      await recorder.record({ ...attempt, status: "failed", errorCode: error.code, upstreamStatus, latencyMs: null, outcome });
      throw failure;
    }
  }

  async function run(attempt: Attempt, body: ExecuteBody): Promise<ExecuteResponse> {
    const { caller } = attempt;
    const args = body.arguments;
    let entry: CatalogueTool;
    let handle: CredentialHandle;
    try {
      entry = deps.toolCatalogue.resolve(body.tool_name);
      attempt.provider = entry.provider.id;
      deps.toolCatalogue.validateArguments(entry, args);
      handle = await deps.credentialResolution.resolve(entry, caller.tenantId, caller.env, body);
    } catch (error) {
      if (error instanceof BrokerError) return reject(attempt, error, "rejected");
      throw error;
    }

    const policy = await deps.policies.current(caller.tenantId, caller.env);
    const decision = policy.evaluate({ toolName: entry.tool.name, risk: entry.tool.risk, agentAppId: caller.agentAppId, arguments: args });
    if (decision.effect === "deny") {
      return reject(attempt, new BrokerError("policy_denied", `policy rule "${decision.rule_id}" denies this call`, { rule_id: decision.rule_id }), "denied");
    }
    if (decision.effect === "require_approval") {
      if (!body.approval_id) return requestApproval(attempt, entry, args, decision.rule_id);
      try {
        const approval = await deps.approvalGate.consumeFor(caller, body.approval_id, attempt);
        // The approved call runs as the invocation that asked for it.
        Object.assign(attempt, { invocationId: approval.invocation_id, existing: true, approvalId: approval.id });
      } catch (error) {
        if (error instanceof BrokerError) return reject(attempt, error, error.code === "policy_denied" ? "denied" : "rejected");
        throw error;
      }
    }
    return perform(attempt, entry, handle, args);
  }

  async function requestApproval(attempt: Attempt, entry: CatalogueTool, args: Record<string, unknown>, ruleId: string | null): Promise<never> {
    const { caller, invocationId } = attempt;
    const argumentsSealed = await recorder.sealArguments(caller.tenantId, invocationId, args);
    const approvalId = randomUUID();
    let expiresAt = "";
    await recorder.record(
      { ...attempt, approvalId, status: "awaiting_approval", errorCode: "approval_required", upstreamStatus: null, latencyMs: null, outcome: undefined },
      {
        argumentsSealed,
        extra: async (trx) => {
          const approval = await deps.approvals.createIn(trx, {
            approvalId,
            tenantId: caller.tenantId,
            env: caller.env,
            agentAppId: caller.agentAppId,
            invocationId,
            toolName: entry.tool.name,
            provider: entry.provider.id,
            connectionId: attempt.connectionId,
            secretItemId: attempt.secretItemId,
            argumentsFingerprint: attempt.argumentsFingerprint,
            argumentsRedacted: attempt.argumentsRedacted,
            ruleId,
          });
          expiresAt = approval.expires_at;
        },
      },
    );
    throw new BrokerError("approval_required", `${entry.tool.name} needs a human approval first`, { approval_id: approvalId, invocation_id: invocationId, expires_at: expiresAt });
  }

  return {
    async execute(caller: Caller, body: ExecuteBody): Promise<ExecuteResponse> {
      const invocationId = uuidv7();
      const scope = body.idempotency_key ? { tenantId: caller.tenantId, env: caller.env, agentAppId: caller.agentAppId, key: body.idempotency_key } : undefined;
      if (scope) {
        // agent_app_id is part of the scope, not of the request: a control key naming the agent app
        // and that app's broker JWT (which omits it) send the same request.
        const requestFingerprint = fingerprint({ ...body, idempotency_key: undefined, agent_app_id: undefined });
        const claim = await deps.idempotency.claim(scope, requestFingerprint, invocationId);
        if (claim.kind === "replay") return replay(caller.tenantId, claim.invocationId);
      }
      const attempt: Attempt = {
        caller,
        invocationId,
        toolName: body.tool_name,
        provider: null,
        connectionId: body.connected_account_id ?? null,
        secretItemId: body.secret_item_id ?? null,
        argumentsRedacted: redactArguments(body.arguments),
        argumentsFingerprint: fingerprint(body.arguments),
        approvalId: body.approval_id ?? null,
        idempotency: scope,
        existing: false,
      };
      try {
        return await run(attempt, body);
      } catch (error) {
        // Only calls that may have reached the upstream keep their outcome; the rest (refused before
        // execution, or failed before sending: vault, dead connection) are forgotten, so the key can be retried.
        const mayHaveReachedUpstream = attempt.began && error instanceof BrokerError && error.code === "upstream_error";
        if (scope && !mayHaveReachedUpstream) await deps.idempotency.release(scope);
        throw error;
      }
    },
    replay,
    perform,
  };
}

export type ExecuteService = ReturnType<typeof createExecuteService>;
