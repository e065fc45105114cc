/**
 * GET /v1/policy/templates and POST /v1/policy/compare: the console's policy editor starts from a
 * template and shows, before saving, what a draft changes against the policy in force. How the
 * templates decide is in src/policy/policy-templates.unit.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { putPolicy } from "./support/approvals.js";

const DENY_DELETES = { id: "no-deletes", effect: "deny", tools: ["scm.delete_repository"] };

describeEachDatabase("policy templates and compare", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let viewer: { token: string; tenant: string };

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker, "Acme");
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "compare-viewer", role: "viewer" }, "test");
    viewer = { token: await issuer.issue("compare-viewer"), tenant: tenant.tenantId };
  });
  afterAll(() => broker.close());

  const compare = (who: { token: string; tenant: string }, body: unknown) => call(broker, "POST", "/v1/policy/compare", { ...who, body });

  it("refuses both routes without an operator session (401), for control keys and broker JWTs too", async () => {
    const brokerJwt = await mintBrokerToken(broker, tenant);
    for (const token of [undefined, tenant.testKey, brokerJwt]) {
      const auth = token ? { token } : {};
      expectError(await call(broker, "GET", "/v1/policy/templates", auth), 401, "unauthorized");
      expectError(await call(broker, "POST", "/v1/policy/compare", { ...auth, body: { rules: [] } }), 401, "unauthorized");
    }
  });

  it("lists the templates for a viewer, and an admin can save each one as it stands", async () => {
    const listed = await call(broker, "GET", "/v1/policy/templates?env=live", viewer);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((t: { name: string }) => t.name)).toEqual(["Read-only agent", "Approve all writes", "Deny destructive", "Per-end-user limits"]);
    const fresh = await createTenant(broker, "Templates");
    for (const template of listed.body.data) await putPolicy(broker, fresh, template.rules, "live");
    expect((await call(broker, "GET", "/v1/policy/versions?env=live", asOperator(fresh))).body.data).toHaveLength(4);
  });

  it("shows a viewer what a draft changes against the version in force, on representative calls, and saves nothing", async () => {
    const fresh = await createTenant(broker, "Drafts");
    await putPolicy(broker, fresh, [{ id: "reads", effect: "allow", tools: ["scm.get_*"] }]);
    await broker.services.tenants.addMember(fresh.tenantId, { issuer: broker.runtime.developmentIssuer!.issuer, subject: "compare-viewer", role: "viewer" }, "test");
    const asViewer = { token: viewer.token, tenant: fresh.tenantId };
    const result = await compare(asViewer, { env: "test", rules: [DENY_DELETES] });
    expect(result.status, result.text).toBe(200);
    expect(result.body).toMatchObject({ env: "test", current_version: 1, representative: true, truncated: false });
    // Only the tools a rule of either document reaches: scm.get_* in force, the deletion in the draft.
    expect(new Set(result.body.results.map((r: { call: { tool_name: string } }) => r.call.tool_name.split(".")[0]))).toEqual(new Set(["scm"]));
    const deletion = result.body.results.find((r: { call: { tool_name: string; end_user_id?: string } }) => r.call.tool_name === "scm.delete_repository" && !r.call.end_user_id);
    expect(deletion).toMatchObject({ risk: "high", current: { decision: "require_approval", rule_id: null, reason: "default_high_risk" }, draft: { decision: "deny", rule_id: "no-deletes" }, changed: true });
    const read = result.body.results.find((r: { call: { tool_name: string } }) => r.call.tool_name === "scm.get_repository");
    expect(read).toMatchObject({ current: { decision: "allow", rule_id: "reads" }, draft: { decision: "allow", rule_id: null }, changed: false });
    expect((await call(broker, "GET", "/v1/policy", asOperator(fresh))).body.version).toBe(1);
  });

  it("decides the caller's own calls, under the tool's canonical name, in order", async () => {
    const calls = [
      { tool_name: "github.delete_repository", arguments: { owner: "o", repo: "prod-api" }, end_user_id: "alice" },
      { tool_name: "scm.get_repository", arguments: {} },
    ];
    const rules = [{ id: "alice-no-prod", effect: "deny", end_users: ["alice"], conditions: [{ pointer: "/repo", prefix: "prod-" }] }];
    const result = await compare(asOperator(tenant), { rules, calls });
    expect(result.status, result.text).toBe(200);
    expect(result.body.representative).toBe(false);
    expect(result.body.results.map((r: { call: { tool_name: string }; draft: { decision: string } }) => [r.call.tool_name, r.draft.decision])).toEqual([
      ["scm.delete_repository", "deny"],
      ["scm.get_repository", "allow"],
    ]);
  });

  it("refuses a draft PUT would refuse with 422 and the path of the fault", async () => {
    const badRegex = await compare(asOperator(tenant), { rules: [{ id: "r", effect: "deny", conditions: [{ pointer: "/repo", regex: "(a)\\1" }] }] });
    expectError(badRegex, 422, "unprocessable");
    expect(badRegex.body.error.details.fields[0].field).toBe("/rules/0/conditions/0/regex");
    const unknownTool = await compare(asOperator(tenant), { rules: [{ id: "r", effect: "deny", tools: ["nowhere.*"] }] });
    expect(unknownTool.body.error.details.fields[0].field).toBe("/rules/0/tools/0");
    const approvalOnDeny = await compare(asOperator(tenant), { rules: [{ id: "r", effect: "deny", approval: { edits: "forbidden" } }] });
    expect(approvalOnDeny.body.error.details.fields[0].field).toBe("/rules/0/approval");
    const badId = await compare(asOperator(tenant), { rules: [{ id: "bad id", effect: "deny" }] });
    expectError(badId, 422, "unprocessable");
    expect(badId.body.error.details.fields.map((f: { field: string }) => f.field)).toContain("/rules/0/id");
    expectError(await compare(asOperator(tenant), { rules: [], extra: true }), 422, "unprocessable");
  });

  it("refuses a call naming no tool of the env with 422 and its path", async () => {
    const result = await compare(asOperator(tenant), { rules: [], calls: [{ tool_name: "scm.get_repository", arguments: {} }, { tool_name: "nowhere.thing", arguments: {} }] });
    expectError(result, 422, "unprocessable");
    expect(result.body.error.details.fields).toEqual([{ field: "/calls/1/tool_name", message: 'names no tool of this env ("nowhere.thing")' }]);
  });

  describe("tenant isolation", () => {
    it("compares against the caller's own policy in force, never another tenant's", async () => {
      const other = await createTenant(broker, "Other");
      await putPolicy(broker, other, [DENY_DELETES]);
      const mine = await createTenant(broker, "Mine");
      const result = await compare(asOperator(mine), { rules: [], calls: [{ tool_name: "scm.delete_repository", arguments: {} }] });
      expect(result.body).toMatchObject({ current_version: 0, results: [{ current: { decision: "require_approval", rule_id: null } }] });
    });
  });
});
