/**
 * The tenant policy document: an ordered list of rules, first match wins. Validated on write so
 * a bad document never reaches the execute path; compiled once into matchers.
 */
import { Type, type Static } from "@sinclair/typebox";
import { BrokerError } from "../errors.js";
import { EndUserId, StringEnum, Uuid } from "../http/schemas.js";
import { compilePolicyRegex, MAX_POLICY_PROGRAM_SIZE, MAX_REGEX_PROGRAM_SIZE, MAX_REGEX_VALUE_LENGTH } from "../shared/policy-regex.js";
import { globToRegExp } from "./tool-glob.js";

export const POLICY_EFFECTS = ["allow", "deny", "require_approval"] as const;
export type PolicyEffect = (typeof POLICY_EFFECTS)[number];

/** `end_users` as a word rather than a list: a call acting for some end user, or for none. */
export const END_USER_SCOPES = ["any", "none"] as const;

const Condition = Type.Object(
  {
    pointer: Type.String({ pattern: "^(/([^~]|~[01])*)*$", maxLength: 500, description: "JSON pointer into `arguments`, e.g. /repo" }),
    equals: Type.Optional(Type.Unknown()),
    one_of: Type.Optional(Type.Array(Type.Unknown(), { minItems: 1, maxItems: 200 })),
    prefix: Type.Optional(Type.String({ maxLength: 500 })),
    regex: Type.Optional(
      Type.String({
        maxLength: 500,
        description:
          "RE2 regular expression (https://github.com/google/re2/wiki/Syntax; no backreferences or lookaround), searched for in string values, in time linear in the value. " +
          `A pattern may compile to at most ${MAX_REGEX_PROGRAM_SIZE} RE2 instructions, all patterns of a document to ${MAX_POLICY_PROGRAM_SIZE}. ` +
          `On a string longer than ${MAX_REGEX_VALUE_LENGTH} characters the condition is undecided, and an undecided rule can only make the decision stricter: ` +
          "the result is the most restrictive (deny, then require_approval, then allow) of the outcomes the undecided rules leave possible.",
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "Exactly one of equals, one_of, prefix or regex. On an argument the tool lists in `case_insensitive_arguments` (GET /v1/tools), or inside one, " +
      "the comparison ignores case, as the vendor does: strings are lower-cased on both sides, and regex runs case-insensitively. Elsewhere it is exact.",
  },
);

export const PolicyRule = Type.Object(
  {
    id: Type.String({ pattern: "^[A-Za-z0-9_.:-]{1,100}$" }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    effect: StringEnum(POLICY_EFFECTS),
    tools: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100, description: "Tool names or globs like scm.*; default all tools" })),
    agent_apps: Type.Optional(Type.Array(Uuid, { minItems: 1, maxItems: 100, description: "Agent app ids; default all" })),
    end_users: Type.Optional(
      Type.Union([Type.Array(EndUserId, { minItems: 1, maxItems: 100 }), StringEnum(END_USER_SCOPES)], {
        description:
          "Which end users the rule is for: a list of end user ids (matches only calls acting for one of them, compared exactly), " +
          '"any" (calls acting for some end user) or "none" (calls acting for no end user). Default: every call, with or without an end user.',
      }),
    ),
    conditions: Type.Optional(Type.Array(Condition, { maxItems: 20, description: "All must hold" })),
  },
  { additionalProperties: false },
);

export const PolicyRules = Type.Array(PolicyRule, { maxItems: 200 });
export type PolicyRule = Static<typeof PolicyRule>;
export type PolicyCondition = Static<typeof Condition>;

const OPERATORS = ["equals", "one_of", "prefix", "regex"] as const;

const fault = (path: string, message: string) =>
  new BrokerError("unprocessable", `invalid policy: ${path} ${message}`, { fields: [{ field: path, message }] });

/** Checks what a schema cannot: unique ids, one operator per condition, RE2 regexes within size, known tools. */
export function validateRules(rules: PolicyRule[], knownTools: string[]) {
  const ids = new Set<string>();
  let programSize = 0;
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
      if (condition.regex === undefined) return;
      const compiled = compilePolicyRegex(condition.regex);
      if ("error" in compiled) throw fault(`${at}/conditions/${j}/regex`, compiled.error);
      programSize += compiled.programSize;
      if (programSize > MAX_POLICY_PROGRAM_SIZE) {
        throw fault(`${at}/conditions/${j}/regex`, `brings the document's regexes to ${programSize} RE2 instructions, over the limit of ${MAX_POLICY_PROGRAM_SIZE}`);
      }
    });
  });
}
