/**
 * Issue 16: approvals carried in-band. A 2026-07-28 client is asked to open the approval page and
 * retries by itself; a 2025 client gets the link in an error result and calls the identical tool
 * again. Either way the approved call runs exactly once. Connecting an end user's account is never
 * in-band (issue 36): the agent gets no link, the customer's backend gets `connection.required`.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScmTenant, decide, deleteCalls, outboxEvents, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { createTenant, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { connectOnHostedPage, openConnectPage, postConnectForm } from "./support/connect.js";
import { call } from "./support/http.js";
import { connectLegacyClient, connectModernClient, type ElicitationAnswer, type LegacyVersion, type ToolCallResult } from "./support/mcp-clients.js";
import { startToolWorld, type ToolWorld } from "./support/tool-execution.js";


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

    it("reads the approver's denial and reason in the result's text, not only in its structured content (issue 41, item 7)", async () => {
      const reason = "Not before the release is out";
      const { client } = await connectModernClient(mcpUrl, tenant.token, async ({ url }) => {
        expect((await decide(world.broker, tenant, approvalIdOf(url)!, "deny", reason)).status).toBe(200);
        return "accept";
      });
      const result = (await client.callTool(deletion("denied-with-reason"))) as ToolCallResult;
      expect(result.isError).toBe(true);
      expect(result.content.map((block) => block.text)).toEqual([`policy_denied: an approver denied this call: ${reason}`]);
      expect(result.structuredContent).toMatchObject({ error: { code: "policy_denied", details: { reason } } });
      expect(deleteCalls(world, tenant, "denied-with-reason")).toBe(0);
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

    it("reads the approver's denial and reason in the text of the identical call's result, every time it asks (issue 41, item 7)", async () => {
      const repo = `denied-for-${version}`;
      const reason = "Deletions wait for the quarterly review";
      const client = await connectLegacyClient(mcpUrl, tenant.token, version);
      const first = (await client.callTool(deletion(repo))) as ToolCallResult;
      expect(first.structuredContent).toMatchObject({ error: { code: "approval_required" } });
      expect((await decide(world.broker, tenant, first.structuredContent!.error.details.approval_id as string, "deny", reason)).status).toBe(200);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        const denied = (await client.callTool(deletion(repo))) as ToolCallResult;
        expect(denied.isError).toBe(true);
        expect(denied.content.map((block) => block.text)).toEqual([`policy_denied: an approver denied this call: ${reason}`]);
        expect(denied.structuredContent).toMatchObject({ error: { code: "policy_denied", details: { reason } } });
      }
      expect(deleteCalls(world, tenant, repo)).toBe(0);
      await client.close();
    });

    it("reads that no reason was given when the approver gave none", async () => {
      const repo = `denied-silently-${version}`;
      const client = await connectLegacyClient(mcpUrl, tenant.token, version);
      const first = (await client.callTool(deletion(repo))) as ToolCallResult;
      expect((await decide(world.broker, tenant, first.structuredContent!.error.details.approval_id as string, "deny")).status).toBe(200);
      const denied = (await client.callTool(deletion(repo))) as ToolCallResult;
      expect(denied.content[0]!.text).toBe("policy_denied: an approver denied this call: (no reason given)");
      await client.close();
    });
  });
});

/**
 * Issue 36, item 7: an agent must never choose the credential its end user's calls use. A link to a
 * connect page lets whoever holds it attach an account or API key of their choosing, so an agent
 * acting for an end user without an account gets none: it hears `credential_required`, and the
 * customer's backend hears `connection.required` and brings its own user to a connect page.
 */
describeEachDatabase("MCP: an agent never gets a link to connect its end user's account", (kind) => {
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
  const rowsOf = (table: "connect_sessions" | "secret_items" | "connections") =>
    world.broker.services.store.db.selectFrom(table).select("tenant_id").where("tenant_id", "=", tenant.tenantId).execute();
  const requiredFor = async (endUserId: string) =>
    (await outboxEvents(world.broker, tenant.tenantId, "connection.required")).filter((event) => event.data.end_user_id === endUserId);

  /** A malicious agent: whatever URL it is given, it opens the page and posts its own API key there. */
  async function attachOwnKey(url: string): Promise<ElicitationAnswer> {
    const view = await openConnectPage(world.broker, url).catch(() => undefined);
    if (view) await postConnectForm(world.broker, view, `${new URL(url).pathname}/tracker/api-key`, { api_key: world.fakes.linear.addApiKey() });
    return "accept";
  }

  /** The customer's backend, told by the event, makes a connect session with its control key for its own signed-in user, who connects. */
  async function backendConnects(endUserId: string, provider: string) {
    const [event] = await requiredFor(endUserId);
    expect(event?.data).toMatchObject({ end_user_id: endUserId, provider });
    const session = await call(world.broker, "POST", "/v1/connect-sessions", { token: tenant.testKey, body: { end_user_id: endUserId, providers: [provider] } });
    expect(session.status, session.text).toBe(201);
    const callback = await connectOnHostedPage(world.broker, session.body.connect_url, provider);
    expect(callback.status, callback.text).toBe(200);
  }

  it("asks a 2026-07-28 client to open nothing: credential_required without a link, connection.required for the backend", async () => {
    const { client, elicitations } = await connectModernClient(mcpUrl, await tokenFor("erin"), ({ url }) => attachOwnKey(url));
    const result = (await client.callTool({ name: "tracker.list_issues", arguments: {} })) as ToolCallResult;
    await client.close();
    expect(elicitations).toEqual([]);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: { code: "credential_required", details: { provider: "tracker" } } });
    expect(result.structuredContent!.error.details.connect_url).toBeUndefined();
    expect(JSON.stringify(result)).not.toMatch(/\/connect\/|cs_/);
    expect(result.content[0]!.text).toContain("must connect one in the application");
    expect(await rowsOf("connect_sessions")).toEqual([]);
    expect(await rowsOf("secret_items")).toEqual([]);
    const [event, ...more] = await requiredFor("erin");
    expect(more).toEqual([]);
    expect(event!.data).toEqual({ end_user_id: "erin", provider: "tracker", tool_name: "tracker.list_issues", invocation_id: expect.any(String), agent_app_id: tenant.agentAppId, env: "test" });
    const invocation = await call(world.broker, "GET", `/v1/tools/invocations/${event!.data.invocation_id}`, { token: await tokenFor("erin") });
    expect(invocation.body).toMatchObject({ status: "rejected", error_code: "credential_required", end_user_id: "erin" });
  });

  it("gives a 2025 client no link either; once the person connects through the customer's app, the identical call runs", async () => {
    world.fakes.github.setUser({ login: "frank-gh", id: 7002 });
    const client = await connectLegacyClient(mcpUrl, await tokenFor("frank"));
    const first = (await client.callTool({ name: "scm.get_authenticated_user", arguments: {} })) as ToolCallResult;
    expect(first.isError).toBe(true);
    expect(first.structuredContent).toMatchObject({ error: { code: "credential_required", details: { provider: "scm" } } });
    expect(JSON.stringify(first)).not.toMatch(/\/connect\/|cs_/);
    await backendConnects("frank", "scm");
    const second = (await client.callTool({ name: "scm.get_authenticated_user", arguments: {} })) as ToolCallResult;
    expect(second.structuredContent).toMatchObject({ login: "frank-gh" });
    await client.close();
  });

  it("tells the backend over REST too, and raises nothing for a call acting for no end user (an operator connects shared accounts)", async () => {
    const asked = await call(world.broker, "POST", "/v1/tools/execute", { token: await tokenFor("grace"), body: { tool_name: "scm.get_authenticated_user", arguments: {} } });
    expect(asked.status).toBe(422);
    expect(asked.body.error.code).toBe("credential_required");
    expect(asked.text).not.toMatch(/\/connect\/|cs_/);
    expect((await requiredFor("grace")).map((event) => event.data.provider)).toEqual(["scm"]);
    const before = (await outboxEvents(world.broker, tenant.tenantId, "connection.required")).length;
    const client = await connectLegacyClient(mcpUrl, await tokenFor());
    const shared = (await client.callTool({ name: "tracker.list_issues", arguments: {} })) as ToolCallResult;
    await client.close();
    expect(shared.structuredContent).toMatchObject({ error: { code: "credential_required" } });
    expect(shared.content[0]!.text).toContain("an operator connects shared accounts");
    expect((await outboxEvents(world.broker, tenant.tenantId, "connection.required")).length).toBe(before);
  });

  it("keeps links that agent apps were handed by earlier versions dead: no page, no key stored", async () => {
    const token = `cs_${randomBytes(32).toString("base64url")}`;
    const now = Date.now();
    await world.broker.services.store.db.insertInto("connect_sessions").values({
      id: randomUUID(), tenant_id: tenant.tenantId, env: "test", end_user_id: "heidi", providers: JSON.stringify(["tracker"]), redirect_url: null, label: null,
      token_hash: createHash("sha256").update(token).digest("hex"), created_by_type: "agent_app", created_by_id: tenant.agentAppId,
      created_at: new Date(now).toISOString(), expires_at: new Date(now + 30 * 60_000).toISOString(),
    }).execute();
    expect((await call(world.broker, "GET", `/connect/${token}`)).status).toBe(404);
    const posted = await call(world.broker, "POST", `/connect/${token}/tracker/api-key`, {
      rawBody: new URLSearchParams({ api_key: world.fakes.linear.addApiKey() }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(posted.status).toBe(404);
    expect(await rowsOf("secret_items")).toEqual([]);
  });
});
