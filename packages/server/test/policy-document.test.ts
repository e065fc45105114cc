/**
 * The tenant policy document: GET/PUT /v1/policy (versioned per tenant and env, validated on write)
 * and POST /v1/policy/simulate. How the policy acts on executions is in policy-enforcement.test.ts.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken, type CallResult } from "./support/http.js";
import { putPolicy } from "./support/approvals.js";

const DENY_DELETES = { id: "no-deletes", effect: "deny", tools: ["scm.delete_repository"] };
const ACME_ONLY = { id: "acme-repos", effect: "allow", tools: ["scm.*"], conditions: [{ pointer: "/owner", equals: "acme" }] };

describeEachDatabase("policy document", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let other: TestTenant;
  let viewer: { token: string; tenant: string };

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker, "Acme");
    other = await createTenant(broker, "Other");
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "policy-viewer", role: "viewer" }, "test");
    viewer = { token: await issuer.issue("policy-viewer"), tenant: tenant.tenantId };
  });
  afterAll(() => broker.close());

  const getPolicy = (who: TestTenant, env = "test") => call(broker, "GET", `/v1/policy?env=${env}`, asOperator(who));
  const put = (who: TestTenant, body: unknown) => call(broker, "PUT", "/v1/policy", { ...asOperator(who), body });
  const simulate = (who: TestTenant, body: Record<string, unknown>) =>
    call(broker, "POST", "/v1/policy/simulate", { ...asOperator(who), body: { agent_app_id: who.agentAppId, env: "test", arguments: {}, ...body } });

  describe("authentication, roles and tenant isolation", () => {
    it("refuses every policy route without an operator session (401), including for control keys and broker JWTs", async () => {
      const brokerJwt = await mintBrokerToken(broker, tenant);
      for (const token of [undefined, tenant.testKey, brokerJwt]) {
        const auth = token ? { token } : {};
        expectError(await call(broker, "GET", "/v1/policy", auth), 401, "unauthorized");
        expectError(await call(broker, "PUT", "/v1/policy", { ...auth, body: { rules: [] } }), 401, "unauthorized");
        const body = { agent_app_id: tenant.agentAppId, env: "test", tool_name: "scm.get_repository", arguments: {} };
        expectError(await call(broker, "POST", "/v1/policy/simulate", { ...auth, body }), 401, "unauthorized");
      }
    });

    it("lets a viewer read and simulate but not replace the policy (403), which keeps its version", async () => {
      const before = (await getPolicy(tenant)).body.version;
      expect((await call(broker, "GET", "/v1/policy", viewer)).status).toBe(200);
      const simulated = await call(broker, "POST", "/v1/policy/simulate", { ...viewer, body: { agent_app_id: tenant.agentAppId, env: "test", tool_name: "scm.get_repository", arguments: {} } });
      expect(simulated.status).toBe(200);
      expectError(await call(broker, "PUT", "/v1/policy", { ...viewer, body: { rules: [DENY_DELETES] } }), 403, "forbidden");
      expect((await getPolicy(tenant)).body.version).toBe(before);
    });

    it("keeps each tenant's policy to itself, and refuses to simulate for another tenant's agent app (404)", async () => {
      const fresh = await createTenant(broker, "Isolated");
      await putPolicy(broker, fresh, [DENY_DELETES]);
      expect((await getPolicy(other)).body.rules).not.toContainEqual(DENY_DELETES);
      expectError(await simulate(other, { agent_app_id: fresh.agentAppId, tool_name: "scm.delete_repository" }), 404, "not_found");
    });
  });

  describe("versions", () => {
    it("starts empty at version 0 in each env", async () => {
      const fresh = await createTenant(broker, "Fresh");
      for (const env of ["test", "live"]) {
        expect((await getPolicy(fresh, env)).body).toEqual({ env, version: 0, rules: [], updated_at: null, updated_by: null });
      }
    });

    it("adds one to the version on every PUT, keeps the rules in order and records who wrote them", async () => {
      const fresh = await createTenant(broker, "Versioned");
      const first = await putPolicy(broker, fresh, [DENY_DELETES]);
      expect(first.body).toMatchObject({ env: "test", version: 1, rules: [DENY_DELETES] });
      const second = await putPolicy(broker, fresh, [ACME_ONLY, DENY_DELETES]);
      expect(second.body.version).toBe(2);
      const shown = await getPolicy(fresh);
      expect(shown.body).toMatchObject({ env: "test", version: 2, rules: [ACME_ONLY, DENY_DELETES], updated_by: expect.any(String) });
      expect(Date.parse(shown.body.updated_at)).not.toBeNaN();
      const cleared = await putPolicy(broker, fresh, []);
      expect(cleared.body).toMatchObject({ version: 3, rules: [] });
    });

    it("versions each env separately; env defaults to test", async () => {
      const fresh = await createTenant(broker, "Two envs");
      await putPolicy(broker, fresh, [DENY_DELETES], "live");
      await putPolicy(broker, fresh, [DENY_DELETES], "live");
      expect((await getPolicy(fresh, "live")).body).toMatchObject({ env: "live", version: 2 });
      expect((await getPolicy(fresh, "test")).body.version).toBe(0);
      expect((await call(broker, "GET", "/v1/policy", asOperator(fresh))).body.env).toBe("test");
    });

    it("audits each new version as policy.updated", async () => {
      const fresh = await createTenant(broker, "Audited");
      await putPolicy(broker, fresh, [DENY_DELETES]);
      const audit = await call(broker, "GET", "/v1/audit?action=policy.updated", asOperator(fresh));
      expect(audit.body.data).toHaveLength(1);
      expect(audit.body.data[0]).toMatchObject({ actor: { type: "operator" }, target: { type: "policy", id: "test:v1" }, data: { env: "test", version: 1, rules: 1 } });
    });
  });

  describe("validation on write", () => {
    function expectFault(result: CallResult, field: string) {
      expectError(result, 422, "unprocessable");
      expect(result.body.error.details.fields[0].field).toBe(field);
    }

    it.each([
      ["an unknown field in a rule", [{ ...DENY_DELETES, priority: 1 }], "/rules/0/priority"],
      ["an unknown field in a condition", [{ id: "c", effect: "deny", conditions: [{ pointer: "/repo", equals: "x", negate: true }] }], "/rules/0/conditions/0/negate"],
      ["an unknown effect", [{ id: "e", effect: "maybe" }], "/rules/0/effect"],
      ["a rule without an id", [{ effect: "deny" }], "/rules/0/id"],
      ["an invalid regular expression", [DENY_DELETES, { id: "r", effect: "deny", conditions: [{ pointer: "/repo", regex: "([unclosed" }] }], "/rules/1/conditions/0/regex"],
      ["an unknown tool", [{ id: "t", effect: "deny", tools: ["scm.get_repository", "scm.nuke_everything"] }], "/rules/0/tools/1"],
      ["a glob that matches no tool", [{ id: "g", effect: "deny", tools: ["mail.*"] }], "/rules/0/tools/0"],
      ["a duplicate rule id", [DENY_DELETES, ACME_ONLY, { ...DENY_DELETES, effect: "allow" }], "/rules/2/id"],
      ["two operators in one condition", [{ id: "two", effect: "deny", conditions: [{ pointer: "/repo", prefix: "a", regex: "^a" }] }], "/rules/0/conditions/0"],
      ["a condition without an operator", [{ id: "none", effect: "deny", conditions: [{ pointer: "/repo" }] }], "/rules/0/conditions/0"],
      ["a pointer that is not a JSON pointer", [{ id: "p", effect: "deny", conditions: [{ pointer: "repo", equals: "x" }] }], "/rules/0/conditions/0/pointer"],
      ["a lookahead, which RE2 does not support", [DENY_DELETES, { id: "la", effect: "deny", conditions: [{ pointer: "/repo", regex: "^(?!public-)" }] }], "/rules/1/conditions/0/regex"],
      ["a backreference, which RE2 does not support", [{ id: "br", effect: "deny", conditions: [{ pointer: "/repo", regex: "^(a+)\\1$" }] }], "/rules/0/conditions/0/regex"],
    ])("refuses %s with 422 naming the path, and keeps the version", async (_name, rules, field) => {
      const before = (await getPolicy(tenant)).body;
      expectFault(await put(tenant, { rules }), field);
      expect((await getPolicy(tenant)).body).toEqual(before);
    });

    it("accepts nested quantifiers, which RE2 matches in linear time: a 10,000-character adversarial value is decided at once and /health stays responsive", async () => {
      const fresh = await createTenant(broker, "Nested quantifiers");
      const patterns = ["^((a)+)+$", "^(a|a)+$", "^(a|aa)+$", "^(?:a|a)*$", "^((a+))+$"];
      await putPolicy(broker, fresh, patterns.map((regex, i) => ({ id: `nested-${i}`, effect: "deny", tools: ["scm.create_issue"], conditions: [{ pointer: "/body", regex }] })));
      const adversarial = `${"a".repeat(9_999)}!`;
      const started = performance.now();
      const [decisions, health] = await Promise.all([
        Promise.all(patterns.map(() => simulate(fresh, { tool_name: "scm.create_issue", arguments: { owner: "acme", repo: "site", title: "t", body: adversarial } }))),
        call(broker, "GET", "/health").then((result) => ({ result, at: performance.now() - started })),
      ]);
      const elapsed = performance.now() - started;
      for (const decision of decisions) expect(decision.body).toMatchObject({ decision: "allow", reason: "default_low_risk" });
      expect(health.result.status).toBe(200);
      // Backtracking would take longer than the age of the universe here; RE2 takes milliseconds.
      expect(health.at).toBeLessThan(2_000);
      expect(elapsed).toBeLessThan(2_000);
      const matching = await simulate(fresh, { tool_name: "scm.create_issue", arguments: { owner: "acme", repo: "site", title: "t", body: "a".repeat(10_000) } });
      expect(matching.body).toMatchObject({ decision: "deny", rule_id: "nested-0" });
    });

    it("refuses an unknown top-level field with 422 naming it", async () => {
      expectFault(await put(tenant, { rules: [], version: 7 }), "/version");
    });
  });

  describe("simulate", () => {
    it("applies the risk default without rules: low risk allowed, high risk needs approval", async () => {
      const fresh = await createTenant(broker, "Defaults");
      expect((await simulate(fresh, { tool_name: "scm.get_repository" })).body).toEqual({ decision: "allow", rule_id: null, reason: "default_low_risk", policy_version: 0, risk: "low" });
      expect((await simulate(fresh, { tool_name: "scm.delete_repository" })).body).toEqual({
        decision: "require_approval",
        rule_id: null,
        reason: "default_high_risk",
        policy_version: 0,
        risk: "high",
      });
    });

    it("names the rule that decided and the policy version, for the env asked about", async () => {
      const fresh = await createTenant(broker, "Simulated");
      await putPolicy(broker, fresh, [ACME_ONLY, DENY_DELETES], "live");
      const args = { owner: "acme", repo: "site" };
      expect((await simulate(fresh, { env: "live", tool_name: "scm.delete_repository", arguments: args })).body).toMatchObject({ decision: "allow", rule_id: "acme-repos", reason: "rule", policy_version: 1 });
      expect((await simulate(fresh, { env: "live", tool_name: "scm.delete_repository", arguments: { ...args, owner: "globex" } })).body).toMatchObject({ decision: "deny", rule_id: "no-deletes" });
      expect((await simulate(fresh, { env: "test", tool_name: "scm.delete_repository", arguments: args })).body).toMatchObject({ decision: "require_approval", rule_id: null, policy_version: 0 });
    });

    it("executes nothing: no invocation, audit entry or usage", async () => {
      const fresh = await createTenant(broker, "Dry run");
      const audit = async () => (await call(broker, "GET", "/v1/audit?limit=200", asOperator(fresh))).body.data.length;
      const before = await audit();
      await simulate(fresh, { tool_name: "scm.get_authenticated_user" });
      expect(await audit()).toBe(before);
      expect((await call(broker, "GET", "/v1/usage", asOperator(fresh))).body.total).toBe(0);
      const invocations = await broker.services.store.db.selectFrom("invocations").select("id").where("tenant_id", "=", fresh.tenantId).execute();
      expect(invocations).toEqual([]);
    });

    it("answers 404 for an unknown tool or agent app", async () => {
      expectError(await simulate(tenant, { tool_name: "scm.nuke_everything" }), 404, "not_found");
      expectError(await simulate(tenant, { tool_name: "scm.get_repository", agent_app_id: randomUUID() }), 404, "not_found");
    });
  });
});
