/**
 * Issue 16: the steps a person takes, carried in-band. A 2026-07-28 client is asked to open the
 * approval page (or the end user's connect page) and retries by itself; a 2025 client gets the
 * link in an error result and calls the identical tool again. Either way the approved call runs
 * exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScmTenant, decide, deleteCalls, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { createTenant, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { completeAuthorization } from "./support/fake-upstreams/index.js";
import { call } from "./support/http.js";
import { connectLegacyClient, connectModernClient, type ElicitationAnswer, type LegacyVersion, type ToolCallResult } from "./support/mcp-clients.js";
import { startToolWorld, type ToolWorld } from "./support/tool-execution.js";


const HTML = { accept: "text/html" };
const approvalIdOf = (url: string) => /\/console\/approvals\/([0-9a-f-]{36})\?tenant=[0-9a-f-]{36}$/.exec(url)?.[1];

describeEachDatabase("MCP: approvals in-band", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;
  let mcpUrl: string;

  beforeAll(async () => {
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world);
    mcpUrl = `${world.broker.url}/mcp`;
  });
  afterAll(async () => world?.close());

  const deletion = (repo: string) => ({ name: "scm.delete_repository", arguments: { owner: tenant.owner, repo } });

  describe("a 2026-07-28 client", () => {
    /** A client whose user, shown the approval link, has an approver decide (or not) and then answers. */
    const clientWhoseApprover = async (decision: "approve" | "deny" | undefined, answer: ElicitationAnswer = "accept") =>
      connectModernClient(mcpUrl, tenant.token, async ({ url }) => {
        const approvalId = approvalIdOf(url);
        expect(approvalId, url).toBeTruthy();
        if (decision) expect((await decide(world.broker, tenant, approvalId!, decision)).status).toBe(200);
        return answer;
      });

    it("is asked to open the console's approval page, and the approved call runs exactly once", async () => {
      const { client, elicitations } = await clientWhoseApprover("approve");
      const result = (await client.callTool(deletion("hello-world"))) as ToolCallResult;
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toEqual({ deleted: true, full_name: `${tenant.owner}/hello-world` });
      expect(elicitations).toHaveLength(1);
      expect(elicitations[0]!.url).toMatch(new RegExp(`^${world.broker.config.publicUrl}/console/approvals/[0-9a-f-]{36}\\?tenant=${tenant.tenantId}$`));
      expect(elicitations[0]!.message).toMatch(/approve/);
      expect(deleteCalls(world, tenant, "hello-world")).toBe(1);
      const approval = await call(world.broker, "GET", `/v1/approvals/${approvalIdOf(elicitations[0]!.url)}`, { token: tenant.operatorToken, tenant: tenant.tenantId });
      expect(approval.body.status).toBe("consumed");
      await client.close();
    });

    it("gets policy_denied when the approver denies, and nothing is sent", async () => {
      const { client } = await clientWhoseApprover("deny");
      const result = (await client.callTool(deletion("spoon-knife"))) as ToolCallResult;
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: "policy_denied" } });
      expect(deleteCalls(world, tenant, "spoon-knife")).toBe(0);
      await client.close();
    });

    it("is asked again while nobody has decided, and hears approval_pending with the link once its user declines", async () => {
      let asked = 0;
      const { client } = await connectModernClient(mcpUrl, tenant.token, async () => (++asked < 3 ? "accept" : "decline"));
      const result = (await client.callTool(deletion("private-notes"))) as ToolCallResult;
      expect(asked).toBe(3);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: "approval_pending", details: { approval_url: expect.stringMatching(/\/console\/approvals\//) } } });
      expect(deleteCalls(world, tenant, "private-notes")).toBe(0);
      await client.close();
    });

    it("refuses a requestState it did not seal for this call", async () => {
      const forged = await call(world.broker, "POST", "/mcp", {
        token: tenant.token,
        headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "scm.delete_repository" },
        body: {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            ...deletion("private-notes"),
            requestState: "mk1.test-1.AAAA.BBBB.CCCC",
            inputResponses: { approval: { action: "accept" } },
            _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "x", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} },
          },
        },
      });
      expect(forged.text).toMatch(/Invalid or expired requestState/);
      expect(deleteCalls(world, tenant, "private-notes")).toBe(0);
      expect((await call(world.broker, "GET", "/health")).body.vault.status).toBe("ok");
    });
  });

  describe.each<LegacyVersion>(["2025-11-25", "2025-06-18"])("a %s client", (version) => {
    it("gets the approval link in an error result, pending until decided, and the identical call then runs once", async () => {
      // A tenant of its own: its GitHub login has its own seeded repositories, and no approvals yet.
      const tenant = await createScmTenant(world, `Legacy ${version}`);
      const deletion = (repo: string) => ({ name: "scm.delete_repository", arguments: { owner: tenant.owner, repo } });
      const repo = "hello-world";
      const client = await connectLegacyClient(mcpUrl, tenant.token, version);
      const first = (await client.callTool(deletion(repo))) as ToolCallResult;
      expect(first.isError).toBe(true);
      expect(first.structuredContent).toMatchObject({
        error: { code: "approval_required", details: { approval_id: expect.any(String), expires_at: expect.any(String), approval_url: expect.stringContaining("/console/approvals/") } },
      });
      expect(first.content[0]!.text).toMatch(/call the tool again with the same arguments/);
      const approvalId = first.structuredContent!.error.details.approval_id as string;

      const early = (await client.callTool(deletion(repo))) as ToolCallResult;
      expect(early.structuredContent).toMatchObject({ error: { code: "approval_pending", details: { approval_id: approvalId } } });
      const otherArguments = (await client.callTool(deletion("spoon-knife"))) as ToolCallResult;
      expect(otherArguments.structuredContent!.error.details.approval_id).not.toBe(approvalId);

      expect((await decide(world.broker, tenant, approvalId, "approve")).status).toBe(200);
      const approved = (await client.callTool(deletion(repo))) as ToolCallResult;
      expect(approved.isError ?? false, approved.content[0]?.text).toBe(false);
      expect(approved.structuredContent).toEqual({ deleted: true, full_name: `${tenant.owner}/${repo}` });
      expect(world.github.stats.apiCalls.filter((c) => c.method === "DELETE" && c.path === `/repos/${tenant.owner}/${repo}`)).toHaveLength(1);

      const again = (await client.callTool(deletion(repo))) as ToolCallResult;
      expect(again.structuredContent).toMatchObject({ error: { code: "approval_required" } });
      expect(again.structuredContent!.error.details.approval_id).not.toBe(approvalId);
      await client.close();
    });
  });
});

describeEachDatabase("MCP: connecting an end user's account in-band", (kind) => {
  let world: ToolWorld;
  let tenant: TestTenant;
  let mcpUrl: string;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    tenant = await createTenant(world.broker, "Initech");
    mcpUrl = `${world.broker.url}/mcp`;
  });
  afterAll(async () => world?.close());

  const tokenFor = async (endUserId?: string) => {
    const minted = await call(world.broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test", ...(endUserId ? { end_user_id: endUserId } : {}) } });
    expect(minted.status, minted.text).toBe(200);
    return minted.body.access_token as string;
  };

  /** The end user opens the connect page, picks GitHub and approves at the (fake) provider. */
  async function connectThroughPage(connectUrl: string) {
    const path = (url: string) => new URL(url).pathname + new URL(url).search;
    expect((await call(world.broker, "GET", path(connectUrl), { headers: HTML })).status).toBe(200);
    const start = await call(world.broker, "GET", `${path(connectUrl)}/scm`, { headers: HTML });
    expect(start.status, start.text).toBe(302);
    const cookie = start.headers.get("set-cookie")!.split(";")[0]!;
    const authorization = await completeAuthorization(start.headers.get("location")!);
    const callback = await call(world.broker, "GET", path(authorization.location!.toString()), { headers: { ...HTML, cookie } });
    expect(callback.status, callback.text).toBeLessThan(400);
  }

  it("asks a 2026-07-28 client to open the end user's connect page, then runs the call on the new account", async () => {
    world.fakes.github.setUser({ login: "erin-gh", id: 7001 });
    const { client, elicitations } = await connectModernClient(mcpUrl, await tokenFor("erin"), async ({ url }) => {
      await connectThroughPage(url);
      return "accept";
    });
    const result = (await client.callTool({ name: "scm.get_authenticated_user", arguments: {} })) as ToolCallResult;
    expect(result.isError ?? false, result.content[0]?.text).toBe(false);
    expect(result.structuredContent).toMatchObject({ login: "erin-gh" });
    expect(elicitations).toHaveLength(1);
    expect(elicitations[0]!.url).toMatch(new RegExp(`^${world.broker.config.publicUrl}/connect/cs_`));
    const connections = await call(world.broker, "GET", "/v1/connections", { token: tenant.operatorToken, tenant: tenant.tenantId });
    expect(connections.body.data.filter((c: { end_user_id: string | null }) => c.end_user_id === "erin")).toHaveLength(1);
    await client.close();
  });

  it("gives a 2025 client the connect link in an error result; the identical call works once connected", async () => {
    world.fakes.github.setUser({ login: "frank-gh", id: 7002 });
    const client = await connectLegacyClient(mcpUrl, await tokenFor("frank"));
    const first = (await client.callTool({ name: "scm.get_authenticated_user", arguments: {} })) as ToolCallResult;
    expect(first.isError).toBe(true);
    expect(first.structuredContent).toMatchObject({ error: { code: "credential_required", details: { provider: "scm", connect_url: expect.stringContaining("/connect/cs_") } } });
    await connectThroughPage(first.structuredContent!.error.details.connect_url);
    const second = (await client.callTool({ name: "scm.get_authenticated_user", arguments: {} })) as ToolCallResult;
    expect(second.structuredContent).toMatchObject({ login: "frank-gh" });
    await client.close();
  });

  it("offers no connect link to an agent without an end user: an operator connects shared accounts", async () => {
    const client = await connectLegacyClient(mcpUrl, await tokenFor());
    const result = (await client.callTool({ name: "tracker.list_issues", arguments: {} })) as ToolCallResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: "credential_required" } });
    expect(result.structuredContent!.error.details.connect_url).toBeUndefined();
    await client.close();
  });
});
