/**
 * Issue 16, after an attack on /mcp: what goes wrong on our side is said without its details and
 * logged; a provider that cannot be connected gives no link; asking again does not pile up connect
 * links; an approval among racing duplicates still runs the call; odd request targets and origins
 * are refused cleanly; listing counts against the rate limit.
 */
import { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScmTenant, decide, deleteCalls, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { createTenant, startBroker, type TestBroker } from "./support/broker.js";
import { createTestDatabase, describeEachDatabase, POSTGRES_URL, type TestDatabase } from "./support/databases.js";
import { call, mintBrokerToken } from "./support/http.js";
import { connectLegacyClient, type ToolCallResult } from "./support/mcp-clients.js";
import { startTcpForwarder, throughForwarder, type TcpForwarder } from "./support/tcp-forwarder.js";


describeEachDatabase("MCP when things go wrong", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;
  let mcpUrl: string;

  beforeAll(async () => {
    world = await startScmWorld(kind, { env: { BROKER_RATE_LIMIT_EXECUTE: "1000" } });
    tenant = await createScmTenant(world);
    mcpUrl = `${world.broker.url}/mcp`;
  });
  afterAll(async () => world?.close());

  const endUserToken = async (endUserId: string) => {
    const minted = await call(world.broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test", end_user_id: endUserId } });
    return minted.body.access_token as string;
  };

  it("answers credential_required without a link when the provider cannot be connected here", async () => {
    // This world configures GitHub only: Slack has no OAuth client, so a connect page could not connect it.
    const client = await connectLegacyClient(mcpUrl, await endUserToken("erin"));
    const result = (await client.callTool({ name: "chat.post_message", arguments: { channel: "C1", text: "hi" } })) as ToolCallResult;
    expect(result.structuredContent).toMatchObject({ error: { code: "credential_required" } });
    expect(result.structuredContent!.error.details.connect_url).toBeUndefined();
    await client.close();
  });

  it("gives no connect link however often the agent asks: one connection.required per refused call, no connect session", async () => {
    const other = await createTenant(world.broker, "No accounts");
    const minted = await call(world.broker, "POST", "/v1/broker/token", { token: other.testKey, body: { agent_app_id: other.agentAppId, env: "test", end_user_id: "frank" } });
    const client = await connectLegacyClient(mcpUrl, minted.body.access_token);
    for (let i = 0; i < 5; i++) {
      const result = (await client.callTool({ name: "scm.get_authenticated_user", arguments: {} })) as ToolCallResult;
      expect(result.structuredContent).toMatchObject({ error: { code: "credential_required" } });
      expect(result.structuredContent!.error.details.connect_url).toBeUndefined();
    }
    await client.close();
    const sessions = await world.broker.services.store.db.selectFrom("connect_sessions").select("id").where("tenant_id", "=", other.tenantId).execute();
    expect(sessions).toEqual([]);
    const events = await world.broker.services.store.db.selectFrom("events").select("payload").where("tenant_id", "=", other.tenantId).where("type", "=", "connection.required").execute();
    expect(new Set(events.map((event) => JSON.parse(event.payload).data.invocation_id)).size).toBe(5);
  });

  it("runs the identical call once one of two racing approvals is approved, whichever it is", async () => {
    const client = await connectLegacyClient(mcpUrl, tenant.token);
    const deletion = { name: "scm.delete_repository", arguments: { owner: tenant.owner, repo: "spoon-knife" } };
    const asked = (await Promise.all([client.callTool(deletion), client.callTool(deletion)])) as ToolCallResult[];
    const ids = asked.map((result) => result.structuredContent!.error.details.approval_id as string);
    const oldest = ids.sort()[0]!;
    expect((await decide(world.broker, tenant, oldest, "approve")).status).toBe(200);
    const ran = (await client.callTool(deletion)) as ToolCallResult;
    expect(ran.isError ?? false, ran.content[0]?.text).toBe(false);
    expect(deleteCalls(world, tenant, "spoon-knife")).toBe(1);
    await client.close();
  });

  it("serves an absolute-form request target as its own path, never as a 500", async () => {
    const { port } = new URL(mcpUrl);
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = new Socket();
      let answer = "";
      socket.on("data", (chunk) => (answer += String(chunk)));
      socket.on("end", () => resolve(answer));
      socket.on("error", reject);
      socket.connect(Number(port), "127.0.0.1", () =>
        socket.end(
          `POST http://evil.example/mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${tenant.token}\r\nContent-Type: application/json\r\n` +
            `Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        ),
      );
    });
    expect(raw).toMatch(/^HTTP\/1\.1 200/);
    expect(raw).toContain("scm.get_repository");
  });

  it("refuses an Origin on this host name but another port or scheme", async () => {
    const { port } = new URL(mcpUrl);
    for (const origin of [`http://127.0.0.1:${Number(port) + 1}`, `https://127.0.0.1:${port}`, "http://localhost"]) {
      const result = await call(world.broker, "POST", "/mcp", {
        token: tenant.token,
        headers: { origin, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
        body: { jsonrpc: "2.0", id: 1, method: "ping" },
      });
      expect(result.status, origin).toBe(403);
    }
  });
});

describe("MCP listing counts against the execute rate limit", () => {
  let world: ScmWorld;
  let tenant: ScmTenant;

  beforeAll(async () => {
    world = await startScmWorld("sqlite", { env: { BROKER_RATE_LIMIT_EXECUTE: "3" } });
    tenant = await createScmTenant(world);
  });
  afterAll(async () => world?.close());

  it("answers the listing past the limit with a rate_limited error, and a call past it with a rate_limited result", async () => {
    const client = await connectLegacyClient(`${world.broker.url}/mcp`, tenant.token);
    for (let i = 0; i < 3; i++) await client.listTools();
    await expect(client.listTools()).rejects.toMatchObject({ code: -32029, message: expect.stringMatching(/rate_limited/) });
    const result = (await client.callTool({ name: "scm.get_authenticated_user", arguments: {} })) as ToolCallResult;
    expect(result.structuredContent).toMatchObject({ error: { code: "rate_limited", details: { retry_after_seconds: expect.any(Number) } } });
    await client.close();
  });
});

(POSTGRES_URL ? describe : describe.skip)("MCP while PostgreSQL is away", () => {
  let database: TestDatabase;
  let forwarder: TcpForwarder;
  let broker: TestBroker;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const direct = new URL(database.databaseUrl!);
    forwarder = await startTcpForwarder({ host: direct.hostname, port: Number(direct.port || 5432) });
    broker = await startBroker("postgres", { database: { ...database, databaseUrl: throughForwarder(database.databaseUrl!, forwarder) } });
    token = await mintBrokerToken(broker, await createTenant(broker));
  });
  afterAll(async () => {
    await broker?.close();
    await forwarder?.close();
    await database?.drop();
  });

  it("says the database is unavailable, without the driver's message, and logs it", async () => {
    const client = await connectLegacyClient(`${broker.url}/mcp`, token);
    await forwarder.stop();
    try {
      const listing = await client.listTools().then(
        () => "listed",
        (error: Error) => error.message,
      );
      expect(listing).toMatch(/service_unavailable: the database is unavailable; retry shortly/);
      const result = (await client.callTool({ name: "scm.get_authenticated_user", arguments: {} })) as ToolCallResult;
      expect(result.structuredContent).toMatchObject({ error: { code: "service_unavailable", message: "the database is unavailable; retry shortly" } });
      expect(JSON.stringify(result) + listing).not.toMatch(/ECONNREFUSED|127\.0\.0\.1/);
      expect(broker.logs.some((line) => line.includes("the database is unavailable"))).toBe(true);
    } finally {
      await forwarder.restore();
      await client.close();
    }
  });
});
