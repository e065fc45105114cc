/**
 * Issue 16: two broker instances on one PostgreSQL database behind a load balancer that sends each
 * request to the other instance in turn. MCP holds no session in memory, so one client is served
 * alternately by both: an approval asked for on one instance is consumed on the other, and a
 * 2026-07-28 retry's sealed state opens on whichever instance receives it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decide } from "./support/approvals.js";
import { createTenant, startBroker, testMasterKey, type TestBroker, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from "./support/databases.js";
import { startFakeUpstreams, type FakeUpstreams } from "./support/fake-upstreams/index.js";
import { mintBrokerToken } from "./support/http.js";
import { connectLegacyClient, connectModernClient, type ToolCallResult } from "./support/mcp-clients.js";
import { startRoundRobinProxy, type RoundRobinProxy } from "./support/round-robin-proxy.js";


(POSTGRES_URL ? describe : describe.skip)("MCP across two broker instances on PostgreSQL", () => {
  let database: TestDatabase;
  let fakes: FakeUpstreams;
  let proxy: RoundRobinProxy;
  let instances: TestBroker[];
  let tenant: TestTenant;
  let token: string;
  let owner: string;
  /** The load balancer, as the helpers see a broker. */
  let balanced: TestBroker;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    fakes = await startFakeUpstreams();
    proxy = await startRoundRobinProxy();
    // Both share the database, the master key and the public URL (the load balancer's): one broker to the outside.
    const env = { ...fakes.github.env, BROKER_PUBLIC_URL: proxy.url, BROKER_MASTER_KEYS: testMasterKey() };
    instances = [await startBroker("postgres", { database, env }), await startBroker("postgres", { database, env })];
    proxy.setBackends(instances.map((instance) => instance.url));
    balanced = { ...instances[0]!, url: proxy.url, responses: [] };
    tenant = await createTenant(instances[0]!, "Two instances");
    owner = "twin-octocat";
    fakes.github.setUser({ login: owner, id: 4242 });
    await connectAccount(balanced, tenant, "scm");
    token = await mintBrokerToken(balanced, tenant);
  });
  afterAll(async () => {
    for (const instance of instances ?? []) await instance.close();
    await proxy?.close();
    await fakes?.close();
    await database?.drop();
  });

  const deleteCalls = (repo: string) => fakes.github.stats.apiCalls.filter((c) => c.method === "DELETE" && c.path === `/repos/${owner}/${repo}`).length;
  const deletion = (repo: string) => ({ name: "scm.delete_repository", arguments: { owner, repo } });

  it("serves a 2025 client alternately: listed, asked, pending, approved and run once across both instances", async () => {
    const before = new Map(proxy.counts);
    const client = await connectLegacyClient(`${proxy.url}/mcp`, token);
    expect((await client.listTools()).tools.length).toBeGreaterThan(5);
    const asked = (await client.callTool(deletion("hello-world"))) as ToolCallResult;
    const approvalId = asked.structuredContent!.error.details.approval_id as string;
    expect((await client.callTool(deletion("hello-world"))) as ToolCallResult).toMatchObject({ structuredContent: { error: { code: "approval_pending" } } });
    expect((await decide(balanced, tenant, approvalId, "approve")).status).toBe(200);
    const ran = (await client.callTool(deletion("hello-world"))) as ToolCallResult;
    expect(ran.structuredContent).toEqual({ deleted: true, full_name: `${owner}/hello-world` });
    expect(deleteCalls("hello-world")).toBe(1);
    await client.close();
    for (const instance of instances) expect(proxy.counts.get(new URL(instance.url).origin)! - (before.get(new URL(instance.url).origin) ?? 0)).toBeGreaterThan(1);
  });

  it("serves a 2026-07-28 client whose retry, with state sealed by one instance, lands on the other", async () => {
    const served: string[] = [];
    const { client, elicitations } = await connectModernClient(`${proxy.url}/mcp`, token, async ({ url }) => {
      const approvalId = new URL(url).pathname.split("/").pop()!;
      // Straight to one instance, so that the call and its retry are consecutive at the load balancer.
      expect((await decide(instances[0]!, tenant, approvalId, "approve")).status).toBe(200);
      served.push(...proxy.served.slice(-1));
      return "accept";
    });
    const result = (await client.callTool(deletion("spoon-knife"))) as ToolCallResult;
    expect(result.structuredContent).toEqual({ deleted: true, full_name: `${owner}/spoon-knife` });
    expect(elicitations).toHaveLength(1);
    expect(elicitations[0]!.url.startsWith(`${proxy.url}/console/approvals/`)).toBe(true);
    expect(deleteCalls("spoon-knife")).toBe(1);
    // The call that asked and the retry that ran were served by different instances.
    expect(served).toHaveLength(1);
    expect(proxy.served.at(-1)).not.toBe(served[0]);
    await client.close();
  });
});
