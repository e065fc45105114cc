/**
 * What a draft policy would change (POST /v1/policy/compare): the same calls decided by the
 * policy in force and by the draft, side by side. Without calls of the caller's own, the broker
 * picks representative ones among the tools some rule of either document reaches (any other tool
 * is decided by its risk under both): for each rule that names end users or agent apps or has
 * conditions, a call of each tool it covers that it would match (its first end user and agent
 * app, arguments built to satisfy its equals / one_of / prefix conditions), and each tool for no
 * end user and for an end user no rule names. A regex condition cannot be satisfied by
 * construction, so a rule with one gets only the plain calls.
 */
import type { ToolRisk } from "../providers/provider-types.js";
import type { CompiledPolicy, PolicyDecision } from "./policy-engine.js";
import type { PolicyCondition, PolicyRule } from "./policy-document.js";
import { globToRegExp } from "./tool-glob.js";

/** A call to decide; `agent_app_id` absent means an agent app no rule names. */
export type ComparedCall = { tool_name: string; agent_app_id?: string | undefined; end_user_id?: string | undefined; arguments: Record<string, unknown> };

/** Stands for "an agent app no rule names": the nil UUID, which no agent app id (random v4) can be. */
export const UNNAMED_AGENT_APP = "00000000-0000-0000-0000-000000000000";
/** Stands for "some end user no rule names" in representative calls. */
export const EXAMPLE_END_USER = "example-end-user";
export const MAX_COMPARED_CALLS = 1000;

type ToolRef = { name: string; risk: ToolRisk };

/** Arguments under which every equals / one_of / prefix condition holds; undefined when a regex condition (or a clash) makes that unknowable. */
export function argumentsSatisfying(conditions: readonly PolicyCondition[]): Record<string, unknown> | undefined {
  const args: Record<string, unknown> = {};
  for (const condition of conditions) {
    const value = condition.equals !== undefined ? condition.equals : condition.one_of !== undefined ? condition.one_of[0] : condition.prefix;
    if (value === undefined) return undefined;
    if (!setPointer(args, condition.pointer, value)) return undefined;
  }
  return args;
}

/** Keys that reach an object's prototype instead of a property of its own: a pointer through one is never written. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * Writes `value` at a JSON pointer, creating objects on the way; false when the path is taken, is
 * the root, or goes through a prototype key (a rule's pointer is the caller's text: written
 * naively, `/__proto__/x` would set `x` on every object of the process).
 */
function setPointer(target: Record<string, unknown>, pointer: string, value: unknown): boolean {
  const keys = pointer.split("/").slice(1).map((key) => key.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (keys.length === 0 || keys.some((key) => PROTOTYPE_KEYS.has(key))) return false;
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    if (next === undefined) node = node[key] = {} as Record<string, unknown>;
    else if (typeof next === "object" && next !== null && !Array.isArray(next)) node = next as Record<string, unknown>;
    else return false;
  }
  const last = keys.at(-1)!;
  if (Object.hasOwn(node, last)) return false;
  node[last] = value;
  return true;
}

/** Whether a rule reaches a tool by name (a rule without `tools` reaches every tool); its globs compiled once. */
const reachOf = (rule: PolicyRule) => {
  const matchers = rule.tools?.map(globToRegExp);
  return (name: string) => !matchers || matchers.some((matcher) => matcher.test(name));
};

/**
 * Representative calls for the rules of both documents, without duplicates, sorted by tool: first
 * the calls each rule with end users, agent apps or conditions would match, then every covered
 * tool for no end user and for an end user no rule names. At most MAX_COMPARED_CALLS; `truncated`
 * says the cap cut some off.
 */
export function representativeCalls(tools: readonly ToolRef[], rules: readonly PolicyRule[]): { calls: ComparedCall[]; truncated: boolean } {
  const namedEndUsers = new Set(rules.flatMap((rule) => (Array.isArray(rule.end_users) ? rule.end_users : [])));
  let someEndUser = EXAMPLE_END_USER;
  while (namedEndUsers.has(someEndUser)) someEndUser += "-x";
  const reaches = rules.map(reachOf);
  // A tool no rule of either document reaches is decided by its risk under both: it cannot change.
  const covered = tools.filter((tool) => reaches.some((reach) => reach(tool.name)));
  const calls = new Map<string, ComparedCall>();
  let truncated = false;
  const add = (call: ComparedCall) => {
    const key = JSON.stringify([call.tool_name, call.agent_app_id ?? null, call.end_user_id ?? null, call.arguments]);
    if (calls.has(key)) return;
    if (calls.size >= MAX_COMPARED_CALLS) truncated = true;
    else calls.set(key, call);
  };
  rules.forEach((rule, index) => {
    if (!rule.end_users && !rule.agent_apps && !rule.conditions?.length) return;
    const args = argumentsSatisfying(rule.conditions ?? []);
    if (!args) return;
    const endUser = rule.end_users === "none" ? undefined : Array.isArray(rule.end_users) ? rule.end_users[0] : someEndUser;
    for (const tool of covered.filter((t) => reaches[index]!(t.name))) {
      add({ tool_name: tool.name, agent_app_id: rule.agent_apps?.[0], end_user_id: endUser, arguments: args });
      if (truncated) break;
    }
  });
  for (const tool of covered) {
    add({ tool_name: tool.name, arguments: {} });
    add({ tool_name: tool.name, end_user_id: someEndUser, arguments: {} });
  }
  const ordered = [...calls.values()].map((call, index) => ({ call, index }));
  ordered.sort((a, b) => (a.call.tool_name < b.call.tool_name ? -1 : a.call.tool_name > b.call.tool_name ? 1 : a.index - b.index));
  return { calls: ordered.map(({ call }) => call), truncated };
}

const decisionView = (decision: PolicyDecision) => ({ decision: decision.effect, rule_id: decision.rule_id, reason: decision.reason });

/** Each call decided by both policies, in order; `changed` when the effect differs (the deciding rule alone may change without it). */
export function compareDecisions(calls: readonly (ComparedCall & { risk: ToolRisk })[], current: CompiledPolicy, draft: CompiledPolicy) {
  return calls.map(({ risk, ...call }) => {
    const request = { toolName: call.tool_name, risk, agentAppId: call.agent_app_id ?? UNNAMED_AGENT_APP, endUserId: call.end_user_id ?? null, arguments: call.arguments };
    const before = decisionView(current.evaluate(request));
    const after = decisionView(draft.evaluate(request));
    return { call, risk, current: before, draft: after, changed: before.decision !== after.decision };
  });
}
