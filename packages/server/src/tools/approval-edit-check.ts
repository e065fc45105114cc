/**
 * An approver's edit of a waiting call, checked as if the agent had sent it: the arguments must
 * satisfy the tool's input schema, and the current policy must still send the edited call to the
 * same rule for approval. An edit can neither turn a call policy denies into an allowed one nor
 * move it to a rule with other approvers (or none). What the edit changed is computed here, once,
 * from the real requested and edited arguments (redacted copies would hide an edit of a
 * credential-like field: both values redact alike). It lives in tools/ because it needs the
 * catalogue, the policy and the invocation's seals; the approval service gets it as a dependency.
 */
import type { Approval } from "../approvals/approval.js";
import type { CheckedEdit } from "../approvals/approval-voting.js";
import { shownChanges } from "../approvals/argument-changes.js";
import type { ScopedTools } from "../catalogue/tool-catalogue.js";
import { BrokerError } from "../errors.js";
import type { InvocationReader } from "../invocations/invocation-reader.js";
import type { InvocationSeals } from "../invocations/invocation-seals.js";
import type { PolicyService } from "../policy/policy-service.js";
import { deniedByRule } from "../policy/policy-denial.js";
import { fingerprint } from "../shared/canonical-json.js";
import { redactArguments } from "./scrub.js";

type EditCheckDeps = {
  catalogue: ScopedTools;
  policies: Pick<PolicyService, "current">;
  seals: Pick<InvocationSeals, "sealEditedArguments">;
  /** The exact arguments the agent sent (sealed with the waiting invocation). */
  requestedArguments: InvocationReader["sealedArgumentsOf"];
};

export function createApprovalEditCheck({ catalogue, policies, seals, requestedArguments }: EditCheckDeps) {
  return async function checkEdit(approval: Approval, args: Record<string, unknown>): Promise<CheckedEdit> {
    const { tools } = await catalogue.view({ tenantId: approval.tenantId, env: approval.env });
    if (!tools.has(approval.toolName)) {
      throw new BrokerError("approval_edit_refused", `${approval.toolName} is no longer in the catalogue; the call cannot be edited`, { reason: "tool_unavailable" });
    }
    const entry = tools.resolve(approval.toolName);
    tools.validateArguments(entry, args);
    const policy = await policies.current(approval.tenantId, approval.env);
    const decision = policy.evaluate({ toolName: entry.tool.name, risk: entry.tool.risk, agentAppId: approval.agentAppId, endUserId: approval.endUserId, arguments: args });
    if (decision.effect === "deny") {
      throw new BrokerError("approval_edit_refused", deniedByRule(decision, "the edited call"), { reason: "policy_denied", rule_id: decision.rule_id });
    }
    // The edited call must still need this approval, under the rule that asked for it: an edit that
    // policy would allow without approval, or send to another rule, escapes the rule's approvers.
    if (decision.effect !== "require_approval" || decision.rule_id !== approval.ruleId) {
      throw new BrokerError("approval_edit_refused", "the edited call is not decided by the rule that asked for this approval", {
        reason: "rule_changed",
        rule_id: approval.ruleId,
        edited_rule_id: decision.rule_id,
        edited_effect: decision.effect,
      });
    }
    const requested = await requestedArguments(approval.tenantId, approval.invocationId);
    const argumentsRedacted = redactArguments(args);
    return {
      argumentsSealed: await seals.sealEditedArguments(approval.tenantId, approval.invocationId, args),
      argumentsRedacted,
      argumentsFingerprint: fingerprint(args),
      changes: shownChanges(requested, args, redactArguments(requested), argumentsRedacted),
    };
  };
}
