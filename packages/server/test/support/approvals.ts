/**
 * Helpers for the policy and approval suites: a broker wired to the fake GitHub with one connected
 * account, and short names for the calls those suites make again and again.
 */
import { expect } from "vitest";
import type { ManualClock } from "../../src/clock.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./broker.js";
import { connectAccount } from "./connect.js";
import type { DbKind } from "./databases.js";
import { startFakeUpstreams, type FakeUpstreams, type GitHubFake } from "./fake-upstreams/index.js";
import { asOperator, call, mintBrokerToken, type CallResult } from "./http.js";

/**
 * A tenant whose agent app holds a broker JWT, with a GitHub account connected in env test. Each
 * has its own GitHub login, so its seeded repositories (hello-world, spoon-knife, private-notes)
 * are its own to delete.
 */
export type ScmTenant = TestTenant & { token: string; connectionId: string; owner: string };

export type ScmWorld = {
  broker: TestBroker;
  fakes: FakeUpstreams;
  github: GitHubFake;
  close(): Promise<void>;
};

export async function startScmWorld(kind: DbKind, options: { clock?: ManualClock; env?: Record<string, string> } = {}): Promise<ScmWorld> {
  const fakes = await startFakeUpstreams(options.clock ? { now: () => options.clock!.now().getTime() } : {});
  const broker = await startBroker(kind, { env: { ...fakes.github.env, ...options.env }, ...(options.clock ? { clock: options.clock } : {}) });
  return {
    broker,
    fakes,
    github: fakes.github,
    close: async () => {
      await broker.close();
      await fakes.close();
    },
  };
}

let logins = 0;

export async function createScmTenant(world: ScmWorld, name = "Acme"): Promise<ScmTenant> {
  const tenant = await createTenant(world.broker, name);
  const owner = `octo-${process.pid}-${++logins}`;
  world.github.setUser({ login: owner, id: 100_000 + logins });
  const connectionId = await connectAccount(world.broker, tenant, "scm");
  return { ...tenant, connectionId, owner, token: await mintBrokerToken(world.broker, tenant) };
}

/** A second agent app in the tenant (POST /v1/agent-apps) and a broker JWT minted for it. */
export async function createAgentApp(broker: TestBroker, tenant: TestTenant, name = "second app") {
  const created = await call(broker, "POST", "/v1/agent-apps", { ...asOperator(tenant), body: { name } });
  expect(created.status, created.text).toBe(201);
  const minted = await call(broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: created.body.id, env: "test" } });
  expect(minted.status, minted.text).toBe(200);
  return { agentAppId: created.body.id as string, token: minted.body.access_token as string };
}

export type ExecuteOptions = { token: string; tool: string; args: Record<string, unknown>; connectionId?: string; approvalId?: string; extra?: Record<string, unknown> };

export const execute = (broker: TestBroker, options: ExecuteOptions) =>
  call(broker, "POST", "/v1/tools/execute", {
    token: options.token,
    body: {
      tool_name: options.tool,
      arguments: options.args,
      ...(options.connectionId ? { connected_account_id: options.connectionId } : {}),
      ...(options.approvalId ? { approval_id: options.approvalId } : {}),
      ...options.extra,
    },
  });

export const continueInvocation = (broker: TestBroker, token: string, invocationId: string) =>
  call(broker, "POST", `/v1/tools/invocations/${invocationId}/continue`, { token });

export const decide = (broker: TestBroker, tenant: TestTenant, approvalId: string, decision: "approve" | "deny", reason?: string) =>
  call(broker, "POST", `/v1/approvals/${approvalId}/decide`, { ...asOperator(tenant), body: { decision, ...(reason ? { reason } : {}) } });

export async function putPolicy(broker: TestBroker, tenant: TestTenant, rules: unknown[], env?: "test" | "live"): Promise<CallResult> {
  const result = await call(broker, "PUT", "/v1/policy", { ...asOperator(tenant), body: { rules, ...(env ? { env } : {}) } });
  expect(result.status, result.text).toBe(200);
  return result;
}

export type PendingApproval = { approval_id: string; invocation_id: string; expires_at: string };

/** Executes a call that needs approval and returns what the 409 approval_required said. */
export async function requestApproval(broker: TestBroker, options: ExecuteOptions): Promise<PendingApproval> {
  const result = await execute(broker, options);
  expect({ status: result.status, code: result.body?.error?.code }, result.text).toEqual({ status: 409, code: "approval_required" });
  return result.body.error.details as PendingApproval;
}

/** Requests deletion of the seeded repository `repo` of the connected account, and approves it. */
export async function approvedDeletion(world: ScmWorld, tenant: ScmTenant, repo: string) {
  const pending = await requestApproval(world.broker, deletion(tenant, repo));
  const decided = await decide(world.broker, tenant, pending.approval_id, "approve");
  expect(decided.status, decided.text).toBe(200);
  return pending;
}

export const deletion = (tenant: ScmTenant, repo: string): ExecuteOptions => ({
  token: tenant.token,
  tool: "scm.delete_repository",
  args: { owner: tenant.owner, repo },
  connectionId: tenant.connectionId,
});

/** Upstream DELETE calls the fake GitHub received for one repository. */
export const deleteCalls = (world: ScmWorld, tenant: ScmTenant, repo: string) =>
  world.github.stats.apiCalls.filter((c) => c.method === "DELETE" && c.path === `/repos/${tenant.owner}/${repo}`).length;

/** Whether the repository still exists at the fake GitHub, asked with the connected account's own tool. */
export async function repoExists(world: ScmWorld, tenant: ScmTenant, repo: string): Promise<boolean> {
  const result = await execute(world.broker, { token: tenant.token, tool: "scm.get_repository", args: { owner: tenant.owner, repo }, connectionId: tenant.connectionId });
  if (result.status === 200) return true;
  expect(result.body?.error?.details?.upstream_status, result.text).toBe(404);
  return false;
}

/** Rows of the events outbox of one type for one tenant, payloads parsed. */
export async function outboxEvents(broker: TestBroker, tenantId: string, type: string) {
  const rows = await broker.services.store.db.selectFrom("events").selectAll().where("tenant_id", "=", tenantId).where("type", "=", type).orderBy("occurred_at").execute();
  return rows.map((row) => JSON.parse(row.payload) as { type: string; timestamp: string; data: Record<string, unknown> });
}
