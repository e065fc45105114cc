/**
 * The draft policy the editor holds: the rule list the form and the JSON view both edit, the
 * server's field faults located by JSON path, and the small list operations of the form.
 */
import type { FieldFault } from "../api/errors";
import type { PolicyRules } from "../api/types";

export type Rule = PolicyRules[number];
export type Condition = NonNullable<Rule["conditions"]>[number];
export type RuleApproval = NonNullable<Rule["approval"]>;
export type Effect = Rule["effect"];

export const EFFECT_LABELS: Record<Effect, string> = { allow: "Allow", require_approval: "Require approval", deny: "Deny" };

export const prettyRules = (rules: PolicyRules) => JSON.stringify(rules, null, 2);

/** The rules in `text`, or why they cannot be edited in the form (not JSON, not a list of objects). */
export function parseRules(text: string): { rules: PolicyRules } | { error: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { error: `The rules are not valid JSON: ${(error as Error).message}` };
  }
  if (!Array.isArray(parsed)) return { error: "The rules must be a JSON array of rule objects." };
  const bad = parsed.findIndex((rule) => typeof rule !== "object" || rule === null || Array.isArray(rule));
  if (bad >= 0) return { error: `Rule ${bad + 1} is not a JSON object.` };
  return { rules: parsed as PolicyRules };
}

/** An id no rule of the list has yet. */
export function freshRuleId(rules: PolicyRules): string {
  const taken = new Set(rules.map((rule) => rule.id));
  let n = rules.length + 1;
  while (taken.has(`rule-${n}`)) n++;
  return `rule-${n}`;
}

export function moveRule(rules: PolicyRules, index: number, step: -1 | 1): PolicyRules {
  const target = index + step;
  if (target < 0 || target >= rules.length) return rules;
  const next = [...rules];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

/** `rule` with `key` set, or removed when `value` is undefined (the server refuses empty lists). */
export function withField<K extends keyof Rule>(rule: Rule, key: K, value: Rule[K] | undefined): Rule {
  const next = { ...rule };
  if (value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

/** The faults at `path` or below it. */
export const faultsUnder = (faults: readonly FieldFault[], path: string) => faults.filter((fault) => fault.field === path || fault.field.startsWith(`${path}/`));

/** Paths a rule's form shows next to a field; a fault elsewhere in the rule is shown at the top of its card. */
export const RULE_FIELDS = ["id", "description", "effect", "tools", "agent_apps", "end_users", "conditions", "approval"] as const;

export function unplacedRuleFaults(faults: readonly FieldFault[], index: number) {
  const at = `/rules/${index}`;
  return faultsUnder(faults, at).filter((fault) => !RULE_FIELDS.some((field) => fault.field === `${at}/${field}` || fault.field.startsWith(`${at}/${field}/`)));
}

/** Faults of the document that belong to no rule. */
export const documentFaults = (faults: readonly FieldFault[]) => faults.filter((fault) => !/^\/rules\/\d+(\/|$)/.test(fault.field));

/** A tool glob as the broker reads it: `*` any run of characters, `?` one, everything else itself. */
export function globMatcher(glob: string): RegExp {
  const body = [...glob].map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("");
  return new RegExp(`^${body}$`);
}
