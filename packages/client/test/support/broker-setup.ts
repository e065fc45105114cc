/**
 * A real broker (the server's own test harness) pointed at the fake GitHub, with a tenant, a
 * connected `scm` account and helpers for what an operator does: policy and approval decisions.
 */
import { readFileSync } from "node:fs";
import type { ManualClock } from "../../../server/src/clock.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "../../../server/test/support/broker.js";
import { connectAccount } from "../../../server/test/support/connect.js";
import type { DbKind } from "../../../server/test/support/databases.js";
import { startFakeUpstreams, type FakeUpstreams } from "../../../server/test/support/fake-upstreams/index.js";
import { asOperator, call, mintBrokerToken } from "../../../server/test/support/http.js";

export type ClientTestBed = {
  broker: TestBroker;
  fakes: FakeUpstreams;
  tenant: TestTenant;
  /** A connected GitHub account (the fake's octocat). */
  accountId: string;
  /** A fresh broker JWT for the tenant's agent app (env test). */
  mintToken(): Promise<string>;
  close(): Promise<void>;
};

export async function startTestBed(options: { env?: Record<string, string>; clock?: ManualClock; kind?: DbKind } = {}): Promise<ClientTestBed> {
  const { clock } = options;
  const fakes = await startFakeUpstreams(clock ? { now: () => clock.now().getTime() } : {});
  const broker = await startBroker(options.kind ?? "sqlite", { env: { ...fakes.github.env, ...options.env }, ...(clock ? { clock } : {}) });
  const tenant = await createTenant(broker);
  const accountId = await connectAccount(broker, tenant, "scm");
  return {
    broker,
    fakes,
    tenant,
    accountId,
    mintToken: () => mintBrokerToken(broker, tenant),
    async close() {
      await broker.close();
      await fakes.close();
    },
  };
}

/** Replaces the tenant's policy for env test (operator API). */
export async function putPolicy(bed: ClientTestBed, rules: unknown[]) {
  const result = await call(bed.broker, "PUT", "/v1/policy", { ...asOperator(bed.tenant), body: { env: "test", rules } });
  if (result.status !== 200) throw new Error(`policy update failed: ${result.status} ${result.text}`);
}

/** An operator approves or denies a pending approval through `POST /v1/approvals/{id}/decide`. */
export async function decide(bed: ClientTestBed, approvalId: string, decision: "approve" | "deny") {
  const result = await call(bed.broker, "POST", `/v1/approvals/${approvalId}/decide`, { ...asOperator(bed.tenant), body: { decision } });
  if (result.status !== 200) throw new Error(`decide failed: ${result.status} ${result.text}`);
  return result.body as { status: string };
}

/** Waits until the operator queue shows a pending approval, then decides it. */
export async function decideWhenPending(bed: ClientTestBed, decision: "approve" | "deny", timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const pending = await call(bed.broker, "GET", "/v1/approvals", asOperator(bed.tenant));
    const first = (pending.body?.data as { approval_id: string }[] | undefined)?.[0];
    if (first) {
      await decide(bed, first.approval_id, decision);
      return first.approval_id;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error("no approval became pending");
}

/** GitHub API calls the broker made for a method and path, e.g. DELETE /repos/octocat/hello-world. */
export const upstreamCalls = (bed: ClientTestBed, method: string, path: string) =>
  bed.fakes.github.stats.apiCalls.filter((recorded) => recorded.method === method && recorded.path === path).length;

/**
 * Declares a tenant-defined `tasks` provider and imports the fake tasks API's OpenAPI document
 * into it, so adapter tests cover imported tools too. The base URL is never called.
 */
export async function importTenantTools(bed: Pick<ClientTestBed, "broker" | "tenant">) {
  const document = readFileSync(new URL("../../../server/test/support/fake-tasks-openapi.yaml", import.meta.url), "utf8");
  const declaration = { id: "tasks", display_name: "Tasks", api_base_url: "http://127.0.0.1:9/api", auth: { type: "api_key", in: "header", name: "X-Api-Key" } };
  const provider = await call(bed.broker, "POST", "/v1/providers", { ...asOperator(bed.tenant), body: { declaration } });
  if (provider.status !== 201) throw new Error(`provider not declared: ${provider.status} ${provider.text}`);
  const imported = await call(bed.broker, "POST", "/v1/providers/tasks/tools/import", { ...asOperator(bed.tenant), body: { document } });
  if (imported.status !== 200) throw new Error(`import failed: ${imported.status} ${imported.text}`);
}
