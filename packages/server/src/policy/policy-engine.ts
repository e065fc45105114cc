/**
 * Evaluates a compiled policy: first matching rule wins; otherwise the tool's risk decides.
 *
 * A rule whose conditions are undecided (see policy-conditions) may or may not match, so the
 * decision could be its effect or whatever the rules after it decide. The engine takes the most
 * restrictive of those possible outcomes (deny, then require_approval, then allow): a value too
 * long to match can make a decision stricter, never looser, whichever effect the rule has.
 */
import type { ToolRisk } from "../providers/provider-types.js";
import { compileCondition, isWithin, type Truth } from "./policy-conditions.js";
import type { PolicyEffect, PolicyRule, RuleApproval } from "./policy-document.js";
import { globToRegExp } from "./tool-glob.js";

export type PolicyDecision = {
  effect: PolicyEffect;
  rule_id: string | null;
  reason: "rule" | "default_low_risk" | "default_high_risk";
  /** The deciding rule's approval block, when it requires an approval and has one. */
  approval?: RuleApproval | undefined;
  /** The deciding deny rule's `reason`, which its refusal says to the caller (policy/policy-denial.ts). */
  denialReason?: string | undefined;
};
/** `endUserId` is the end user the call acts for, null for none: required so no caller can forget it and slip past an `end_users` rule. */
export type PolicyRequest = { toolName: string; risk: ToolRisk; agentAppId: string; endUserId: string | null; arguments: unknown };
/** A call described without its arguments: what a tool listing knows before any call is made. */
export type PolicyOutlookRequest = Omit<PolicyRequest, "arguments">;
export type CompiledPolicy = {
  version: number;
  evaluate(request: PolicyRequest): PolicyDecision;
  /** Every effect some arguments could get: only `deny` means no call of this tool can pass. */
  possibleEffects(request: PolicyOutlookRequest): Set<PolicyEffect>;
};

/** The argument pointers a tool's vendor compares case-insensitively (ToolDefinition.caseInsensitiveArguments). */
export type CaseInsensitiveArguments = (toolName: string) => readonly string[];

const STRICTNESS: Record<PolicyEffect, number> = { allow: 0, require_approval: 1, deny: 2 };

/** End user ids are the customer's own and opaque: compared exactly, unlike agent app UUIDs. */
function compileEndUsers(endUsers: PolicyRule["end_users"]): ((endUserId: string | null) => boolean) | undefined {
  if (endUsers === undefined) return undefined;
  if (endUsers === "any") return (endUserId) => endUserId !== null;
  if (endUsers === "none") return (endUserId) => endUserId === null;
  const ids = new Set(endUsers);
  return (endUserId) => endUserId !== null && ids.has(endUserId);
}

function compileRule(rule: PolicyRule) {
  const tools = rule.tools?.map(globToRegExp);
  const agentApps = rule.agent_apps ? new Set(rule.agent_apps.map((id) => id.toLowerCase())) : undefined;
  const endUsers = compileEndUsers(rule.end_users);
  const conditions = (rule.conditions ?? []).map(compileCondition);
  const appliesTo = (request: PolicyOutlookRequest) =>
    (!tools || tools.some((t) => t.test(request.toolName))) &&
    (!agentApps || agentApps.has(request.agentAppId.toLowerCase())) &&
    (!endUsers || endUsers(request.endUserId));
  return {
    rule,
    appliesTo,
    hasConditions: conditions.length > 0,
    matches(request: PolicyRequest, caseInsensitive: readonly string[]): Truth {
      if (!appliesTo(request)) return "fails";
      let result: Truth = "holds";
      for (const condition of conditions) {
        const outcome = condition.evaluate(request.arguments, isWithin(condition.pointer, caseInsensitive));
        if (outcome === "fails") return "fails";
        if (outcome === "undecided") result = "undecided";
      }
      return result;
    },
  };
}

const riskDefault = (risk: ToolRisk): PolicyDecision =>
  risk === "high" ? { effect: "require_approval", rule_id: null, reason: "default_high_risk" } : { effect: "allow", rule_id: null, reason: "default_low_risk" };

export function compilePolicy(version: number, rules: PolicyRule[], caseInsensitiveArguments: CaseInsensitiveArguments = () => []): CompiledPolicy {
  const compiled = rules.map(compileRule);
  return {
    version,
    evaluate(request) {
      const caseInsensitive = caseInsensitiveArguments(request.toolName);
      let decision: PolicyDecision | undefined;
      for (const entry of compiled) {
        const match = entry.matches(request, caseInsensitive);
        if (match === "fails") continue;
        const candidate: PolicyDecision = { effect: entry.rule.effect, rule_id: entry.rule.id, reason: "rule", approval: entry.rule.approval, denialReason: entry.rule.reason };
        decision = stricter(decision, candidate);
        if (match === "holds" || decision.effect === "deny") return decision;
      }
      return stricter(decision, riskDefault(request.risk));
    },
    possibleEffects(request) {
      const effects = new Set<PolicyEffect>();
      for (const entry of compiled) {
        if (!entry.appliesTo(request)) continue;
        effects.add(entry.rule.effect);
        // A rule without conditions matches every call that reaches it: nothing after it counts.
        if (!entry.hasConditions) return effects;
      }
      return effects.add(riskDefault(request.risk).effect);
    },
  };
}

/** The more restrictive decision; the earlier one on a tie. */
const stricter = (earlier: PolicyDecision | undefined, later: PolicyDecision): PolicyDecision =>
  earlier && STRICTNESS[earlier.effect] >= STRICTNESS[later.effect] ? earlier : later;
