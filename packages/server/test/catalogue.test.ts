/**
 * Issue 17: tenants declare their own providers and tools, import them from OpenAPI, and bring
 * their own OAuth app; what they add runs through the same pipeline (policy, approvals, audit,
 * usage, MCP listing) and stays invisible to other tenants.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BUILT_IN_PROVIDERS } from "../src/providers/built-in.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { startFakeTasks, type FakeTasks } from "./support/fake-tasks.js";
import { asOperator, call, findSecret, mintBrokerToken } from "./support/http.js";
import { connectModernClient, type ToolCallResult } from "./support/mcp-clients.js";
import { execute } from "./support/tool-execution.js";
import { startProductionBroker, tableResolver } from "./support/webhooks.js";

const OPENAPI_YAML = readFileSync(new URL("./support/fake-tasks-openapi.yaml", import.meta.url), "utf8");
const API_KEY = "tasks-key-0123456789abcdef";

const apiKeyProvider = (fake: FakeTasks, id = "tasks") => ({
  id,
  display_name: "Tasks",
  api_base_url: fake.apiBaseUrl,
  auth: { type: "api_key", in: "header", name: "X-Api-Key" },
  default_headers: { "X-Client": "toolbroker-test" },
});

const getTaskTool = (provider = "tasks") => ({
  name: `${provider}.get_task`,
  description: "Get one task by id.",
  arguments_schema: { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"], additionalProperties: false },
  risk: "low",
  side_effect: "read",
  request: { method: "GET", path: "/tasks/{id}" },
  response: { fields: { task_id: "/id", title: "/title", status: "/status" } },
});

describeEachDatabase("tenant-defined providers and tools", (kind) => {
  let broker: TestBroker;
  let acme: TestTenant;
  let globex: TestTenant;
  let tasks: FakeTasks;
  let oauthTasks: FakeTasks;

  beforeAll(async () => {
    tasks = await startFakeTasks({ auth: "api_key", apiKey: API_KEY });
    oauthTasks = await startFakeTasks({ auth: "oauth", clientIds: { "acme-tasks-app": "acme-tasks-secret-0123456789" } });
    broker = await startBroker(kind);
    acme = await createTenant(broker, "Acme");
    globex = await createTenant(broker, "Globex");
  });
  afterAll(async () => {
    await broker?.close();
    await tasks?.close();
    await oauthTasks?.close();
  });

  const post = (tenant: TestTenant, path: string, body: unknown) => call(broker, "POST", path, { ...asOperator(tenant), body });
  const storeKey = async (tenant: TestTenant, provider = "tasks") => {
    const created = await post(tenant, "/v1/secrets", { provider, env: "test", name: `key-${provider}`, value: API_KEY });
    expect(created.status, created.text).toBe(201);
    return created.body.secret_item_id as string;
  };

  it("declares an API-key provider and a tool, and executes it end to end with the key in its header", async () => {
    const created = await post(acme, "/v1/providers", { declaration: apiKeyProvider(tasks) });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id: "tasks", source: "custom", env: "both", auth_modes: ["api_key"] });
    const tool = await post(acme, "/v1/providers/tasks/tools", { declaration: getTaskTool() });
    expect(tool.status, tool.text).toBe(201);
    expect(tool.body).toMatchObject({ name: "tasks.get_task", source: "declared", risk: "low" });

    const secretItemId = await storeKey(acme);
    const token = await mintBrokerToken(broker, acme);
    const result = await execute(broker, token, { tool_name: "tasks.get_task", arguments: { id: "notes/2024 q1" }, secret_item_id: secretItemId });
    expect(result.status, result.text).toBe(200);
    expect(result.body.result).toEqual({ task_id: "notes/2024 q1", title: expect.any(String), status: "open" });
    const sent = tasks.stats.requests.at(-1)!;
    expect(sent.path).toBe("/api/tasks/notes%2F2024%20q1");
    expect(sent.headers["x-api-key"]).toBe(API_KEY);
    expect(sent.headers["x-client"]).toBe("toolbroker-test");
    expect(JSON.stringify(result.body)).not.toContain(API_KEY);

    const listed = await call(broker, "GET", "/v1/tools?provider=tasks", { token });
    expect(listed.body.data.map((t: { name: string }) => t.name)).toEqual(["tasks.get_task"]);
    const audit = await call(broker, "GET", "/v1/audit?action=tool.executed", asOperator(acme));
    expect(JSON.stringify(audit.body)).toContain("tasks.get_task");
    const usage = await call(broker, "GET", "/v1/usage", asOperator(acme));
    expect(JSON.stringify(usage.body)).toContain("tasks.get_task");
    expect(findSecret(broker, API_KEY)).toEqual([]);
  });

  it("refuses path arguments that would step out of the declared path, without calling the API", async () => {
    const token = await mintBrokerToken(broker, acme);
    const sent = tasks.stats.requests.length;
    for (const id of ["..", "."]) {
      const refused = await execute(broker, token, { tool_name: "tasks.get_task", arguments: { id } });
      expectError(refused, 422, "invalid_tool_args");
    }
    expect(tasks.stats.requests.length).toBe(sent);
  });

  it("lists a tenant's tool over MCP to that tenant only, and calls it there", async () => {
    const { client } = await connectModernClient(`${broker.url}/mcp`, await mintBrokerToken(broker, acme));
    const { tools: listed } = await client.listTools();
    expect(listed.find((tool) => tool.name === "tasks_get_task")).toMatchObject({ title: "Tasks: Get task", annotations: { readOnlyHint: true }, _meta: { "dev.toolbroker/name": "tasks.get_task" } });
    const called = (await client.callTool({ name: "tasks_get_task", arguments: { id: "task-1" } })) as ToolCallResult;
    expect(called.isError, JSON.stringify(called)).toBeFalsy();
    expect(called.structuredContent).toMatchObject({ task_id: "task-1" });
    await client.close();
    const { client: other } = await connectModernClient(`${broker.url}/mcp`, await mintBrokerToken(broker, globex));
    expect((await other.listTools()).tools.map((tool) => tool.name)).not.toContain("tasks_get_task");
    await other.close();
  });

  it("hides one tenant's providers and tools from another, which can neither list nor call them", async () => {
    const token = await mintBrokerToken(broker, globex);
    const listed = await call(broker, "GET", "/v1/tools", { token });
    expect(listed.body.data.map((t: { name: string }) => t.name)).not.toContain("tasks.get_task");
    expectError(await execute(broker, token, { tool_name: "tasks.get_task", arguments: { id: "task-1" } }), 404, "not_found");
    expectError(await call(broker, "GET", "/v1/providers/tasks", asOperator(globex)), 404, "not_found");
    expectError(await call(broker, "GET", "/v1/providers/tasks/tools/tasks.get_task", asOperator(globex)), 404, "not_found");
    expectError(await call(broker, "DELETE", "/v1/providers/tasks", asOperator(globex)), 404, "not_found");
    const providers = await call(broker, "GET", "/v1/providers", asOperator(globex));
    expect(providers.body.data.map((p: { id: string }) => p.id)).toEqual(BUILT_IN_PROVIDERS.map((builtIn) => builtIn.declaration.id));
    // Globex may declare its own "tasks": ids are per tenant.
    expect((await post(globex, "/v1/providers", { env: "live", declaration: apiKeyProvider(tasks) })).status).toBe(201);
    expect((await call(broker, "GET", "/v1/tools?provider=tasks", { token })).body.data).toEqual([]);
  });

  it("answers declaration faults with 422 invalid_declaration and the path of the fault", async () => {
    const fault = async (path: string, body: unknown, field: string) => {
      const response = await post(acme, path, body);
      expectError(response, 422, "invalid_declaration");
      expect(response.body.error.details.path, response.text).toBe(field);
    };
    await fault("/v1/providers", { declaration: { ...apiKeyProvider(tasks, "scm") } }, "/id");
    await fault("/v1/providers", { declaration: { ...apiKeyProvider(tasks, "other"), auth: { type: "api_key", in: "cookie", name: "k" } } }, "/auth/in");
    await fault("/v1/providers", { declaration: { ...apiKeyProvider(tasks, "other"), api_base_url: "not a url" } }, "/api_base_url");
    await fault("/v1/providers", { declaration: { ...apiKeyProvider(tasks, "other"), default_headers: { Host: "evil" } } }, "/default_headers/Host");
    await fault("/v1/providers/tasks/tools", { declaration: { ...getTaskTool(), name: "other.get_task" } }, "/name");
    await fault("/v1/providers/tasks/tools", { declaration: { ...getTaskTool(), name: "tasks.x", request: { method: "GET", path: "/tasks/{nope}" } } }, "/request/path");
    await fault("/v1/providers/tasks/tools", { declaration: { ...getTaskTool(), name: "tasks.y", request: { method: "GET", path: "/t", query: { q: "{missing}" } } } }, "/request/query/q");
    await fault("/v1/providers/tasks/tools", { declaration: { ...getTaskTool(), name: "tasks.z", arguments_schema: { type: "object", properties: { a: { type: "string", pattern: "(?=x)" } } } } }, "/arguments_schema");
    await fault("/v1/providers/tasks/tools", { declaration: { ...getTaskTool(), name: "tasks.w", risk: "medium" } }, "/risk");
    await fault("/v1/providers/tasks/tools", { declaration: { ...getTaskTool(), name: "tasks.v", response: { schema: { type: "no-such-type" } } } }, "/response/schema");
    expectError(await post(acme, "/v1/providers/tasks/tools", { declaration: getTaskTool() }), 409, "conflict");
    expectError(await post(acme, "/v1/providers/scm/tools", { declaration: { ...getTaskTool("scm"), name: "scm.get_repository" } }), 409, "conflict");
    expectError(await call(broker, "PATCH", "/v1/providers/scm", { ...asOperator(acme), body: { env: "test" } }), 403, "forbidden");
  });

  it("imports the OpenAPI document: a dry run stores nothing, the write tools need approval, and an approved call runs once", async () => {
    const dry = await post(acme, "/v1/providers/tasks/tools/import?dry_run=true", { document: OPENAPI_YAML, operation_ids: ["listTasks", "createTask"] });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.dry_run).toBe(true);
    expect(dry.body.data.map((t: { name: string }) => t.name).sort()).toEqual(["tasks.create_task", "tasks.list_tasks"]);
    expect((await call(broker, "GET", "/v1/providers/tasks/tools", asOperator(acme))).body.data.map((t: { name: string }) => t.name)).toEqual(["tasks.get_task"]);

    const imported = await post(acme, "/v1/providers/tasks/tools/import", { document: OPENAPI_YAML, operation_ids: ["listTasks", "createTask"] });
    expect(imported.status, imported.text).toBe(200);
    const create = imported.body.data.find((t: { name: string }) => t.name === "tasks.create_task");
    expect(create).toMatchObject({ source: "openapi", risk: "high", side_effect: "write" });

    const secretItemId = (await call(broker, "GET", "/v1/secrets", asOperator(acme))).body.data[0].secret_item_id as string;
    const token = await mintBrokerToken(broker, acme);
    const list = await execute(broker, token, { tool_name: "tasks.list_tasks", arguments: { status: "open", limit: 5 }, secret_item_id: secretItemId });
    expect(list.status, list.text).toBe(200);
    expect(tasks.stats.requests.at(-1)!.query).toEqual({ status: "open", limit: "5" });

    const before = tasks.tasks().length;
    const asked = await execute(broker, token, { tool_name: "tasks.create_task", arguments: { body: { title: "From an agent" } }, secret_item_id: secretItemId });
    expectError(asked, 409, "approval_required");
    expect(tasks.tasks().length).toBe(before);
    const { approval_id, invocation_id } = asked.body.error.details;
    expect((await post(acme, `/v1/approvals/${approval_id}/decide`, { decision: "approve" })).status).toBe(200);
    const continued = await call(broker, "POST", `/v1/tools/invocations/${invocation_id}/continue`, { token });
    expect(continued.status, continued.text).toBe(200);
    expect(continued.body.result).toMatchObject({ title: "From an agent", status: "open" });
    expect(tasks.tasks().length).toBe(before + 1);
    expect((await call(broker, "POST", `/v1/tools/invocations/${invocation_id}/continue`, { token })).status).toBe(200);
    expect(tasks.tasks().length).toBe(before + 1);

    // Lowered after import, it runs without approval.
    const patched = await call(broker, "PATCH", "/v1/providers/tasks/tools/tasks.create_task", { ...asOperator(acme), body: { declaration: { risk: "low" } } });
    expect(patched.status, patched.text).toBe(200);
    const direct = await execute(broker, token, { tool_name: "tasks.create_task", arguments: { body: { title: "Low risk now" } }, secret_item_id: secretItemId });
    expect(direct.status, direct.text).toBe(200);
  });

  it("names the taken tools in a sentence that agrees with their number (issue 41, item 10)", async () => {
    const importing = (operationIds: string[]) => post(acme, "/v1/providers/tasks/tools/import", { document: OPENAPI_YAML, operation_ids: operationIds });
    const one = await importing(["listTasks"]);
    expectError(one, 409, "conflict");
    expect(one.body.error.message).toBe('tool "tasks.list_tasks" already exists');
    const two = await importing(["listTasks", "createTask"]);
    expect(two.body.error.message).toMatch(/^tools "tasks\.[a-z_]+" and "tasks\.[a-z_]+" already exist$/);
    const three = await importing(["listTasks", "createTask", "getTask"]);
    expect(three.body.error.message).toMatch(/^tools "tasks\.[a-z_]+", "tasks\.[a-z_]+" and "tasks\.[a-z_]+" already exist$/);
    expect([...three.body.error.details.names].sort()).toEqual(["tasks.create_task", "tasks.get_task", "tasks.list_tasks"]);
  });

  it("refuses an OpenAPI document over its limit with 413 naming the limit", async () => {
    const document = `openapi: 3.1.0\ninfo: { title: Big, version: "1" }\npaths: {}\n# ${"x".repeat(2 * 1024 * 1024)}`;
    const refused = await post(acme, "/v1/providers/tasks/tools/import", { document });
    expectError(refused, 413, "payload_too_large");
    expect(refused.body.error.message).toBe(`the OpenAPI document is ${Buffer.byteLength(document).toLocaleString("en-US")} bytes, larger than the 2 MiB (2,097,152 bytes) imported`);
    expect(refused.body.error.details).toEqual({ limit_bytes: 2 * 1024 * 1024 });
  });

  it("imports a 50-operation document in one request and refuses a second import of the same names", async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 50; i += 1) paths[`/things${i}/{id}`] = { get: { operationId: `getThing${i}`, parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { 200: { description: "ok" } } } };
    const document = { openapi: "3.1.0", info: { title: "Things", version: "1" }, paths };
    const started = performance.now();
    const imported = await post(acme, "/v1/providers/tasks/tools/import", { document });
    const elapsedMs = performance.now() - started;
    expect(imported.status, imported.text).toBe(200);
    expect(imported.body.data).toHaveLength(50);
    console.log(`[catalogue ${kind}] imported 50 operations in ${elapsedMs.toFixed(0)} ms`);
    const again = await post(acme, "/v1/providers/tasks/tools/import", { document });
    expectError(again, 409, "conflict");
    expect(again.body.error.message).toMatch(/^tools ("tasks\.[a-z0-9_]+", ){9}"tasks\.[a-z0-9_]+" and 40 more already exist$/);
    expect(again.body.error.details.names).toHaveLength(50);
    const garbage = await post(acme, "/v1/providers/tasks/tools/import", { document: "swagger: '2.0'\ninfo: {}\n" });
    expectError(garbage, 422, "invalid_declaration");
  });

  it("connects a custom OAuth provider through the tenant's own app and refreshes with it", async () => {
    const declaration = {
      id: "tasks-oauth",
      display_name: "Tasks (OAuth)",
      api_base_url: oauthTasks.apiBaseUrl,
      auth: { type: "oauth2", authorize_url: oauthTasks.authorizeUrl, token_url: oauthTasks.tokenUrl, revocation_url: oauthTasks.revokeUrl, scopes: ["tasks"] },
      identity: { path: "/me", account_id: "/id", display_name: "/name" },
    };
    expect((await post(acme, "/v1/providers", { env: "test", declaration })).status).toBe(201);
    expect((await post(acme, "/v1/providers/tasks-oauth/tools", { declaration: { ...getTaskTool("tasks-oauth") } })).status).toBe(201);
    const unconfigured = await post(acme, "/v1/connections/oauth/start", { provider: "tasks-oauth" });
    expectError(unconfigured, 422, "provider_not_configured");

    const put = await call(broker, "PUT", "/v1/providers/tasks-oauth/oauth-client", { ...asOperator(acme), body: { env: "test", client_id: "acme-tasks-app", client_secret: "acme-tasks-secret-0123456789" } });
    expect(put.status, put.text).toBe(200);
    const connectionId = await connectAccount(broker, acme, "tasks-oauth");
    expect(oauthTasks.stats.tokenRequests.at(-1)).toMatchObject({ grantType: "authorization_code", clientId: "acme-tasks-app" });
    const connections = await call(broker, "GET", "/v1/connections", asOperator(acme));
    expect(connections.body.data.find((c: { connected_account_id: string }) => c.connected_account_id === connectionId)).toMatchObject({ provider: "tasks-oauth", display_name: "Tasks User" });

    const token = await mintBrokerToken(broker, acme);
    oauthTasks.expireAccessTokens();
    const result = await execute(broker, token, { tool_name: "tasks-oauth.get_task", arguments: { id: "task-1" }, connected_account_id: connectionId });
    expect(result.status, result.text).toBe(200);
    expect(oauthTasks.stats.refreshGrants).toBe(1);
    expect(oauthTasks.stats.tokenRequests.at(-1)).toMatchObject({ grantType: "refresh_token", clientId: "acme-tasks-app" });
    expect(findSecret(broker, "acme-tasks-secret-0123456789")).toEqual([]);

    // Listed to MCP-style callers in test only: the provider was declared for env test.
    const live = await mintBrokerToken(broker, acme, "live");
    expect((await call(broker, "GET", "/v1/tools?provider=tasks-oauth", { token: live })).body.data).toEqual([]);
  });

  it("removes a provider with its tools", async () => {
    expect((await call(broker, "DELETE", "/v1/providers/tasks-oauth", asOperator(acme))).status).toBe(204);
    const token = await mintBrokerToken(broker, acme);
    expectError(await execute(broker, token, { tool_name: "tasks-oauth.get_task", arguments: { id: "task-1" } }), 404, "not_found");
    const audit = await call(broker, "GET", "/v1/audit?action=provider.deleted", asOperator(acme));
    expect(audit.body.data[0]).toMatchObject({ action: "provider.deleted", target: { type: "provider", id: "tasks-oauth" } });
  });
});

describeEachDatabase("tenant-defined provider URLs in production configuration", (kind) => {
  it("refuses private, loopback, special-purpose and plain-http URLs, and names the field", async () => {
    // No name is ever resolved for real: the table answers, and the public address is documentation space that nothing sends to.
    const { resolver } = tableResolver({ "tasks.example.com": ["93.184.215.14"], "auth.example.com": ["93.184.215.14"], "internal.example.com": ["10.0.0.7"] });
    const { broker, tenant } = await startProductionBroker(kind, { resolver });
    try {
      const base = { id: "remote", display_name: "Remote", api_base_url: "https://tasks.example.com/api", auth: { type: "api_key", in: "header", name: "X-Key" } };
      const cases: [Record<string, unknown>, string][] = [
        [{ api_base_url: "https://127.0.0.1:9/api" }, "/api_base_url"],
        [{ api_base_url: "https://10.1.2.3/api" }, "/api_base_url"],
        [{ api_base_url: "https://169.254.169.254/latest" }, "/api_base_url"],
        [{ api_base_url: "http://tasks.example.com/api" }, "/api_base_url"],
        [{ api_base_url: "https://internal.example.com/api" }, "/api_base_url"],
        [{ auth: { type: "oauth2", authorize_url: "https://auth.example.com/a", token_url: "https://[::1]/token" } }, "/auth/token_url"],
      ];
      for (const [overrides, field] of cases) {
        const response = await call(broker, "POST", "/v1/providers", { ...asOperator(tenant), body: { declaration: { ...base, ...overrides } } });
        expectError(response, 422, "invalid_declaration");
        expect(response.body.error.details.path, response.text).toBe(field);
      }
      const accepted = await call(broker, "POST", "/v1/providers", { ...asOperator(tenant), body: { declaration: base } });
      expect(accepted.status, accepted.text).toBe(201);
    } finally {
      await broker.close();
    }
  });
});
