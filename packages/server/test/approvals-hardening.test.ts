import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";
import { approvedDeletion, continueInvocation, createScmTenant, deleteCalls, putPolicy, requestApproval, deletion, startScmWorld, type ScmWorld } from "./support/approvals.js";

describeEachDatabase("approvals hardening", (kind) => {
  const clock = manualClock(new Date("2026-03-10T09:00:00.000Z"));
  let world: ScmWorld;
  beforeAll(async () => {
    world = await startScmWorld(kind, { clock, env: { BROKER_APPROVAL_TTL_SECONDS: "3600" } });
  });
  afterAll(() => world.close());

  it("records the approval id on the waiting invocation from the start", async () => {
    const tenant = await createScmTenant(world);
    const pending = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const shown = await call(world.broker, "GET", `/v1/tools/invocations/${pending.invocation_id}`, { token: tenant.token });
    expect(shown.body).toMatchObject({ status: "awaiting_approval", approval_id: pending.approval_id });
  });

  it("re-checks policy on continue: a deny rule added after the approval wins, and nothing is called upstream", async () => {
    const tenant = await createScmTenant(world);
    const pending = await approvedDeletion(world, tenant, "spoon-knife");
    await putPolicy(world.broker, tenant, [{ id: "freeze-deletes", effect: "deny", tools: ["scm.delete_repository"] }]);
    const resumed = await continueInvocation(world.broker, tenant.token, pending.invocation_id);
    expect(resumed.status).toBe(403);
    expect(resumed.body.error).toMatchObject({ code: "policy_denied", details: { rule_id: "freeze-deletes" } });
    expect(deleteCalls(world, tenant, "spoon-knife")).toBe(0);
    const shown = await call(world.broker, "GET", `/v1/tools/invocations/${pending.invocation_id}`, { token: tenant.token });
    expect(shown.body.status).toBe("denied");
  });

  it("shows an approved but unused approval as expired once its time has passed", async () => {
    const tenant = await createScmTenant(world);
    const pending = await approvedDeletion(world, tenant, "hello-world");
    clock.advance(3601_000);
    const shown = await call(world.broker, "GET", `/v1/approvals/${pending.approval_id}`, asOperator(tenant));
    expect(shown.body.status).toBe("expired");
    // The agent's 15-minute JWT is long gone too; the backend's control key may continue.
    const resumed = await continueInvocation(world.broker, tenant.testKey, pending.invocation_id);
    expect(resumed.body.error.code).toBe("approval_expired");
  });

  it("refuses a policy regex RE2 cannot run in linear time (a backreference), naming its path", async () => {
    const tenant = await createScmTenant(world);
    const result = await call(world.broker, "PUT", "/v1/policy", {
      ...asOperator(tenant),
      body: { rules: [{ id: "r1", effect: "deny", conditions: [{ pointer: "/repo", regex: "^(a+)\\1$" }] }] },
    });
    expect(result.status).toBe(422);
    expect(result.body.error.details.fields[0].field).toBe("/rules/0/conditions/0/regex");
  });

  it("compares equals conditions on objects regardless of key order", async () => {
    const tenant = await createScmTenant(world);
    await putPolicy(world.broker, tenant, [{ id: "exact", effect: "deny", tools: ["scm.create_issue"], conditions: [{ pointer: "/labels", equals: ["a", "b"] }] }]);
    const simulated = await call(world.broker, "POST", "/v1/policy/simulate", {
      ...asOperator(tenant),
      body: { agent_app_id: tenant.agentAppId, env: "test", tool_name: "scm.create_issue", arguments: { title: "t", owner: "o", repo: "r", labels: ["a", "b"] } },
    });
    expect(simulated.body).toMatchObject({ decision: "deny", rule_id: "exact" });
  });
});
