/**
 * The approval state machine's rules, as pure functions: what an approval's state means to a
 * caller, and whether it authorises exactly this call. An approval is requested (pending), decided
 * (approved or denied), expires unused, or is consumed by exactly one call.
 */
import { BrokerError } from "../errors.js";
import type { Approval, ApprovalStatus } from "./approval.js";

/** Everything an approval pins down: the same tenant, env, agent app, end user, tool, handle and arguments. */
export type ExactCall = {
  tenantId: string;
  env: string;
  agentAppId: string;
  endUserId: string | null;
  toolName: string;
  connectionId: string | null;
  secretItemId: string | null;
  argumentsFingerprint: string;
};

export const isExpired = (approval: Pick<Approval, "expiresAt">, now: Date) => approval.expiresAt <= now.toISOString();

/** The state an operator or caller sees: pending or approved past their expiry read as expired. */
export function visibleStatus(approval: Approval, now: Date): ApprovalStatus {
  const lapsed = (approval.status === "pending" || approval.status === "approved") && isExpired(approval, now);
  return lapsed ? "expired" : approval.status;
}

/** The approver's own words are the message's end: over MCP the message is what the model reads. */
const deniedByApprover = (reason: string | null) => `an approver denied this call: ${reason ?? "(no reason given)"}`;

/** Returns only when the approval may be used now; otherwise the error the caller must hear. */
export function assertUsable(approval: Approval, now: Date): void {
  const details = { approval_id: approval.id, invocation_id: approval.invocationId };
  const expired = isExpired(approval, now);
  switch (approval.status) {
    case "pending":
      if (expired) throw new BrokerError("approval_expired", "the approval expired before anyone decided", { ...details, expires_at: approval.expiresAt });
      throw new BrokerError("approval_pending", "the approval is still waiting for a decision", { ...details, expires_at: approval.expiresAt });
    case "denied":
      throw new BrokerError("policy_denied", deniedByApprover(approval.reason), { ...details, reason: approval.reason });
    case "expired":
      throw new BrokerError("approval_expired", "the approval expired", details);
    case "consumed":
      throw new BrokerError("approval_already_used", "the approval was already used for one call", details);
    case "approved":
      if (expired) throw new BrokerError("approval_expired", "the approval expired before it was used", { ...details, expires_at: approval.expiresAt });
  }
}

/** The first way this call differs from the one that was approved, as `approval_mismatch`. */
export function mismatchOf(approval: Approval, call: ExactCall): BrokerError | undefined {
  const mismatch = (what: string, message: string) => new BrokerError("approval_mismatch", message, { mismatch: what });
  if (approval.env !== call.env) return mismatch("env", `the approval is for env "${approval.env}"`);
  if (approval.agentAppId !== call.agentAppId) return mismatch("agent_app", "the approval was requested by another agent app");
  if (approval.endUserId !== call.endUserId) return mismatch("end_user", "the approval was requested for another end user");
  if (approval.toolName !== call.toolName) return mismatch("tool", `the approval is for ${approval.toolName}, not ${call.toolName}`);
  if (approval.connectionId !== call.connectionId || approval.secretItemId !== call.secretItemId) {
    return mismatch("credential", "the approval is for another connected account or secret item");
  }
  // The call as the agent asked for it, or as an approver edited it: either names the approved call.
  const approvedArguments = call.argumentsFingerprint === approval.argumentsFingerprint || call.argumentsFingerprint === approval.edit?.argumentsFingerprint;
  if (!approvedArguments) return mismatch("arguments", "the approval is for different arguments");
  return undefined;
}
