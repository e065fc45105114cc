/**
 * End users in policy and usage: rules scoped with `end_users` (a list, "any" or "none") on
 * execute, on continue (the invocation's end user counts, not the continuing caller's) and in
 * simulate; faulty `end_users` refused on write; GET /v1/usage filtered and grouped by end user.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import type { TestBroker, TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, type CallResult } from "./support/http.js";
import {
  continueInvocation,
  createScmTenant,
  decide,
  deleteCalls,
  deletion,
  execute,
  putPolicy,
  requestApproval,
  startScmWorld,
  type ScmTenant,
  type ScmWorld,
} from "./support/approvals.js";

type UsageRow = { period: string; env: string; agent_app_id: string; tool_name: string; end_user_id?: string | null; executions: number };
type Usage = { from: string; to: string; total: number; data: UsageRow[] };

/** A broker JWT of the tenant's agent app acting for `endUserId` (POST /v1/broker/token with the control key). */
async function endUserToken(broker: TestBroker, tenant: TestTenant, endUserId: string) {
  const minted = await call(broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test", end_user_id: endUserId } });
  expect(minted.status, minted.text).toBe(200);
  return minted.body.access_token as string;
}

function expectDenied(result: CallResult, ruleId: string) {
  expectError(result, 403, "policy_denied");
  expect(result.body.error.details).toMatchObject({ rule_id: ruleId });
}

describeEachDatabase("end users in policy and usage", (kind) => {
  const clock = manualClock(new Date("2026-03-15T12:00:00.000Z"));
  let world: ScmWorld;

  beforeAll(async () => {
    world = await startScmWorld(kind, { clock });
  });
  afterAll(() => world.close());

  /** A fresh tenant with broker JWTs for alice, bob and for no end user (`token`). */
  async function tenantWithEndUsers(name: string) {
    const tenant = await createScmTenant(world, name);
    return { tenant, alice: await endUserToken(world.broker, tenant, "alice"), bob: await endUserToken(world.broker, tenant, "bob") };
  }

  const getRepository = (tenant: ScmTenant, token: string, extra: Record<string, unknown> = {}) =>
    execute(world.broker, { token, tool: "scm.get_repository", args: { owner: tenant.owner, repo: "hello-world" }, connectionId: tenant.connectionId, extra });

  describe("rules scoped to end users on execute", () => {
    it("a list denies its end users' calls only: alice is denied, bob and a call for no end user run", async () => {
      const { tenant, alice, bob } = await tenantWithEndUsers("Listed");
      await putPolicy(world.broker, tenant, [{ id: "no-alice", effect: "deny", tools: ["scm.get_repository"], end_users: ["alice"] }]);
      const before = world.github.stats.apiCalls.length;
      expectDenied(await getRepository(tenant, alice), "no-alice");
      expect(world.github.stats.apiCalls.length).toBe(before);
      expect((await getRepository(tenant, bob)).status).toBe(200);
      expect((await getRepository(tenant, tenant.token)).status).toBe(200);
    });

    it("a control key naming the end user in the body is matched the same way", async () => {
      const { tenant } = await tenantWithEndUsers("Keyed");
      await putPolicy(world.broker, tenant, [{ id: "no-alice", effect: "deny", end_users: ["alice"] }]);
      expectDenied(await getRepository(tenant, tenant.testKey, { agent_app_id: tenant.agentAppId, end_user_id: "alice" }), "no-alice");
      expect((await getRepository(tenant, tenant.testKey, { agent_app_id: tenant.agentAppId, end_user_id: "bob" })).status).toBe(200);
      expect((await getRepository(tenant, tenant.testKey, { agent_app_id: tenant.agentAppId })).status).toBe(200);
    });

    it('compares ids exactly: "Alice" is not "alice"', async () => {
      const { tenant } = await tenantWithEndUsers("Exact");
      await putPolicy(world.broker, tenant, [{ id: "no-alice", effect: "deny", end_users: ["alice"] }]);
      expect((await getRepository(tenant, await endUserToken(world.broker, tenant, "Alice"))).status).toBe(200);
    });

    it('"any" matches every call acting for an end user, and no other', async () => {
      const { tenant, alice, bob } = await tenantWithEndUsers("Any");
      await putPolicy(world.broker, tenant, [{ id: "no-end-users", effect: "deny", end_users: "any" }]);
      expectDenied(await getRepository(tenant, alice), "no-end-users");
      expectDenied(await getRepository(tenant, bob), "no-end-users");
      expect((await getRepository(tenant, tenant.token)).status).toBe(200);
    });

    it('"none" matches only calls acting for no end user', async () => {
      const { tenant, alice } = await tenantWithEndUsers("None");
      await putPolicy(world.broker, tenant, [{ id: "end-users-only", effect: "deny", end_users: "none" }]);
      expectDenied(await getRepository(tenant, tenant.token), "end-users-only");
      expectDenied(await getRepository(tenant, tenant.testKey, { agent_app_id: tenant.agentAppId }), "end-users-only");
      expect((await getRepository(tenant, alice)).status).toBe(200);
    });

    it("first match still wins: an allow for alice before a deny for any end user", async () => {
      const { tenant, alice, bob } = await tenantWithEndUsers("Ordered");
      await putPolicy(world.broker, tenant, [
        { id: "alice-ok", effect: "allow", end_users: ["alice"] },
        { id: "no-end-users", effect: "deny", end_users: "any" },
      ]);
      expect((await getRepository(tenant, alice)).status).toBe(200);
      expectDenied(await getRepository(tenant, bob), "no-end-users");
    });

    it("a rule without end_users matches with or without an end user, and the document keeps end_users as written", async () => {
      const { tenant, alice } = await tenantWithEndUsers("Unscoped");
      const rules = [
        { id: "listed", effect: "allow", tools: ["scm.list_repositories"], end_users: ["alice", "bob"] },
        { id: "any", effect: "allow", tools: ["scm.list_repositories"], end_users: "any" },
        { id: "all", effect: "deny", tools: ["scm.get_repository"] },
      ];
      await putPolicy(world.broker, tenant, rules);
      expectDenied(await getRepository(tenant, alice), "all");
      expectDenied(await getRepository(tenant, tenant.token), "all");
      expect((await call(world.broker, "GET", "/v1/policy", asOperator(tenant))).body.rules).toEqual(rules);
    });
  });

  describe("continue re-checks the policy with the invocation's end user", () => {
    it("a deny rule for alice added after approval stops alice's call, however it is continued; bob's runs", async () => {
      const { tenant, alice, bob } = await tenantWithEndUsers("Continued");
      const pendingAlice = await requestApproval(world.broker, { ...deletion(tenant, "hello-world"), token: alice });
      const pendingBob = await requestApproval(world.broker, { ...deletion(tenant, "spoon-knife"), token: bob });
      for (const pending of [pendingAlice, pendingBob]) expect((await decide(world.broker, tenant, pending.approval_id, "approve")).status).toBe(200);
      await putPolicy(world.broker, tenant, [{ id: "no-alice-deletes", effect: "deny", tools: ["scm.delete_repository"], end_users: ["alice"] }]);

      // The control key acts for no end user: still denied, the call is alice's.
      expectDenied(await continueInvocation(world.broker, tenant.testKey, pendingAlice.invocation_id), "no-alice-deletes");
      expect(deleteCalls(world, tenant, "hello-world")).toBe(0);
      expectError(await continueInvocation(world.broker, alice, pendingAlice.invocation_id), 403, "policy_denied");
      expect(deleteCalls(world, tenant, "hello-world")).toBe(0);

      const continued = await continueInvocation(world.broker, bob, pendingBob.invocation_id);
      expect(continued.status, continued.text).toBe(200);
      expect(deleteCalls(world, tenant, "spoon-knife")).toBe(1);
    });

    it('a "none" rule does not stop an end user\'s call continued by a control key acting for no end user', async () => {
      const { tenant, alice } = await tenantWithEndUsers("Continued none");
      const pending = await requestApproval(world.broker, { ...deletion(tenant, "private-notes"), token: alice });
      expect((await decide(world.broker, tenant, pending.approval_id, "approve")).status).toBe(200);
      await putPolicy(world.broker, tenant, [{ id: "own-deletes-only", effect: "deny", tools: ["scm.delete_repository"], end_users: "none" }]);
      const continued = await continueInvocation(world.broker, tenant.testKey, pending.invocation_id);
      expect(continued.status, continued.text).toBe(200);
      expect(deleteCalls(world, tenant, "private-notes")).toBe(1);
    });
  });

  describe("simulate", () => {
    const simulate = (tenant: TestTenant, body: Record<string, unknown>) =>
      call(world.broker, "POST", "/v1/policy/simulate", { ...asOperator(tenant), body: { agent_app_id: tenant.agentAppId, env: "test", tool_name: "scm.get_repository", arguments: {}, ...body } });

    it("decides for the end_user_id given, and for no end user without one", async () => {
      const { tenant } = await tenantWithEndUsers("Simulated");
      await putPolicy(world.broker, tenant, [
        { id: "no-alice", effect: "deny", end_users: ["alice"] },
        { id: "own-ask", effect: "require_approval", end_users: "none" },
      ]);
      expect((await simulate(tenant, { end_user_id: "alice" })).body).toEqual({ decision: "deny", rule_id: "no-alice", reason: "rule", policy_version: 1, risk: "low" });
      expect((await simulate(tenant, { end_user_id: "bob" })).body).toMatchObject({ decision: "allow", rule_id: null, reason: "default_low_risk" });
      expect((await simulate(tenant, {})).body).toMatchObject({ decision: "require_approval", rule_id: "own-ask" });
    });

    it("refuses an end_user_id that is not one (400 naming the field and the fault)", async () => {
      const { tenant } = await tenantWithEndUsers("Simulated badly");
      for (const [end_user_id, message] of [["", /must match pattern/], ["ali\u0007ce", /must match pattern/], ["x".repeat(256), /must match pattern/], [7, /must be string/]] as const) {
        const result = await simulate(tenant, { end_user_id });
        expectError(result, 400, "invalid_request");
        expect(result.body.error.details.fields[0]).toEqual({ location: "body", field: "/end_user_id", message: expect.stringMatching(message) });
      }
    });
  });

  describe("faulty end_users on write", () => {
    let tenant: ScmTenant;
    beforeAll(async () => {
      ({ tenant } = await tenantWithEndUsers("Validated"));
    });

    it.each([
      ["an empty list", [], "/rules/1/end_users", /fewer than 1 items/],
      ["a number", 5, "/rules/1/end_users", /must be array/],
      ["an object", { ids: ["alice"] }, "/rules/1/end_users", /must be array/],
      ["another word", "all", "/rules/1/end_users", /must be array/],
      ["more than 100 ids", Array.from({ length: 101 }, (_, i) => `user-${i}`), "/rules/1/end_users", /more than 100 items/],
      ["a non-string id", ["alice", 42], "/rules/1/end_users/1", /must be string/],
      ["an empty id", ["alice", ""], "/rules/1/end_users/1", /must match pattern/],
      ["an id with a control character", ["alice", "bo\u0007b"], "/rules/1/end_users/1", /must match pattern/],
      ["an id with a newline", ["alice\n"], "/rules/1/end_users/0", /must match pattern/],
      ["an id over 255 characters", ["alice", "x".repeat(256)], "/rules/1/end_users/1", /must match pattern/],
    ])("refuses %s with 422 naming the path, and keeps the version", async (_name, endUsers, field, message) => {
      const before = (await call(world.broker, "GET", "/v1/policy", asOperator(tenant))).body;
      const result = await call(world.broker, "PUT", "/v1/policy", { ...asOperator(tenant), body: { rules: [{ id: "ok", effect: "allow" }, { id: "bad", effect: "deny", end_users: endUsers }] } });
      expectError(result, 422, "unprocessable");
      expect(result.body.error.details.fields[0]).toEqual({ location: "body", field, message: expect.stringMatching(message) });
      expect((await call(world.broker, "GET", "/v1/policy", asOperator(tenant))).body).toEqual(before);
    });

    it("accepts ids of exactly 255 characters, with spaces and non-ASCII letters", async () => {
      await putPolicy(world.broker, tenant, [{ id: "edge", effect: "deny", end_users: ["x".repeat(255), "Zoë Müller", "user@example.com"] }]);
    });
  });

  describe("GET /v1/usage by end user", () => {
    let tenant: ScmTenant;
    const usage = async (query = "") => {
      const result = await call<Usage>(world.broker, "GET", `/v1/usage${query}`, asOperator(tenant));
      expect(result.status, result.text).toBe(200);
      return result.body;
    };
    const row = (tool_name: string, executions: number, extra: Partial<UsageRow> = {}): UsageRow => ({
      period: "2026-03",
      env: "test",
      agent_app_id: tenant.agentAppId,
      tool_name,
      ...extra,
      executions,
    });

    beforeAll(async () => {
      const metered = await tenantWithEndUsers("Metered");
      tenant = metered.tenant;
      const { alice, bob } = metered;
      for (const token of [alice, alice, bob, tenant.token]) expect((await getRepository(tenant, token)).status).toBe(200);
      // A control key acting for alice counts toward alice.
      expect((await getRepository(tenant, tenant.testKey, { agent_app_id: tenant.agentAppId, end_user_id: "alice" })).status).toBe(200);
      // An approved call of bob's, continued by a control key acting for no end user, still counts toward bob.
      const pending = await requestApproval(world.broker, { ...deletion(tenant, "hello-world"), token: bob });
      expect((await decide(world.broker, tenant, pending.approval_id, "approve")).status).toBe(200);
      expect((await continueInvocation(world.broker, tenant.testKey, pending.invocation_id)).status).toBe(200);
    });

    it("group_by=end_user adds end_user_id to each row, null (for no end user) first; without it rows count every end user together", async () => {
      expect(await usage("?group_by=end_user")).toEqual({
        from: "2026-03",
        to: "2026-03",
        total: 6,
        data: [
          row("scm.delete_repository", 1, { end_user_id: "bob" }),
          row("scm.get_repository", 1, { end_user_id: null }),
          row("scm.get_repository", 3, { end_user_id: "alice" }),
          row("scm.get_repository", 1, { end_user_id: "bob" }),
        ],
      });
      expect(await usage()).toEqual({ from: "2026-03", to: "2026-03", total: 6, data: [row("scm.delete_repository", 1), row("scm.get_repository", 5)] });
    });

    it("end_user_id counts only that end user's executions, alone or with group_by", async () => {
      expect(await usage("?end_user_id=alice")).toEqual({ from: "2026-03", to: "2026-03", total: 3, data: [row("scm.get_repository", 3)] });
      expect((await usage("?end_user_id=bob&group_by=end_user")).data).toEqual([
        row("scm.delete_repository", 1, { end_user_id: "bob" }),
        row("scm.get_repository", 1, { end_user_id: "bob" }),
      ]);
      expect(await usage("?end_user_id=carol")).toMatchObject({ total: 0, data: [] });
      expect((await usage(`?end_user_id=${encodeURIComponent("Zoë Müller")}`)).total).toBe(0);
    });

    it("refuses an unknown group_by and an end_user_id that is not one (400 naming the field and the fault)", async () => {
      const faults = [
        ["?group_by=tool", "/group_by", /allowed values/],
        ["?group_by=", "/group_by", /allowed values/],
        ["?end_user_id=", "/end_user_id", /must match pattern/],
        [`?end_user_id=${"x".repeat(256)}`, "/end_user_id", /must match pattern/],
        ["?end_user_id=a%07b", "/end_user_id", /must match pattern/],
      ] as const;
      for (const [query, field, message] of faults) {
        const result = await call(world.broker, "GET", `/v1/usage${query}`, asOperator(tenant));
        expectError(result, 400, "invalid_request");
        expect(result.body.error.details.fields[0]).toEqual({ location: "querystring", field, message: expect.stringMatching(message) });
      }
    });
  });
});
