/**
 * The policy templates (GET /v1/policy/templates) built from the real built-in catalogue: each is
 * accepted by the validator a PUT runs, and does what its name says when calls are decided under
 * it. The route itself is in policy-compare.test.ts.
 */
import { describe, expect, it } from "vitest";
import { createToolCatalogue } from "../catalogue/tool-catalogue.js";
import { createProviderCatalogue } from "../providers/catalogue.js";
import { validateRules } from "./policy-document.js";
import { compilePolicy, type PolicyDecision } from "./policy-engine.js";
import { patternsFor, policyTemplates, type TemplateTool } from "./policy-templates.js";

const catalogue = createToolCatalogue(createProviderCatalogue({ providers: {} }));
const TOOLS = catalogue.list();
const templates = policyTemplates(TOOLS);
const AGENT_APP = "3f1c2a8e-0000-4000-8000-000000000001";

function decide(templateId: string, toolName: string, endUserId: string | null = null): PolicyDecision {
  const template = templates.find((t) => t.id === templateId)!;
  const tool = catalogue.resolve(toolName).tool;
  return compilePolicy(1, template.rules).evaluate({ toolName, risk: tool.risk, agentAppId: AGENT_APP, endUserId, arguments: {} });
}

const named = (filter: (tool: (typeof TOOLS)[number]) => boolean) => TOOLS.filter(filter).map((tool) => tool.name);
const READS = named((tool) => tool.side_effect === "read");
const WRITES = named((tool) => tool.side_effect === "write");
const DESTRUCTIVE = named((tool) => tool.destructive);
const NON_DESTRUCTIVE_WRITES = named((tool) => tool.side_effect === "write" && !tool.destructive);

describe("policy templates", () => {
  it("offers the four named templates, each a document the PUT validator accepts as it stands", () => {
    expect(templates.map((t) => t.name)).toEqual(["Read-only agent", "Approve all writes", "Deny destructive", "Per-end-user limits"]);
    // The catalogue this test relies on has each kind of tool, or the checks below prove nothing.
    expect([READS.length, NON_DESTRUCTIVE_WRITES.length, DESTRUCTIVE.length].every((n) => n > 0)).toBe(true);
    for (const template of templates) {
      expect(() => validateRules(template.rules, catalogue.names(), new Set()), template.id).not.toThrow();
      expect(template.rules.length, template.id).toBeGreaterThan(0);
      for (const rule of template.rules) expect(rule.tools?.length ?? 0).toBeLessThanOrEqual(100);
    }
  });

  it("Read-only agent: every read runs, every write is refused, and so is a tool it never named", () => {
    for (const name of READS) expect(decide("read_only_agent", name), name).toMatchObject({ effect: "allow", rule_id: expect.stringMatching(/^reads-run/) });
    for (const name of WRITES) expect(decide("read_only_agent", name).effect, name).toBe("deny");
    const later = compilePolicy(1, templates[0]!.rules).evaluate({ toolName: "tasks.create_task", risk: "low", agentAppId: AGENT_APP, endUserId: null, arguments: {} });
    expect(later).toMatchObject({ effect: "deny", rule_id: "everything-else-refused" });
  });

  it("Approve all writes: every write waits for an approval, low-risk ones too; reads keep the risk default", () => {
    for (const name of WRITES) expect(decide("approve_all_writes", name), name).toMatchObject({ effect: "require_approval", reason: "rule" });
    for (const name of READS) expect(decide("approve_all_writes", name).reason, name).toMatch(/^default_/);
  });

  it("Deny destructive: deletions are refused; other writes keep the risk default", () => {
    expect(DESTRUCTIVE).toContain("scm.delete_repository");
    for (const name of DESTRUCTIVE) expect(decide("deny_destructive", name), name).toMatchObject({ effect: "deny", rule_id: "no-destructive-calls" });
    for (const name of [...NON_DESTRUCTIVE_WRITES, ...READS]) expect(decide("deny_destructive", name).reason, name).toMatch(/^default_/);
  });

  it("Per-end-user limits: for an end user, destructive calls are refused, writes wait for that end user, reads run; on your own behalf the risk default applies", () => {
    for (const name of DESTRUCTIVE) expect(decide("per_end_user_limits", name, "alice").effect, name).toBe("deny");
    for (const name of NON_DESTRUCTIVE_WRITES) {
      expect(decide("per_end_user_limits", name, "alice"), name).toMatchObject({ effect: "require_approval", approval: { approvers: "end_user" } });
    }
    for (const name of READS) expect(decide("per_end_user_limits", name, "alice").effect, name).toBe("allow");
    expect(decide("per_end_user_limits", "scm.delete_repository", null)).toMatchObject({ effect: "require_approval", reason: "default_high_risk" });
    expect(decide("per_end_user_limits", "scm.create_issue", null)).toMatchObject({ effect: "allow", reason: "default_low_risk" });
  });

  it("names a provider by its glob only when the glob reaches no tool left out, and splits more than 100 patterns over numbered rules", () => {
    const tool = (name: string, side_effect: "read" | "write" = "write"): TemplateTool => ({ name, provider: name.split(".")[0]!, side_effect, destructive: false });
    const all = [tool("a.x"), tool("a.y"), tool("b.x"), tool("b.y", "read")];
    expect(patternsFor([all[0]!, all[1]!, all[2]!], all)).toEqual(["a.*", "b.x"]);
    const many = Array.from({ length: 150 }, (_, i) => [tool(`p${i}.write`), tool(`p${i}.read`, "read")]).flat();
    const writes = policyTemplates(many).find((t) => t.id === "approve_all_writes")!;
    expect(writes.rules.map((r) => [r.id, r.tools!.length])).toEqual([
      ["writes-need-approval-1", 100],
      ["writes-need-approval-2", 50],
    ]);
    expect(() => validateRules(writes.rules, many.map((t) => t.name))).not.toThrow();
  });
});
