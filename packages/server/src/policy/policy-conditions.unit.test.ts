/**
 * equals / one_of compare canonical JSON (RFC 8785), which has no form for text with a lone
 * UTF-16 surrogate. Requests cannot carry such text (refused at the door), but a policy document
 * or an approval's arguments stored before that check may: the policy still compiles, and only
 * ever decides more strictly because of it.
 */
import { describe, expect, it } from "vitest";
import type { PolicyRule } from "./policy-document.js";
import { compilePolicy, type PolicyRequest } from "./policy-engine.js";

const request = (args: Record<string, unknown>): PolicyRequest => ({
  toolName: "scm.create_issue",
  risk: "low",
  agentAppId: "00000000-0000-4000-8000-000000000001",
  endUserId: null,
  arguments: args,
});

describe("equals and one_of on text stored before lone surrogates were refused", () => {
  it("compile, and a stored option with a lone surrogate equals nothing a request can send", () => {
    const rules: PolicyRule[] = [
      { id: "legacy", effect: "deny", conditions: [{ pointer: "/title", one_of: ["\ud800", "spam"] }] },
      { id: "legacy-equals", effect: "deny", conditions: [{ pointer: "/title", equals: "x\udc00" }] },
    ];
    const policy = compilePolicy(1, rules);
    expect(policy.evaluate(request({ title: "spam" }))).toMatchObject({ effect: "deny", rule_id: "legacy" });
    expect(policy.evaluate(request({ title: "\ufffd" }))).toMatchObject({ effect: "allow", rule_id: null });
    expect(policy.evaluate(request({}))).toMatchObject({ effect: "allow", rule_id: null });
  });

  it("leave the condition undecided on stored arguments with a lone surrogate, so the stricter outcome wins", () => {
    const policy = compilePolicy(1, [{ id: "no-acme", effect: "deny", conditions: [{ pointer: "/owner", equals: "acme" }] }]);
    expect(policy.evaluate(request({ owner: "globex" }))).toMatchObject({ effect: "allow", rule_id: null });
    expect(policy.evaluate(request({ owner: "acme\ud800" }))).toMatchObject({ effect: "deny", rule_id: "no-acme" });
  });
});
