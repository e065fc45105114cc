/**
 * Checks that an approval authorises exactly this call before it runs, and consumes it once.
 */
import type { ApprovalRow, ApprovalService } from "../approvals/approval-service.js";
import { BrokerError } from "../errors.js";
import type { Caller } from "./invocation-recorder.js";

export type CallIdentity = { toolName: string; connectionId: string | null; secretItemId: string | null; argumentsFingerprint: string };

const mismatch = (what: string, message: string) => new BrokerError("approval_mismatch", message, { mismatch: what });

/** The approval's state, as the caller must hear it; returns only when it is approved and live. */
export function assertApprovedAndLive(approval: ApprovalRow, isExpired: boolean) {
  const details = { approval_id: approval.id, invocation_id: approval.invocation_id };
  switch (approval.status) {
    case "pending":
      if (isExpired) throw new BrokerError("approval_expired", "the approval expired before anyone decided", { ...details, expires_at: approval.expires_at });
      throw new BrokerError("approval_pending", "the approval is still waiting for a decision", { ...details, expires_at: approval.expires_at });
    case "denied":
      throw new BrokerError("policy_denied", "an operator denied this call", { ...details, reason: approval.reason });
    case "expired":
      throw new BrokerError("approval_expired", "the approval expired", details);
    case "consumed":
      throw new BrokerError("approval_already_used", "the approval was already used for one call", details);
    case "approved":
      if (isExpired) throw new BrokerError("approval_expired", "the approval expired before it was used", { ...details, expires_at: approval.expires_at });
  }
}

export function createApprovalGate({ approvals }: { approvals: Pick<ApprovalService, "get" | "consume" | "isExpired"> }) {
  return {
    /** For a re-execute carrying `approval_id`: the same tenant, env, agent app, tool, handle and arguments. */
    async consumeFor(caller: Caller, approvalId: string, call: CallIdentity): Promise<ApprovalRow> {
      const approval = await approvals.get(caller.tenantId, approvalId);
      if (approval.env !== caller.env) throw mismatch("env", `the approval is for env "${approval.env}"`);
      if (approval.agent_app_id !== caller.agentAppId) throw mismatch("agent_app", "the approval was requested by another agent app");
      if (approval.tool_name !== call.toolName) throw mismatch("tool", `the approval is for ${approval.tool_name}, not ${call.toolName}`);
      if (approval.connection_id !== call.connectionId || approval.secret_item_id !== call.secretItemId) {
        throw mismatch("credential", "the approval is for another connected account or secret item");
      }
      if (approval.arguments_fingerprint !== call.argumentsFingerprint) throw mismatch("arguments", "the approval is for different arguments");
      assertApprovedAndLive(approval, approvals.isExpired(approval));
      if (!(await approvals.consume(approval.id))) {
        throw new BrokerError("approval_already_used", "the approval was already used for one call", { approval_id: approval.id });
      }
      return approval;
    },
  };
}

export type ApprovalGate = ReturnType<typeof createApprovalGate>;
