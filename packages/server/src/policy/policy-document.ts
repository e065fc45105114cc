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

const GroupName = Type.String({ pattern: "^[A-Za-z0-9_.-]{1,64}$", description: "A group of members (PATCH /v1/members/{id} `groups`)" });

export const APPROVAL_CHANNELS = ["slack", "email"] as const;
export const MAX_APPROVAL_TTL_SECONDS = 30 * 86400;

const RuleApproval = Type.Object(
  {
    approvers: Type.Optional(
      Type.Union(
        [
          Type.Object(
            { count: Type.Integer({ minimum: 1, maximum: 20 }), of: Type.Union([Type.Literal("admins"), Type.Object({ group: GroupName }, { additionalProperties: false })]) },
            { additionalProperties: false, description: "`count` distinct members among the tenant's admins, or among the members of a group" },
          ),
          Type.Object({ all_of: Type.Array(Uuid, { minItems: 1, maxItems: 20, uniqueItems: true }) }, { additionalProperties: false, description: "Every listed member (member ids from GET /v1/members)" }),
          Type.Literal("end_user", { description: "The end user the call acts for, through a one-time hosted page; calls acting for no end user go to one admin" }),
        ],
        { description: "Who must approve. One deny ends the approval. Default: one admin." },
      ),
    ),
    requester_may_approve: Type.Optional(Type.Boolean({ description: "Whether the member who created the calling agent app may approve its calls. Default true." })),
    edits: Type.Optional(StringEnum(["allowed", "forbidden"] as const, { description: "Whether approvers may change the arguments before approving. Default allowed." })),
    ttl_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: MAX_APPROVAL_TTL_SECONDS, description: "How long the approval may wait and then be used. Default BROKER_APPROVAL_TTL_SECONDS." })),
    remind_before_seconds: Type.Optional(Type.Integer({ minimum: 30, maximum: MAX_APPROVAL_TTL_SECONDS, description: "Send a reminder on the same channels this long before expiry" })),
    channels: Type.Optional(
      Type.Array(StringEnum(APPROVAL_CHANNELS), { maxItems: 2, uniqueItems: true, description: "Where the approval is sent besides the console. Default: the tenant's channels (PUT /v1/approval-settings)." }),
    ),
  },
  { additionalProperties: false, description: "Only on require_approval rules: who decides, whether they may edit, expiry, reminders and channels" },
);

export const PolicyRule = Type.Object(
  {
    id: Type.String({ pattern: "^[A-Za-z0-9_.:-]{1,100}$" }),
    description: Type.Optional(Type.String({ maxLength: 500, description: "For the tenant's own people: never shown to callers" })),
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description:
          "Only on deny rules: what the caller is told when this rule refuses a call, in the message and `details.reason` of 403 policy_denied (over MCP, in the text the model reads)",
      }),
    ),
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
    approval: Type.Optional(RuleApproval),
  },
  { additionalProperties: false },
);

export const PolicyRules = Type.Array(PolicyRule, { maxItems: 200 });
export type PolicyRule = Static<typeof PolicyRule>;
export type PolicyCondition = Static<typeof Condition>;
export type RuleApproval = Static<typeof RuleApproval>;

const OPERATORS = ["equals", "one_of", "prefix", "regex"] as const;

const fault = (path: string, message: string) =>
  new BrokerError("unprocessable", `invalid policy: ${path} ${message}`, { fields: [{ field: path, message }] });

/** Checks what a schema cannot: unique ids, one operator per condition, RE2 regexes within size, known tools. */
/** `knownMembers`: the tenant's member ids, which `all_of` approvers must name (an unknown one could never approve). */
export function validateRules(rules: PolicyRule[], knownTools: string[], knownMembers?: ReadonlySet<string>) {
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
    if (rule.approval && rule.effect !== "require_approval") throw fault(`${at}/approval`, "is only allowed on require_approval rules");
    if (rule.reason !== undefined && rule.effect !== "deny") throw fault(`${at}/reason`, "is only allowed on deny rules");
    const { ttl_seconds: ttl, remind_before_seconds: remind } = rule.approval ?? {};
    if (ttl !== undefined && remind !== undefined && remind >= ttl) throw fault(`${at}/approval/remind_before_seconds`, "must be less than ttl_seconds");
    const approvers = rule.approval?.approvers;
    if (knownMembers && approvers && typeof approvers === "object" && "all_of" in approvers) {
      approvers.all_of.forEach((id, j) => {
        if (!knownMembers.has(id.toLowerCase())) throw fault(`${at}/approval/approvers/all_of/${j}`, `is not a member of this tenant ("${id}"; GET /v1/members)`);
      });
    }
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
