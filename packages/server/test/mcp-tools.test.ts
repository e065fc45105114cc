/**
 * Issue 16: the broker as an MCP server, driven by the official clients of both generations —
 * the tools a caller may use with their annotations, structured results, refusals as error
 * results, who may connect (broker JWTs only, every 401 pointing at the RFC 9728 metadata) and
 * DNS-rebinding protection.
 */
import { request as httpRequest } from "node:http";
import { SignJWT } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createAgentApp, createScmTenant, putPolicy, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { connectLegacyClient, connectModernClient, type LegacyVersion, type ToolCallResult } from "./support/mcp-clients.js";

const LEGACY_VERSIONS: LegacyVersion[] = ["2025-11-25", "2025-06-18"];
const MCP_ERROR_ACCEPT = { accept: "application/json, text/event-stream", "content-type": "application/json" };


describeEachDatabase("MCP: tools over the Model Context Protocol", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;
  let mcpUrl: string;

  beforeAll(async () => {
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world);
    mcpUrl = `${world.broker.url}/mcp`;
  });
  afterAll(async () => world?.close());

  /** Every kind of client this endpoint serves, each calling one tool. */
  async function callWithEveryClient(name: string, args: Record<string, unknown>): Promise<ToolCallResult[]> {
    const results: ToolCallResult[] = [];
    const { client: modern } = await connectModernClient(mcpUrl, tenant.token);
    results.push((await modern.callTool({ name, arguments: args })) as ToolCallResult);
    await modern.close();
    for (const version of LEGACY_VERSIONS) {
      const legacy = await connectLegacyClient(mcpUrl, tenant.token, version);
      results.push((await legacy.callTool({ name, arguments: args })) as ToolCallResult);
      await legacy.close();
    }
    return results;
  }

  it("lists the tools with titles, input schemas, annotations and a word on approvals, in both generations", async () => {
    const { client: modern } = await connectModernClient(mcpUrl, tenant.token);
    const legacy = await connectLegacyClient(mcpUrl, tenant.token);
    for (const { tools } of [await modern.listTools(), await legacy.listTools()]) {
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get("scm_list_repositories")).toMatchObject({
        title: "GitHub: List repositories",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      });
      expect(byName.get("scm_create_issue")?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
      const deletion = byName.get("scm_delete_repository")!;
      expect(deletion.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
      expect(deletion.description).toMatch(/Needs a human approval before it runs/);
      expect(byName.get("scm_get_repository")?.description).not.toMatch(/approval/);
      expect(byName.get("chat_post_message")).toBeDefined();
    }
    await modern.close();
    await legacy.close();
  });

  it("leaves out tools the policy denies this agent app, and keeps those it denies only for some arguments", async () => {
    const second = await createAgentApp(world.broker, tenant, "reporting bot");
    await putPolicy(world.broker, tenant, [
      { id: "no-comments", effect: "deny", tools: ["scm.create_issue_comment"], agent_apps: [tenant.agentAppId] },
      { id: "not-prod", effect: "deny", tools: ["scm.create_issue"], conditions: [{ pointer: "/repo", equals: "prod" }] },
    ]);
    try {
      const names = async (token: string) => {
        const client = await connectLegacyClient(mcpUrl, token);
        const { tools } = await client.listTools();
        await client.close();
        return tools.map((tool) => tool.name);
      };
      const mine = await names(tenant.token);
      expect(mine).not.toContain("scm_create_issue_comment");
      expect(mine).toContain("scm_create_issue");
      expect(await names(second.token)).toContain("scm_create_issue_comment");
    } finally {
      await putPolicy(world.broker, tenant, []);
    }
  });

  it("lists every tool under a name model APIs accept, its dotted name in _meta, and runs a call by either name or by a provider alias", async () => {
    const legacy = await connectLegacyClient(mcpUrl, tenant.token);
    const { tools } = await legacy.listTools();
    await legacy.close();
    for (const tool of tools) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.name).toBe(String(tool._meta?.["dev.toolbroker/name"]).replaceAll(".", "_"));
    }
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
    for (const name of ["scm_get_authenticated_user", "scm.get_authenticated_user", "github.get_authenticated_user", "github_get_authenticated_user"]) {
      for (const result of await callWithEveryClient(name, {})) {
        expect(result.isError ?? false, `${name}: ${JSON.stringify(result)}`).toBe(false);
        expect(result.structuredContent).toMatchObject({ login: tenant.owner });
      }
    }
  });

  it("answers a read with structured content and the same JSON as text", async () => {
    for (const result of await callWithEveryClient("scm.get_authenticated_user", {})) {
      expect(result.isError ?? false).toBe(false);
      expect(result.structuredContent).toMatchObject({ login: tenant.owner });
      expect(JSON.parse(result.content[0]!.text)).toEqual(result.structuredContent);
    }
  });

  it("wraps a list result, which structured content cannot be, as { result }", async () => {
    const [modern] = await callWithEveryClient("scm.list_repositories", {});
    const text = JSON.parse(modern!.content[0]!.text);
    expect(modern!.structuredContent).toEqual(Array.isArray(text) ? { result: text } : text);
  });

  it("answers a refusal as an error result naming the broker's code: policy_denied, invalid_tool_args", async () => {
    await putPolicy(world.broker, tenant, [{ id: "no-issues", effect: "deny", tools: ["scm.create_issue"], conditions: [{ pointer: "/repo", equals: "prod" }] }]);
    try {
      for (const result of await callWithEveryClient("scm.create_issue", { owner: tenant.owner, repo: "prod", title: "nope" })) {
        expect(result.isError).toBe(true);
        expect(result.content[0]!.text).toMatch(/^policy_denied: policy rule "no-issues" denies this call/);
        expect(result.structuredContent).toMatchObject({ error: { code: "policy_denied", details: { rule_id: "no-issues" } } });
      }
    } finally {
      await putPolicy(world.broker, tenant, []);
    }
    for (const result of await callWithEveryClient("scm.get_repository", { owner: tenant.owner })) {
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: "invalid_tool_args", details: { fields: [{ field: "/repo" }] } } });
    }
    expect(world.github.stats.apiCalls.filter((c) => c.method === "POST" && c.path.endsWith("/prod/issues"))).toHaveLength(0);
  });

  it("says a deny rule's reason (never its description) in the text every client reads (issue 41, item 7)", async () => {
    const reason = "Issues on prod are filed by people";
    await putPolicy(world.broker, tenant, [{ id: "no-prod-issues", description: "Dana asked for this", reason, effect: "deny", tools: ["scm.create_issue"], conditions: [{ pointer: "/repo", equals: "prod" }] }]);
    try {
      const results = await callWithEveryClient("scm.create_issue", { owner: tenant.owner, repo: "prod", title: "nope" });
      expect(results).toHaveLength(3);
      for (const result of results) {
        expect(result.content.map((block) => block.text)).toEqual([`policy_denied: policy rule "no-prod-issues" denies this call: ${reason}`]);
        expect(result.structuredContent).toMatchObject({ error: { code: "policy_denied", details: { rule_id: "no-prod-issues", reason } } });
        expect(JSON.stringify(result)).not.toContain("Dana");
      }
    } finally {
      await putPolicy(world.broker, tenant, []);
    }
  });

  it("takes a call without arguments as arguments {}, naming what a tool that needs some is missing (issue 41, item 9)", async () => {
    const { client: modern } = await connectModernClient(mcpUrl, tenant.token);
    const clients = [modern, ...(await Promise.all(LEGACY_VERSIONS.map((version) => connectLegacyClient(mcpUrl, tenant.token, version))))];
    for (const client of clients) {
      const read = (await client.callTool({ name: "scm_get_authenticated_user" })) as ToolCallResult;
      expect(read.isError ?? false, JSON.stringify(read)).toBe(false);
      expect(read.structuredContent).toMatchObject({ login: tenant.owner });
      const missing = (await client.callTool({ name: "scm_get_repository" })) as ToolCallResult;
      expect(missing.isError).toBe(true);
      expect(missing.content[0]!.text).toBe("invalid_tool_args: arguments for scm.get_repository are invalid: /owner must have required property 'owner'; /repo must have required property 'repo'");
      expect(missing.structuredContent).toMatchObject({ error: { code: "invalid_tool_args", details: { fields: [{ field: "/owner" }, { field: "/repo" }] } } });
      await client.close();
    }
  });

  it("answers an unknown tool as a protocol error, not a result", async () => {
    const { client: modern } = await connectModernClient(mcpUrl, tenant.token);
    await expect(modern.callTool({ name: "scm.no_such_tool", arguments: {} })).rejects.toThrow(/unknown tool "scm.no_such_tool"/);
    const legacy = await connectLegacyClient(mcpUrl, tenant.token);
    await expect(legacy.callTool({ name: "scm.no_such_tool", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await modern.close();
    await legacy.close();
  });

  it("records an MCP call like any other invocation, its audit event saying it came over MCP", async () => {
    const legacy = await connectLegacyClient(mcpUrl, tenant.token);
    const result = (await legacy.callTool({ name: "scm.get_repository", arguments: { owner: tenant.owner, repo: "hello-world" } })) as ToolCallResult;
    await legacy.close();
    const invocationId = result._meta?.["dev.toolbroker/invocation_id"];
    expect(invocationId).toBeTruthy();
    const audit = await call(world.broker, "GET", `/v1/audit?action=tool.executed&limit=50`, asOperator(tenant));
    const event = audit.body.data.find((entry: { target: { id: string } }) => entry.target.id === invocationId);
    expect(event).toMatchObject({ actor: { type: "agent_app", id: tenant.agentAppId }, outcome: "success", data: { via: "mcp", status: "succeeded" } });
  });

  it("answers ping (a 2025 method: 2026-07-28 has none)", async () => {
    const legacy = await connectLegacyClient(mcpUrl, tenant.token);
    await expect(legacy.ping()).resolves.toBeDefined();
    await legacy.close();
  });

  it("reports progress every 2 s while a slow provider answers, to a client that asked for it", { timeout: 30_000 }, async () => {
    world.github.setApiDelay(4500);
    try {
      const legacy = await connectLegacyClient(mcpUrl, tenant.token);
      const seen: { progress: number; message?: string }[] = [];
      const result = (await legacy.callTool({ name: "scm.get_authenticated_user", arguments: {} }, undefined, {
        onprogress: (progress) => void seen.push(progress),
        resetTimeoutOnProgress: true,
      })) as ToolCallResult;
      expect(result.structuredContent).toMatchObject({ login: tenant.owner });
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(seen[0]).toMatchObject({ progress: 1, message: "waiting for the provider's answer" });
      await legacy.close();
      // Without a progress token nothing is sent, and the answer is plain JSON.
      world.github.setApiDelay(2500);
      const plain = await call(world.broker, "POST", "/mcp", {
        token: tenant.token,
        headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
        body: { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "scm.get_authenticated_user", arguments: {} } },
      });
      expect(plain.text).not.toContain("notifications/progress");
    } finally {
      world.github.setApiDelay(0);
    }
  });

  it("acknowledges a cancellation notification", async () => {
    const result = await call(world.broker, "POST", "/mcp", {
      token: tenant.token,
      headers: { ...MCP_ERROR_ACCEPT, "mcp-protocol-version": "2025-11-25" },
      body: { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "the user stopped it" } },
    });
    expect(result.status).toBe(202);
  });

  /** What a raw HTTP client reads: status, headers and the body's bytes, nothing parsed. */
  const rawPost = (message: unknown, version: string) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
      const url = new URL(mcpUrl);
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: "/mcp", method: "POST", headers: { ...MCP_ERROR_ACCEPT, authorization: `Bearer ${tenant.token}`, "mcp-protocol-version": version } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(message));
    });

  it("answers a notification or a response with 202 and no body at all, as the transport specifies (issue 41, item 10)", async () => {
    const notifications = [
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "the user stopped it" } },
    ];
    // A 2025 client may also answer a request of the server's; 2026-07-28 has no such requests (its SDK refuses a response with 400).
    const response = { jsonrpc: "2.0", id: 3, result: {} };
    const eras = [["2026-07-28", notifications], ...LEGACY_VERSIONS.map((version) => [version, [...notifications, response]] as const)] as const;
    for (const [version, messages] of eras) {
      for (const message of messages) {
        const answer = await rawPost(message, version);
        expect(answer.status, `${version} ${JSON.stringify(message)}`).toBe(202);
        expect(answer.body.length, answer.body.toString()).toBe(0);
        expect(answer.headers["content-type"]).toBeUndefined();
        expect(answer.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      }
    }
  });

  const metadataUrl = () => `${world.broker.config.publicUrl}/.well-known/oauth-protected-resource/mcp`;

  it("serves RFC 9728 metadata naming the resource, the header bearer method and the broker as issuer", async () => {
    const metadata = await call(world.broker, "GET", "/.well-known/oauth-protected-resource/mcp");
    expect(metadata.status).toBe(200);
    expect(metadata.body).toEqual({
      resource: `${world.broker.config.publicUrl}/mcp`,
      authorization_servers: [world.broker.config.publicUrl],
      bearer_methods_supported: ["header"],
      resource_name: "Toolbroker MCP",
      resource_documentation: `${world.broker.config.publicUrl}/docs/mcp`,
    });
    const documentation = await call(world.broker, "GET", "/docs/mcp");
    expect(documentation.status).toBe(200);
    expect(documentation.text).toContain(`${world.broker.config.publicUrl}/mcp`);
  });

  it("refuses every credential but a broker JWT with 401 and a WWW-Authenticate header naming the metadata", async () => {
    const { kid, key } = await world.broker.services.signingKeys.activeSigner();
    const otherAudience = await new SignJWT({ tenant_id: tenant.tenantId, agent_app_id: tenant.agentAppId, env: "test" })
      .setProtectedHeader({ alg: "EdDSA", kid, typ: "broker+jwt" })
      .setIssuer(world.broker.config.publicUrl)
      .setAudience("https://elsewhere.example/mcp")
      .setSubject(tenant.agentAppId)
      .setIssuedAt()
      .setJti(crypto.randomUUID())
      .setExpirationTime("5m")
      .sign(key);
    const body = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };
    for (const token of [undefined, tenant.testKey, tenant.operatorToken, otherAudience, "not-a-token"]) {
      const result = await call(world.broker, "POST", "/mcp", { ...(token ? { token } : {}), headers: MCP_ERROR_ACCEPT, body });
      expectError(result, 401, "unauthorized");
      expect(result.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
    }
    const legacy = connectLegacyClient(mcpUrl, tenant.testKey);
    await expect(legacy).rejects.toThrow();
  });

  it("refuses a request whose Host or Origin is not this broker (DNS rebinding) with 403", async () => {
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
        const url = new URL(mcpUrl);
        const req = httpRequest(
          { host: url.hostname, port: url.port, path: "/mcp", method: "POST", headers: { ...MCP_ERROR_ACCEPT, authorization: `Bearer ${tenant.token}`, "mcp-protocol-version": "2025-11-25", ...headers } },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    expect(await status({ origin: "http://attacker.example" })).toBe(403);
    expect(await status({ host: "attacker.example" })).toBe(403);
    expect(await status({ origin: "null" })).toBe(403);
    expect(await status({ host: `localhost:${new URL(mcpUrl).port}` })).toBe(200);
    expect(await status({ origin: new URL(mcpUrl).origin })).toBe(200);
  });
});
