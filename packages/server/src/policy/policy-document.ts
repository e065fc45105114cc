/**
 * The tenant policy document: an ordered list of rules, first match wins. Validated on write so
 * a bad document never reaches the execute path; compiled once into matchers.
 */
import { Type, type Static } from "@sinclair/typebox";
import { BrokerError } from "../errors.js";
import { StringEnum, Uuid } from "../http/schemas.js";
import { canonicalJson } from "../tools/canonical.js";

export const POLICY_EFFECTS = ["allow", "deny", "require_approval"] as const;
export type PolicyEffect = (typeof POLICY_EFFECTS)[number];

const Condition = Type.Object(
  {
    pointer: Type.String({ pattern: "^(/([^~]|~[01])*)*$", maxLength: 500, description: "JSON pointer into `arguments`, e.g. /repo" }),
    equals: Type.Optional(Type.Unknown()),
    one_of: Type.Optional(Type.Array(Type.Unknown(), { minItems: 1, maxItems: 200 })),
    prefix: Type.Optional(Type.String({ maxLength: 500 })),
    regex: Type.Optional(Type.String({ maxLength: 500, description: "ECMAScript regular expression, tested against string values" })),
  },
  { additionalProperties: false, description: "Exactly one of equals, one_of, prefix or regex" },
);

export const PolicyRule = Type.Object(
  {
    id: Type.String({ pattern: "^[A-Za-z0-9_.:-]{1,100}$" }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    effect: StringEnum(POLICY_EFFECTS),
    tools: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100, description: "Tool names or globs like scm.*; default all tools" })),
    agent_apps: Type.Optional(Type.Array(Uuid, { minItems: 1, maxItems: 100, description: "Agent app ids; default all" })),
    conditions: Type.Optional(Type.Array(Condition, { maxItems: 20, description: "All must hold" })),
  },
  { additionalProperties: false },
);

export const PolicyRules = Type.Array(PolicyRule, { maxItems: 200 });
export type PolicyRule = Static<typeof PolicyRule>;
type Condition = Static<typeof Condition>;

const OPERATORS = ["equals", "one_of", "prefix", "regex"] as const;
/** A quantified group that itself contains a quantifier: the classic catastrophic-backtracking shape. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*(?:[+*]|\{\d+,?\d*\})/;

export function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${escaped}$`);
}

const fault = (path: string, message: string) =>
  new BrokerError("unprocessable", `invalid policy: ${path} ${message}`, { fields: [{ field: path, message }] });

/** Checks what a schema cannot: unique ids, one operator per condition, valid regexes, known tools. */
export function validateRules(rules: PolicyRule[], knownTools: string[]) {
  const ids = new Set<string>();
  rules.forEach((rule, i) => {
    const at = `/rules/${i}`;
    if (ids.has(rule.id)) throw fault(`${at}/id`, `duplicates rule id "${rule.id}"`);
    ids.add(rule.id);
    rule.tools?.forEach((pattern, j) => {
      const matcher = globToRegExp(pattern);
      if (!knownTools.some((name) => matcher.test(name))) throw fault(`${at}/tools/${j}`, `matches no known tool ("${pattern}")`);
    });
    rule.conditions?.forEach((condition, j) => {
      const used = OPERATORS.filter((op) => condition[op] !== undefined);
      if (used.length !== 1) throw fault(`${at}/conditions/${j}`, "must have exactly one of equals, one_of, prefix, regex");
      if (condition.regex !== undefined) {
        try {
          new RegExp(condition.regex, "u");
        } catch {
          throw fault(`${at}/conditions/${j}/regex`, "is not a valid regular expression");
        }
        if (NESTED_QUANTIFIER.test(condition.regex)) {
          throw fault(`${at}/conditions/${j}/regex`, "nests quantifiers (e.g. (a+)+), which can take exponential time; rewrite it");
        }
      }
    });
  });
}

export function readPointer(document: unknown, pointer: string): unknown {
  if (pointer === "") return document;
  let current: unknown = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (current === null || typeof current !== "object" || !Object.prototype.hasOwnProperty.call(current, token)) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

const sameValue = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

export function compileCondition(condition: Condition): (args: unknown) => boolean {
  const { pointer } = condition;
  if (condition.one_of !== undefined) {
    const options = condition.one_of;
    return (args) => options.some((option) => sameValue(readPointer(args, pointer), option));
  }
  if (condition.prefix !== undefined) {
    const prefix = condition.prefix;
    return (args) => {
      const value = readPointer(args, pointer);
      return typeof value === "string" && value.startsWith(prefix);
    };
  }
  if (condition.regex !== undefined) {
    const regex = new RegExp(condition.regex, "u");
    return (args) => {
      const value = readPointer(args, pointer);
      return typeof value === "string" && regex.test(value);
    };
  }
  const expected = condition.equals;
  return (args) => sameValue(readPointer(args, pointer), expected);
}
