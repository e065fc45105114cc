/**
 * How a deny rule's refusal reads: the rule's id and, when the rule has one, its `reason`, in the
 * message (which is what a model reads over MCP) and in `details.reason`. The rule's description
 * is for the tenant's people and never leaves.
 */
import { BrokerError } from "../errors.js";
import type { PolicyDecision } from "./policy-engine.js";

/** "policy rule "no-prod-deletes" denies this call: production repositories stay" (`what`: this call, the edited call). */
export function deniedByRule(decision: Pick<PolicyDecision, "rule_id" | "denialReason">, what = "this call"): string {
  return `policy rule "${decision.rule_id}" denies ${what}${decision.denialReason ? `: ${decision.denialReason}` : ""}`;
}

/** 403 policy_denied for a deny decision, with `details.rule_id` (and `details.reason`, the rule's reason). */
export function policyDenied(decision: Pick<PolicyDecision, "rule_id" | "denialReason">, details: Record<string, unknown> = {}): BrokerError {
  return new BrokerError("policy_denied", deniedByRule(decision), { rule_id: decision.rule_id, ...(decision.denialReason ? { reason: decision.denialReason } : {}), ...details });
}
