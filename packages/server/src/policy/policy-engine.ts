/** Evaluates a compiled policy: first matching rule wins; otherwise the tool's risk decides. */
import type { ToolRisk } from "../providers/provider-types.js";
import { compileCondition, globToRegExp, type PolicyEffect, type PolicyRule } from "./policy-document.js";

export type PolicyDecision = { effect: PolicyEffect; rule_id: string | null; reason: "rule" | "default_low_risk" | "default_high_risk" };
export type PolicyRequest = { toolName: string; risk: ToolRisk; agentAppId: string; arguments: unknown };
export type CompiledPolicy = { version: number; evaluate(request: PolicyRequest): PolicyDecision };

export function compilePolicy(version: number, rules: PolicyRule[]): CompiledPolicy {
  const compiled = rules.map((rule) => {
    const tools = rule.tools?.map(globToRegExp);
    const agentApps = rule.agent_apps ? new Set(rule.agent_apps.map((id) => id.toLowerCase())) : undefined;
    const conditions = (rule.conditions ?? []).map(compileCondition);
    return {
      rule,
      matches: (request: PolicyRequest) =>
        (!tools || tools.some((t) => t.test(request.toolName))) &&
        (!agentApps || agentApps.has(request.agentAppId.toLowerCase())) &&
        conditions.every((holds) => holds(request.arguments)),
    };
  });
  return {
    version,
    evaluate(request) {
      const hit = compiled.find((entry) => entry.matches(request));
      if (hit) return { effect: hit.rule.effect, rule_id: hit.rule.id, reason: "rule" };
      return request.risk === "high"
        ? { effect: "require_approval", rule_id: null, reason: "default_high_risk" }
        : { effect: "allow", rule_id: null, reason: "default_low_risk" };
    },
  };
}
