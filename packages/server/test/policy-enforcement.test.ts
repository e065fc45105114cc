/**
 * The tenant policy on the execute path, against the fake GitHub: each matcher and effect, first
 * match wins, and a denied call is audited but never metered nor sent upstream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, type CallResult } from "./support/http.js";
import {
  createAgentApp,
  createScmTenant,
  deleteCalls,
  deletion,
  execute,
  outboxEvents,
  putPolicy,
  repoExists,
  requestApproval,
  startScmWorld,
  type ScmTenant,
  type ScmWorld,
} from "./support/approvals.js";

describeEachDatabase("policy on execute", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;

  beforeAll(async () => {
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world, "Acme");
  });
  afterAll(() => world.close());

  const getRepository = (repo: string, who: ScmTenant = tenant, token = who.token) =>
    execute(world.broker, { token, tool: "scm.get_repository", args: { owner: who.owner, repo }, connectionId: who.connectionId });
  const listRepositories = (who: ScmTenant = tenant) => execute(world.broker, { token: who.token, tool: "scm.list_repositories", args: {}, connectionId: who.connectionId });

  function expectDenied(result: CallResult, ruleId: string) {
    expectError(result, 403, "policy_denied");
    expect(result.body.error.details).toEqual({ rule_id: ruleId });
  }

  describe("matchers (a deny rule on a low-risk read)", () => {
    it.each([
      ["equals", { pointer: "/repo", equals: "hello-world" }, "hello-world", "spoon-knife"],
      ["one_of", { pointer: "/repo", one_of: ["hello-world", "private-notes"] }, "private-notes", "spoon-knife"],
      ["prefix", { pointer: "/repo", prefix: "spoon-" }, "spoon-knife", "hello-world"],
      ["regex", { pointer: "/repo", regex: "^(private|secret)-" }, "private-notes", "hello-world"],
    ])("%s on a JSON pointer into arguments: denies the matching call, runs the other", async (name, condition, matching, other) => {
      await putPolicy(world.broker, tenant, [{ id: `deny-by-${name}`, effect: "deny", conditions: [condition] }]);
      expectDenied(await getRepository(matching), `deny-by-${name}`);
      expect((await getRepository(other)).status).toBe(200);
    });

    it("all conditions of a rule must hold", async () => {
      const conditions = [
        { pointer: "/owner", equals: tenant.owner },
        { pointer: "/repo", prefix: "hello" },
      ];
      await putPolicy(world.broker, tenant, [{ id: "both", effect: "deny", conditions }]);
      expectDenied(await getRepository("hello-world"), "both");
      expect((await getRepository("spoon-knife")).status).toBe(200);
    });

    it("a condition on an argument that is absent does not match", async () => {
      await putPolicy(world.broker, tenant, [{ id: "by-visibility", effect: "deny", conditions: [{ pointer: "/visibility", equals: "private" }] }]);
      expect((await listRepositories()).status).toBe(200);
      const withArgument = await execute(world.broker, { token: tenant.token, tool: "scm.list_repositories", args: { visibility: "private" }, connectionId: tenant.connectionId });
      expectDenied(withArgument, "by-visibility");
    });

    it("a tool glob like scm.get_* matches by name", async () => {
      await putPolicy(world.broker, tenant, [{ id: "no-gets", effect: "deny", tools: ["scm.get_*"] }]);
      expectDenied(await getRepository("hello-world"), "no-gets");
      expect((await listRepositories()).status).toBe(200);
    });

    it("an agent app list matches only those agent apps", async () => {
      const second = await createAgentApp(world.broker, tenant, "untrusted bot");
      await putPolicy(world.broker, tenant, [{ id: "untrusted-bot", effect: "deny", agent_apps: [second.agentAppId] }]);
      expectDenied(await getRepository("hello-world", tenant, second.token), "untrusted-bot");
      expect((await getRepository("hello-world")).status).toBe(200);
    });
  });

  describe("effects", () => {
    it("allow lets a high-risk tool run without approval: the repository is deleted at once", async () => {
      const fresh = await createScmTenant(world, "Trusting");
      await putPolicy(world.broker, fresh, [{ id: "delete-notes", effect: "allow", tools: ["scm.delete_repository"], conditions: [{ pointer: "/repo", equals: "private-notes" }] }]);
      const result = await execute(world.broker, deletion(fresh, "private-notes"));
      expect(result.status, result.text).toBe(200);
      expect(deleteCalls(world, fresh, "private-notes")).toBe(1);
      expect(await repoExists(world, fresh, "private-notes")).toBe(false);
      expect(await outboxEvents(world.broker, fresh.tenantId, "approval.requested")).toEqual([]);
      await requestApproval(world.broker, deletion(fresh, "hello-world"));
    });

    it("deny refuses a low-risk tool with 403 policy_denied naming the rule id, not its content, and calls nothing", async () => {
      const rule = { id: "read-freeze", description: "Quarterly freeze, ask Dana", effect: "deny", tools: ["scm.get_repository"], conditions: [{ pointer: "/repo", regex: "^hello-w.rld$" }] };
      await putPolicy(world.broker, tenant, [rule]);
      const before = world.github.stats.apiCalls.length;
      const result = await getRepository("hello-world");
      expectDenied(result, "read-freeze");
      expect(result.body.error.message).toContain("read-freeze");
      expect(result.text).not.toContain("Quarterly freeze");
      expect(result.text).not.toContain("hello-w.rld");
      expect(world.github.stats.apiCalls.length).toBe(before);
    });

    it("says a deny rule's reason to the caller, in the message and details.reason (issue 41, item 7)", async () => {
      const rule = { id: "read-freeze", description: "Dana's call", reason: "Reads pause during the audit", effect: "deny", tools: ["scm.get_repository"] };
      await putPolicy(world.broker, tenant, [rule]);
      const result = await getRepository("hello-world");
      expectError(result, 403, "policy_denied");
      expect(result.body.error.message).toBe('policy rule "read-freeze" denies this call: Reads pause during the audit');
      expect(result.body.error.details).toEqual({ rule_id: "read-freeze", reason: "Reads pause during the audit" });
      expect(result.text).not.toContain("Dana");
    });

    it("refuses a reason on a rule that does not deny, with 422 naming the field", async () => {
      const refused = await call(world.broker, "PUT", "/v1/policy", { ...asOperator(tenant), body: { rules: [{ id: "ask", effect: "require_approval", reason: "x" }] } });
      expectError(refused, 422, "unprocessable");
      expect(refused.body.error.details.fields).toEqual([{ field: "/rules/0/reason", message: "is only allowed on deny rules" }]);
    });

    it("require_approval holds a low-risk tool for a human, naming the rule on the approval", async () => {
      await putPolicy(world.broker, tenant, [{ id: "ask-first", effect: "require_approval", tools: ["scm.list_*"] }]);
      const before = world.github.stats.apiCalls.length;
      const result = await listRepositories();
      expectError(result, 409, "approval_required");
      expect(world.github.stats.apiCalls.length).toBe(before);
      const approval = await call(world.broker, "GET", `/v1/approvals/${result.body.error.details.approval_id}`, asOperator(tenant));
      expect(approval.body).toMatchObject({ status: "pending", tool_name: "scm.list_repositories", rule_id: "ask-first" });
    });

    it("deny also beats the high-risk default", async () => {
      await putPolicy(world.broker, tenant, [{ id: "never-delete", effect: "deny", tools: ["scm.delete_repository"] }]);
      expectDenied(await execute(world.broker, deletion(tenant, "hello-world")), "never-delete");
      expect(deleteCalls(world, tenant, "hello-world")).toBe(0);
    });

    it("a new version applies to the very next call", async () => {
      await putPolicy(world.broker, tenant, [{ id: "freeze", effect: "deny", tools: ["scm.*"] }]);
      expectDenied(await listRepositories(), "freeze");
      await putPolicy(world.broker, tenant, []);
      expect((await listRepositories()).status).toBe(200);
    });

    it("applies the policy of the caller's env only", async () => {
      await putPolicy(world.broker, tenant, [{ id: "live-freeze", effect: "deny", tools: ["scm.*"] }], "live");
      await putPolicy(world.broker, tenant, [], "test");
      expect((await listRepositories()).status).toBe(200);
    });
  });

  describe("first matching rule wins", () => {
    const allowHello = { id: "allow-hello", effect: "allow", conditions: [{ pointer: "/repo", equals: "hello-world" }] };
    const denyAll = { id: "deny-all-scm", effect: "deny", tools: ["scm.*"] };

    it("an earlier allow shadows a later deny", async () => {
      await putPolicy(world.broker, tenant, [allowHello, denyAll]);
      expect((await getRepository("hello-world")).status).toBe(200);
      expectDenied(await getRepository("spoon-knife"), "deny-all-scm");
    });

    it("an earlier deny shadows a later allow", async () => {
      await putPolicy(world.broker, tenant, [denyAll, allowHello]);
      expectDenied(await getRepository("hello-world"), "deny-all-scm");
    });

    it("a rule that does not match falls through to the next, then to the risk default", async () => {
      await putPolicy(world.broker, tenant, [{ id: "only-tracker", effect: "deny", tools: ["tracker.*"] }, { ...allowHello, effect: "require_approval" }]);
      expectError(await getRepository("hello-world"), 409, "approval_required");
      expect((await getRepository("spoon-knife")).status).toBe(200);
    });
  });

  describe("a denied execution", () => {
    it("is audited with outcome denied but never metered", async () => {
      const fresh = await createScmTenant(world, "Metered");
      await putPolicy(world.broker, fresh, [{ id: "deny-hello", effect: "deny", conditions: [{ pointer: "/repo", equals: "hello-world" }] }]);
      expectDenied(await getRepository("hello-world", fresh), "deny-hello");

      const audit = await call(world.broker, "GET", "/v1/audit?outcome=denied", asOperator(fresh));
      expect(audit.body.data).toHaveLength(1);
      expect(audit.body.data[0]).toMatchObject({
        action: "tool.executed",
        outcome: "denied",
        actor: { type: "agent_app", id: fresh.agentAppId },
        agent_app_id: fresh.agentAppId,
        tool_name: "scm.get_repository",
        data: { status: "denied", error_code: "policy_denied", connected_account_id: fresh.connectionId },
      });
      expect((await call(world.broker, "GET", "/v1/usage", asOperator(fresh))).body).toMatchObject({ total: 0, data: [] });

      expect((await getRepository("spoon-knife", fresh)).status).toBe(200);
      const usage = await call(world.broker, "GET", "/v1/usage", asOperator(fresh));
      expect(usage.body.total).toBe(1);
      expect(usage.body.data).toEqual([expect.objectContaining({ tool_name: "scm.get_repository", executions: 1 })]);
    });

    it("waiting for approval is audited but not metered either", async () => {
      const fresh = await createScmTenant(world, "Waiting");
      await requestApproval(world.broker, deletion(fresh, "hello-world"));
      const audit = await call(world.broker, "GET", "/v1/audit?action=tool.approval_requested", asOperator(fresh));
      expect(audit.body.data).toEqual([expect.objectContaining({ tool_name: "scm.delete_repository", data: expect.objectContaining({ status: "awaiting_approval" }) })]);
      expect((await call(world.broker, "GET", "/v1/usage", asOperator(fresh))).body.total).toBe(0);
    });
  });
});
