/**
 * Comparing a draft with the policy in force: the representative calls the broker picks when the
 * caller names none, and the decisions side by side. The route is in policy-compare.test.ts.
 */
import { describe, expect, it } from "vitest";
import { argumentsSatisfying, compareDecisions, EXAMPLE_END_USER, MAX_COMPARED_CALLS, representativeCalls } from "./policy-comparison.js";
import { compilePolicy } from "./policy-engine.js";
import type { PolicyRule } from "./policy-document.js";

const TOOLS = [
  { name: "scm.get_repository", risk: "low" as const },
  { name: "scm.delete_repository", risk: "high" as const },
  { name: "chat.post_message", risk: "low" as const },
];
const APP = "9a0b7f1e-0000-4000-8000-000000000002";

describe("representative calls", () => {
  const ALL: PolicyRule = { id: "all", effect: "allow" };

  it("tries every tool a rule reaches, for no end user and for an end user no rule names, sorted by tool", () => {
    const { calls, truncated } = representativeCalls(TOOLS, [ALL]);
    expect(truncated).toBe(false);
    expect(calls.map((call) => [call.tool_name, call.end_user_id])).toEqual([
      ["chat.post_message", undefined],
      ["chat.post_message", EXAMPLE_END_USER],
      ["scm.delete_repository", undefined],
      ["scm.delete_repository", EXAMPLE_END_USER],
      ["scm.get_repository", undefined],
      ["scm.get_repository", EXAMPLE_END_USER],
    ]);
  });

  it("leaves out the tools no rule of either document reaches: their risk decides under both", () => {
    const { calls } = representativeCalls(TOOLS, [{ id: "r", effect: "deny", tools: ["scm.delete_*"] }]);
    expect(new Set(calls.map((call) => call.tool_name))).toEqual(new Set(["scm.delete_repository"]));
    expect(representativeCalls(TOOLS, []).calls).toEqual([]);
  });

  it("adds, for a rule naming end users, agent apps or conditions, a call of each tool it covers that the rule would match", () => {
    const rule: PolicyRule = { id: "r", effect: "deny", tools: ["scm.*"], end_users: ["alice"], agent_apps: [APP], conditions: [{ pointer: "/repo", prefix: "prod-" }, { pointer: "/owner/login", one_of: ["acme"] }] };
    const { calls } = representativeCalls(TOOLS, [rule]);
    const built = { tool_name: "scm.delete_repository", agent_app_id: APP, end_user_id: "alice", arguments: { repo: "prod-", owner: { login: "acme" } } };
    expect(calls).toContainEqual(built);
    expect(calls.filter((call) => call.end_user_id === "alice").map((call) => call.tool_name)).toEqual(["scm.delete_repository", "scm.get_repository"]);
    expect(compilePolicy(1, [rule]).evaluate({ toolName: built.tool_name, risk: "high", agentAppId: APP, endUserId: "alice", arguments: built.arguments }).rule_id).toBe("r");
  });

  it("never lets the stand-in end user be one a rule names", () => {
    const { calls } = representativeCalls(TOOLS, [{ id: "r", effect: "deny", end_users: [EXAMPLE_END_USER] }]);
    expect(calls.some((call) => call.end_user_id === `${EXAMPLE_END_USER}-x`)).toBe(true);
  });

  it("builds no arguments for a regex condition or two conditions on one field", () => {
    expect(argumentsSatisfying([{ pointer: "/repo", regex: "^prod" }])).toBeUndefined();
    expect(argumentsSatisfying([{ pointer: "/repo", equals: "a" }, { pointer: "/repo", equals: "b" }])).toBeUndefined();
    expect(argumentsSatisfying([{ pointer: "/a~1b", equals: 1 }])).toEqual({ "a/b": 1 });
  });

  it("never writes through a prototype key: a pointer into __proto__, constructor or prototype builds no arguments and pollutes nothing", () => {
    for (const pointer of ["/__proto__/credentials", "/a/__proto__/role", "/constructor/prototype/x", "/prototype"]) {
      expect(argumentsSatisfying([{ pointer, equals: ["operator"] }])).toBeUndefined();
    }
    expect(({} as Record<string, unknown>)["credentials"]).toBeUndefined();
    expect(({} as Record<string, unknown>)["role"]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("x");
    const rules: PolicyRule[] = [{ id: "proto", effect: "allow", conditions: [{ pointer: "/__proto__/credentials", equals: ["operator"] }] }];
    representativeCalls([{ name: "scm.get_authenticated_user", risk: "low" }], rules);
    expect(({} as Record<string, unknown>)["credentials"]).toBeUndefined();
  });

  it("stops at the cap, keeping the calls built for rules before the plain ones, and says so", () => {
    const many = Array.from({ length: MAX_COMPARED_CALLS }, (_, i) => ({ name: `p.t${String(i).padStart(4, "0")}`, risk: "low" as const }));
    const rule: PolicyRule = { id: "bob", effect: "deny", tools: ["p.t0999"], end_users: ["bob"] };
    const { calls, truncated } = representativeCalls(many, [ALL, rule]);
    expect(truncated).toBe(true);
    expect(calls).toHaveLength(MAX_COMPARED_CALLS);
    expect(calls).toContainEqual({ tool_name: "p.t0999", agent_app_id: undefined, end_user_id: "bob", arguments: {} });
  });
});

describe("compareDecisions", () => {
  it("reports each call under both policies and marks a changed effect", () => {
    const current = compilePolicy(3, []);
    const draft = compilePolicy(3, [{ id: "no-deletes", effect: "deny", tools: ["scm.delete_repository"] }]);
    const [deletion, read] = compareDecisions(
      [
        { tool_name: "scm.delete_repository", arguments: {}, risk: "high" },
        { tool_name: "scm.get_repository", arguments: {}, risk: "low" },
      ],
      current,
      draft,
    );
    expect(deletion).toMatchObject({ current: { decision: "require_approval", rule_id: null, reason: "default_high_risk" }, draft: { decision: "deny", rule_id: "no-deletes" }, changed: true });
    expect(read).toMatchObject({ current: { decision: "allow" }, draft: { decision: "allow" }, changed: false });
  });
});
