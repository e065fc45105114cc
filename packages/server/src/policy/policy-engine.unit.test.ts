/**
 * The policy engine without a broker: RE2 regexes (linear time, size caps, refused syntax), the
 * undecided outcome of a regex on an over-long value or an uncompilable stored pattern, and
 * case-insensitive comparison on the arguments a tool marks, and rules scoped to end users. HTTP behaviour is in
 * policy-document.test.ts and policy-enforcement.test.ts.
 */
import { describe, expect, it } from "vitest";
import { BrokerError } from "../errors.js";
import { validateRules, type PolicyRule } from "../policy/policy-document.js";
import { compilePolicy, type PolicyRequest } from "../policy/policy-engine.js";
import { MAX_POLICY_PROGRAM_SIZE, MAX_REGEX_PROGRAM_SIZE, MAX_REGEX_VALUE_LENGTH } from "../shared/policy-regex.js";

const TOOLS = ["scm.create_issue", "scm.get_repository"];
/** Patterns that took exponential time with backtracking and slipped past the old hand-written check. */
const NESTED_QUANTIFIERS = ["^((a)+)+$", "^(a|a)+$", "^(a|aa)+$", "^(?:a|a)*$", "^((a+))+$"];
/** Backtracking explores 2^n paths on these before failing on the final "!"; 10,000 characters, the longest value matched. */
const ADVERSARIAL = `${"a".repeat(9_999)}!`;

const request = (args: Record<string, unknown>, overrides: Partial<PolicyRequest> = {}): PolicyRequest => ({
  toolName: "scm.create_issue",
  risk: "low",
  agentAppId: "00000000-0000-4000-8000-000000000001",
  endUserId: null,
  arguments: args,
  ...overrides,
});

const regexRule = (id: string, effect: PolicyRule["effect"], regex: string, pointer = "/body"): PolicyRule => ({ id, effect, conditions: [{ pointer, regex }] });

function faultOf(rules: PolicyRule[]) {
  try {
    validateRules(rules, TOOLS);
  } catch (error) {
    expect(error).toBeInstanceOf(BrokerError);
    const broker = error as BrokerError;
    expect(broker.code).toBe("unprocessable");
    return (broker.details as { fields: { field: string; message: string }[] }).fields[0]!;
  }
  throw new Error("the rules were accepted");
}

describe("policy regexes run on RE2", () => {
  it.each(NESTED_QUANTIFIERS)("accepts %s and matches a 10,000-character adversarial value in linear time", (pattern) => {
    const rules = [regexRule("nested", "deny", pattern)];
    expect(() => validateRules(rules, TOOLS)).not.toThrow();
    const policy = compilePolicy(1, rules);
    const started = performance.now();
    const decision = policy.evaluate(request({ body: ADVERSARIAL }));
    expect(performance.now() - started).toBeLessThan(500);
    expect(decision).toEqual({ effect: "allow", rule_id: null, reason: "default_low_risk" });
    expect(policy.evaluate(request({ body: "a".repeat(10_000) })).effect).toBe("deny");
  });

  it("keeps linear time when every one of many rules is adversarial", () => {
    const rules = Array.from({ length: 40 }, (_, i) => regexRule(`r${i}`, "deny", NESTED_QUANTIFIERS[i % NESTED_QUANTIFIERS.length]!));
    validateRules(rules, TOOLS);
    const started = performance.now();
    expect(compilePolicy(1, rules).evaluate(request({ body: ADVERSARIAL })).effect).toBe("allow");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it.each([
    ["a backreference", "^(a+)\\1$"],
    ["a lookahead", "^(?=admin)"],
    ["a negative lookahead", "^(?!main$)"],
    ["a lookbehind", "(?<=secret-)x"],
    ["an unclosed group", "([unclosed"],
  ])("refuses %s with the path of the condition and RE2's reason", (_name, pattern) => {
    const field = faultOf([regexRule("ok", "deny", "^a"), regexRule("bad", "deny", pattern)]);
    expect(field.field).toBe("/rules/1/conditions/0/regex");
    expect(field.message).toMatch(/not a valid RE2 regular expression/);
  });

  it("refuses a pattern over the program-size limit, and a document over the total", () => {
    const huge = faultOf([regexRule("huge", "deny", "(?:a|b.){999}x")]);
    expect(huge).toEqual({ field: "/rules/0/conditions/0/regex", message: expect.stringContaining(`limit of ${MAX_REGEX_PROGRAM_SIZE}`) });
    const big = "[a-z]{900}"; // about 900 instructions: under the per-pattern limit
    const count = Math.floor(MAX_POLICY_PROGRAM_SIZE / 900) + 1;
    const total = faultOf(Array.from({ length: count }, (_, i) => regexRule(`big${i}`, "deny", big)));
    expect(total).toEqual({ field: `/rules/${count - 1}/conditions/0/regex`, message: expect.stringContaining(`limit of ${MAX_POLICY_PROGRAM_SIZE}`) });
  });

  it("searches the value, as before: an unanchored pattern matches anywhere", () => {
    const policy = compilePolicy(1, [regexRule("secrets", "deny", "ghp_[A-Za-z0-9]{36}")]);
    expect(policy.evaluate(request({ body: `token: ghp_${"x".repeat(36)} here` })).effect).toBe("deny");
    expect(policy.evaluate(request({ body: "nothing to see" })).effect).toBe("allow");
    expect(policy.evaluate(request({ body: 42 })).effect).toBe("allow");
  });
});

describe("a regex that cannot be run is undecided, and only makes the decision stricter", () => {
  const long = `${"x".repeat(MAX_REGEX_VALUE_LENGTH)}DROP TABLE`;

  it("matches values up to the cap", () => {
    const policy = compilePolicy(1, [regexRule("sql", "deny", "DROP TABLE")]);
    expect(policy.evaluate(request({ body: `${"x".repeat(MAX_REGEX_VALUE_LENGTH - 10)}DROP TABLE` })).effect).toBe("deny");
  });

  it("a deny rule is not bypassed by a value over the cap", () => {
    const policy = compilePolicy(1, [regexRule("sql", "deny", "DROP TABLE"), { id: "rest", effect: "allow" }]);
    expect(policy.evaluate(request({ body: long }))).toEqual({ effect: "deny", rule_id: "sql", reason: "rule" });
  });

  it("a require_approval rule still requires approval", () => {
    const policy = compilePolicy(1, [regexRule("review", "require_approval", "DROP"), { id: "rest", effect: "allow" }]);
    expect(policy.evaluate(request({ body: long }))).toEqual({ effect: "require_approval", rule_id: "review", reason: "rule" });
  });

  it("an allow rule does not allow: the rules after it decide", () => {
    const policy = compilePolicy(1, [regexRule("harmless", "allow", "^[a-z ]*$"), { id: "rest", effect: "deny" }]);
    expect(policy.evaluate(request({ body: long }))).toEqual({ effect: "deny", rule_id: "rest", reason: "rule" });
    expect(policy.evaluate(request({ body: "short text" }))).toEqual({ effect: "allow", rule_id: "harmless", reason: "rule" });
  });

  it("takes the strictest outcome that remains possible, even when a later rule is stricter", () => {
    const policy = compilePolicy(1, [regexRule("review", "require_approval", "DROP"), { id: "rest", effect: "deny" }]);
    expect(policy.evaluate(request({ body: long }))).toEqual({ effect: "deny", rule_id: "rest", reason: "rule" });
    const lenient = compilePolicy(1, [regexRule("review", "require_approval", "DROP")]);
    expect(lenient.evaluate(request({ body: long }))).toEqual({ effect: "require_approval", rule_id: "review", reason: "rule" });
    expect(lenient.evaluate(request({ body: long }, { risk: "high" }))).toEqual({ effect: "require_approval", rule_id: "review", reason: "rule" });
  });

  it("a rule whose other condition fails does not apply at all", () => {
    const rule: PolicyRule = { id: "sql", effect: "deny", conditions: [{ pointer: "/body", regex: "DROP" }, { pointer: "/title", equals: "other" }] };
    expect(compilePolicy(1, [rule]).evaluate(request({ title: "t", body: long })).effect).toBe("allow");
  });

  it("a stored pattern RE2 cannot compile (written before RE2) is undecided, never an error", () => {
    const stored = [regexRule("legacy", "deny", "^(?!main$)"), { id: "rest", effect: "allow" as const }];
    expect(compilePolicy(1, stored).evaluate(request({ body: "main" }))).toEqual({ effect: "deny", rule_id: "legacy", reason: "rule" });
  });
});

describe("case-insensitive arguments", () => {
  const marked = (toolName: string) => (toolName.startsWith("scm.") ? ["/owner", "/repo", "/assignees"] : []);
  const deny = (condition: Record<string, unknown>): PolicyRule[] => [{ id: "deny", effect: "deny", conditions: [{ pointer: "/repo", ...condition }] }];
  const effectFor = (rules: PolicyRule[], args: Record<string, unknown>, toolName = "scm.get_repository") =>
    compilePolicy(1, rules, marked).evaluate(request(args, { toolName })).effect;

  it.each([
    ["equals", { equals: "hello-world" }, "HELLO-World"],
    ["one_of", { one_of: ["spoon-knife", "hello-world"] }, "Hello-World"],
    ["prefix", { prefix: "hello-" }, "HELLO-WORLD"],
    ["regex", { regex: "^hello-w" }, "Hello-World"],
    ["equals with an upper-case rule", { equals: "Hello-World" }, "hello-world"],
  ])("%s on a marked field ignores case", (_name, condition, value) => {
    expect(effectFor(deny(condition), { owner: "acme", repo: value })).toBe("deny");
    expect(effectFor(deny(condition), { owner: "acme", repo: "other" })).toBe("allow");
  });

  it("inside a marked field too: array items and whole arrays", () => {
    expect(effectFor([{ id: "d", effect: "deny", conditions: [{ pointer: "/assignees/0", equals: "octocat" }] }], { assignees: ["OctoCat"] }, "scm.create_issue")).toBe("deny");
    expect(effectFor([{ id: "d", effect: "deny", conditions: [{ pointer: "/assignees", equals: ["octocat"] }] }], { assignees: ["OCTOCAT"] }, "scm.create_issue")).toBe("deny");
  });

  it("stays exact on other fields and on tools that do not mark the field", () => {
    const title: PolicyRule[] = [{ id: "d", effect: "deny", conditions: [{ pointer: "/title", equals: "secret" }] }];
    expect(effectFor(title, { title: "SECRET" }, "scm.create_issue")).toBe("allow");
    expect(effectFor(title, { title: "secret" }, "scm.create_issue")).toBe("deny");
    expect(effectFor(deny({ equals: "hello-world" }), { repo: "Hello-World" }, "chat.post_message")).toBe("allow");
    expect(effectFor([{ id: "d", effect: "deny", conditions: [{ pointer: "/repository", equals: "x" }] }], { repository: "X" })).toBe("allow");
  });

  it("does not mark a field whose name merely starts like a marked one", () => {
    expect(effectFor([{ id: "d", effect: "deny", conditions: [{ pointer: "/repos", equals: "x" }] }], { repos: "X" })).toBe("allow");
  });
});

describe("end_users", () => {
  const decide = (rules: PolicyRule[], endUserId: string | null) => compilePolicy(1, rules).evaluate(request({}, { endUserId }));
  const denyFor = (end_users: PolicyRule["end_users"]): PolicyRule[] => [{ id: "deny", effect: "deny", end_users }];

  it("a list matches only calls for one of its end users, compared exactly; a rule without end_users matches every call", () => {
    const rules = denyFor(["alice", "carol"]);
    expect(decide(rules, "alice")).toEqual({ effect: "deny", rule_id: "deny", reason: "rule" });
    expect(decide(rules, "carol").effect).toBe("deny");
    expect(decide(rules, "bob").effect).toBe("allow");
    expect(decide(rules, "Alice").effect).toBe("allow");
    expect(decide(rules, null).effect).toBe("allow");
    // Without end_users a rule matches with or without an end user.
    expect(decide([{ id: "all", effect: "deny" }], "alice").effect).toBe("deny");
    expect(decide([{ id: "all", effect: "deny" }], null).effect).toBe("deny");
  });

  it('"any" matches every call for some end user, "none" only calls for none', () => {
    expect(decide(denyFor("any"), "alice").effect).toBe("deny");
    expect(decide(denyFor("any"), null).effect).toBe("allow");
    expect(decide(denyFor("none"), null).effect).toBe("deny");
    expect(decide(denyFor("none"), "alice").effect).toBe("allow");
  });

  it("combines with the other matchers, and the first matching rule still wins", () => {
    const rules: PolicyRule[] = [
      { id: "alice-reads", effect: "allow", end_users: ["alice"], tools: ["scm.get_*"] },
      { id: "end-users-ask", effect: "require_approval", end_users: "any" },
      { id: "rest", effect: "deny" },
    ];
    const decideFor = (toolName: string, endUserId: string | null) => compilePolicy(1, rules).evaluate(request({}, { toolName, endUserId })).rule_id;
    expect(decideFor("scm.get_repository", "alice")).toBe("alice-reads");
    expect(decideFor("scm.create_issue", "alice")).toBe("end-users-ask");
    expect(decideFor("scm.get_repository", "bob")).toBe("end-users-ask");
    expect(decideFor("scm.get_repository", null)).toBe("rest");
  });
});

describe("the effects a tool could get, before any arguments are known (MCP tools/list)", () => {
  const outlook = (rules: PolicyRule[], overrides: Partial<PolicyRequest> = {}) => {
    const { arguments: _none, ...call } = request({}, overrides);
    return [...compilePolicy(1, rules).possibleEffects(call)].sort();
  };

  it("is the risk default when no rule applies", () => {
    expect(outlook([])).toEqual(["allow"]);
    expect(outlook([], { risk: "high" })).toEqual(["require_approval"]);
    expect(outlook([{ id: "other", effect: "deny", tools: ["scm.get_repository"] }])).toEqual(["allow"]);
  });

  it("is only deny when an unconditional rule denies first, whatever comes after it", () => {
    expect(outlook([{ id: "no", effect: "deny", tools: ["scm.*"] }, { id: "yes", effect: "allow" }])).toEqual(["deny"]);
  });

  it("keeps every effect a conditional rule and the rules after it could give", () => {
    const rules: PolicyRule[] = [regexRule("sql", "deny", "DROP"), { id: "ask", effect: "require_approval", end_users: "any" }];
    expect(outlook(rules)).toEqual(["allow", "deny"]);
    expect(outlook(rules, { endUserId: "alice" })).toEqual(["deny", "require_approval"]);
  });

  it("follows agent app and end user scopes", () => {
    const rules: PolicyRule[] = [{ id: "bob-only", effect: "deny", end_users: ["bob"] }];
    expect(outlook(rules, { endUserId: "bob" })).toEqual(["deny"]);
    expect(outlook(rules, { endUserId: "alice" })).toEqual(["allow"]);
  });
});
