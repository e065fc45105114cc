/**
 * An approval authorises exactly one call: the same tenant, env, agent app, tool, connected account
 * and arguments (by canonical fingerprint). Any look-alike is refused with a code that says why,
 * runs nothing upstream, and leaves the approval usable for the call it was granted for.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectAccount } from "./support/connect.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken, type CallResult } from "./support/http.js";
import {
  approvedDeletion,
  continueInvocation,
  createAgentApp,
  createScmTenant,
  deleteCalls,
  deletion,
  execute,
  putPolicy,
  startScmWorld,
  type ScmTenant,
  type ScmWorld,
} from "./support/approvals.js";

describeEachDatabase("approval replay for a look-alike call", (kind) => {
  let world: ScmWorld;

  beforeAll(async () => {
    world = await startScmWorld(kind);
  });
  afterAll(() => world.close());

  function expectMismatch(result: CallResult, what: string) {
    expectError(result, 409, "approval_mismatch");
    expect(result.body.error.details.mismatch).toBe(what);
  }

  /** The look-alike ran nothing, and the approval still serves the call it was granted for. */
  async function expectApprovalIntact(tenant: ScmTenant, approvalId: string, repo: string) {
    expect(world.github.stats.apiCalls.filter((c) => c.method === "DELETE" && c.path.startsWith(`/repos/${tenant.owner}/`))).toEqual([]);
    expect((await call(world.broker, "GET", `/v1/approvals/${approvalId}`, asOperator(tenant))).body.status).toBe("approved");
    const genuine = await execute(world.broker, { ...deletion(tenant, repo), approvalId });
    expect(genuine.status, genuine.text).toBe(200);
    expect(deleteCalls(world, tenant, repo)).toBe(1);
  }

  it("refuses different arguments with approval_mismatch (arguments)", async () => {
    const tenant = await createScmTenant(world, "Arguments");
    const { approval_id } = await approvedDeletion(world, tenant, "spoon-knife");
    expectMismatch(await execute(world.broker, { ...deletion(tenant, "hello-world"), approvalId: approval_id }), "arguments");
    expectMismatch(await execute(world.broker, { ...deletion(tenant, "spoon-knife"), args: { owner: tenant.owner, repo: "Spoon-Knife" }, approvalId: approval_id }), "arguments");
    await expectApprovalIntact(tenant, approval_id, "spoon-knife");
  });

  it("ignores key order and whitespace in the arguments when comparing them", async () => {
    const tenant = await createScmTenant(world, "Key order");
    const { approval_id } = await approvedDeletion(world, tenant, "hello-world");
    const rawBody = `{ "approval_id" : "${approval_id}",\n  "arguments": {\n    "repo":   "hello-world",\t"owner": "${tenant.owner}" },\n  "connected_account_id": "${tenant.connectionId}", "tool_name": "scm.delete_repository" }`;
    const result = await call(world.broker, "POST", "/v1/tools/execute", { token: tenant.token, rawBody, headers: { "content-type": "application/json" } });
    expect(result.status, result.text).toBe(200);
    expect(deleteCalls(world, tenant, "hello-world")).toBe(1);
  });

  it("refuses another tool that also needs approval with approval_mismatch (tool)", async () => {
    const tenant = await createScmTenant(world, "Tool");
    await putPolicy(world.broker, tenant, [{ id: "reads-need-a-human", effect: "require_approval", tools: ["scm.get_repository"] }]);
    const { approval_id } = await approvedDeletion(world, tenant, "hello-world");
    const before = world.github.stats.apiCalls.length;
    const lookalike = { ...deletion(tenant, "hello-world"), tool: "scm.get_repository", approvalId: approval_id };
    expectMismatch(await execute(world.broker, lookalike), "tool");
    expect(world.github.stats.apiCalls.length).toBe(before);
    await expectApprovalIntact(tenant, approval_id, "hello-world");
  });

  it("refuses another agent app of the same tenant with approval_mismatch (agent_app), and hides the invocation from it", async () => {
    const tenant = await createScmTenant(world, "Agent app");
    const { approval_id, invocation_id } = await approvedDeletion(world, tenant, "hello-world");
    const second = await createAgentApp(world.broker, tenant);
    expectMismatch(await execute(world.broker, { ...deletion(tenant, "hello-world"), token: second.token, approvalId: approval_id }), "agent_app");
    expectError(await continueInvocation(world.broker, second.token, invocation_id), 404, "not_found");
    const viaKey = await call(world.broker, "POST", "/v1/tools/execute", {
      token: tenant.testKey,
      body: { tool_name: "scm.delete_repository", arguments: { owner: tenant.owner, repo: "hello-world" }, connected_account_id: tenant.connectionId, approval_id, agent_app_id: second.agentAppId },
    });
    expectMismatch(viaKey, "agent_app");
    await expectApprovalIntact(tenant, approval_id, "hello-world");
  });

  it("refuses another connected account of the same provider with approval_mismatch (credential)", async () => {
    const tenant = await createScmTenant(world, "Credential");
    const { approval_id } = await approvedDeletion(world, tenant, "hello-world");
    world.github.setUser({ login: `${tenant.owner}-alt`, id: 900_001 });
    const otherAccount = await connectAccount(world.broker, tenant, "scm");
    expect(otherAccount).not.toBe(tenant.connectionId);
    expectMismatch(await execute(world.broker, { ...deletion(tenant, "hello-world"), connectionId: otherAccount, approvalId: approval_id }), "credential");
    await expectApprovalIntact(tenant, approval_id, "hello-world");
  });

  it("refuses the live env for an approval granted in test with approval_mismatch (env)", async () => {
    const tenant = await createScmTenant(world, "Env");
    const { approval_id } = await approvedDeletion(world, tenant, "hello-world");
    const liveAccount = await connectAccount(world.broker, tenant, "scm", { env: "live" });
    const liveToken = await mintBrokerToken(world.broker, tenant, "live");
    expectMismatch(await execute(world.broker, { ...deletion(tenant, "hello-world"), token: liveToken, connectionId: liveAccount, approvalId: approval_id }), "env");
    await expectApprovalIntact(tenant, approval_id, "hello-world");
  });

  it("does not know another tenant's approval (404), even for an identical call", async () => {
    const tenant = await createScmTenant(world, "Owner");
    const intruder = await createScmTenant(world, "Intruder");
    const { approval_id, invocation_id } = await approvedDeletion(world, tenant, "hello-world");
    const lookalike = { ...deletion(intruder, "hello-world"), args: { owner: tenant.owner, repo: "hello-world" }, approvalId: approval_id };
    expectError(await execute(world.broker, lookalike), 404, "not_found");
    expectError(await continueInvocation(world.broker, intruder.token, invocation_id), 404, "not_found");
    await expectApprovalIntact(tenant, approval_id, "hello-world");
  });

  describe("when policy does not require approval", () => {
    it("runs a low-risk call on its own merits; a stray approval_id neither helps nor is consumed", async () => {
      const tenant = await createScmTenant(world, "Stray");
      const { approval_id } = await approvedDeletion(world, tenant, "spoon-knife");
      const read = await execute(world.broker, { ...deletion(tenant, "spoon-knife"), tool: "scm.get_repository", approvalId: approval_id });
      expect(read.status, read.text).toBe(200);
      await expectApprovalIntact(tenant, approval_id, "spoon-knife");
    });

    it("neither records nor checks an approval_id it does not need, even an unknown one", async () => {
      const tenant = await createScmTenant(world, "Unknown approval");
      const strayId = "0b0e3f5c-1f7a-4c7e-9d51-2a4c8f6b7e10";
      const read = await execute(world.broker, { ...deletion(tenant, "spoon-knife"), tool: "scm.get_repository", approvalId: strayId });
      expect(read.status, read.text).toBe(200);
      const invocation = await call(world.broker, "GET", `/v1/tools/invocations/${read.body.invocation_id}`, { token: tenant.token });
      expect(invocation.body.approval_id).toBeNull();
      const audit = await call(world.broker, "GET", `/v1/audit?tool=scm.get_repository`, asOperator(tenant));
      expect(audit.status, audit.text).toBe(200);
      expect(audit.text).not.toContain(strayId);
    });
  });
});
