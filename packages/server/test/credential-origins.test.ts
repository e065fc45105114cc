/**
 * Issue 36, items 11 and "a credential only goes where it came from": a token or key is bound to
 * the origins it was issued for (token endpoint and API base URL at connect time). A tenant admin
 * who re-points a custom provider, or an operator who changes BROKER_PROVIDER_*_API_BASE_URL
 * between two starts, gets no credential delivered to the new address: the call is refused with
 * 422 connection_unusable (reason origin_changed), the credential needs a reconnect, and the audit
 * log names the old and new origins. The new address is a loopback server that records requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, testMasterKey, type TestBroker, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { completeAuthorization } from "./support/fake-upstreams/index.js";
import { eventsOf } from "./support/connections.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { startFakeTasks, type FakeTasks } from "./support/fake-tasks.js";
import { startFakeUpstreams, type FakeUpstreams } from "./support/fake-upstreams/index.js";
import { asOperator, call, findSecret, mintBrokerToken } from "./support/http.js";
import { startRecordingServer, type RecordingServer } from "./support/recording-server.js";
import { execute } from "./support/tool-execution.js";

const API_KEY = "tasks-key-0123456789abcdef";
const CLIENT = { id: "acme-tasks-app", secret: "acme-tasks-secret-0123456789" };

const getTaskTool = (provider: string) => ({
  name: `${provider}.get_task`,
  description: "Get one task by id.",
  arguments_schema: { type: "object", properties: { id: { type: "string", minLength: 1 } }, required: ["id"], additionalProperties: false },
  risk: "low",
  side_effect: "read",
  request: { method: "GET", path: "/tasks/{id}" },
  response: { fields: { task_id: "/id", title: "/title" } },
});

const auditData = async (broker: TestBroker, tenant: TestTenant, action: string) =>
  (await call(broker, "GET", `/v1/audit?action=${action}`, asOperator(tenant))).body.data as { target: { id: string }; data: Record<string, any> }[];

/** Everything the new address received, as one string to search for secrets. */
const received = (server: RecordingServer) => JSON.stringify(server.requests);

describeEachDatabase("a custom provider re-pointed after credentials were issued", (kind) => {
  let broker: TestBroker;
  let acme: TestTenant;
  let tasks: FakeTasks;
  let oauthTasks: FakeTasks;
  let elsewhere: RecordingServer;

  beforeAll(async () => {
    tasks = await startFakeTasks({ auth: "api_key", apiKey: API_KEY });
    oauthTasks = await startFakeTasks({ auth: "oauth", clientIds: { [CLIENT.id]: CLIENT.secret } });
    elsewhere = await startRecordingServer();
    broker = await startBroker(kind);
    acme = await createTenant(broker, "Acme");
  });
  afterAll(async () => {
    await broker?.close();
    await tasks?.close();
    await oauthTasks?.close();
    await elsewhere?.close();
  });

  const post = (path: string, body: unknown) => call(broker, "POST", path, { ...asOperator(acme), body });
  const patchProvider = (id: string, declaration: Record<string, unknown>) => call(broker, "PATCH", `/v1/providers/${id}`, { ...asOperator(acme), body: { declaration } });
  const tokenFor = async (endUserId: string) => {
    const minted = await call(broker, "POST", "/v1/broker/token", { token: acme.testKey, body: { agent_app_id: acme.agentAppId, env: "test", end_user_id: endUserId } });
    expect(minted.status, minted.text).toBe(200);
    return minted.body.access_token as string;
  };

  it("never sends an end user's stored API key to the provider's new api_base_url, and audits the old and new origins", async () => {
    const declaration = { id: "tasks", display_name: "Tasks", api_base_url: tasks.apiBaseUrl, auth: { type: "api_key", in: "header", name: "X-Api-Key" } };
    expect((await post("/v1/providers", { declaration })).status).toBe(201);
    expect((await post("/v1/providers/tasks/tools", { declaration: getTaskTool("tasks") })).status).toBe(201);
    const stored = await broker.services.secretItems.createForEndUser(acme.tenantId, { provider: "tasks", env: "test", value: API_KEY, endUserId: "alice", label: null }, { type: "end_user", id: "alice" });
    const alice = await tokenFor("alice");
    const before = await execute(broker, alice, { tool_name: "tasks.get_task", arguments: { id: "task-1" } });
    expect(before.status, before.text).toBe(200);

    const patched = await patchProvider("tasks", { api_base_url: `${elsewhere.url}/api` });
    expect(patched.status, patched.text).toBe(200);

    const refused = await execute(broker, alice, { tool_name: "tasks.get_task", arguments: { id: "task-1" }, secret_item_id: stored.secret_item_id });
    expectError(refused, 422, "connection_unusable");
    expect(refused.body.error.details).toMatchObject({ reason: "origin_changed", reconnect_required: true });
    expect(elsewhere.requests).toEqual([]);
    expect(received(elsewhere)).not.toContain(API_KEY);
    expect(findSecret(broker, API_KEY)).toEqual([]);

    const items = await call(broker, "GET", "/v1/secrets", asOperator(acme));
    expect(items.body.data.find((item: { secret_item_id: string }) => item.secret_item_id === stored.secret_item_id)).toMatchObject({ reconnect_reason: "origin_changed" });
    const [updated] = await auditData(broker, acme, "provider.updated");
    expect(updated!.data).toMatchObject({
      fields: ["api_base_url"],
      origins: { changed: ["api_base_url"], from: { api_base_url: new URL(tasks.url).origin }, to: { api_base_url: elsewhere.url } },
      needs_reconnect: { connections: 0, secret_items: 1 },
    });
    expect(JSON.stringify(updated)).not.toContain(API_KEY);
    // Without a handle the item is no longer a candidate either: nothing goes out.
    expectError(await execute(broker, alice, { tool_name: "tasks.get_task", arguments: { id: "task-1" } }), 422, "credential_required");
    expect(elsewhere.requests).toEqual([]);
  });

  it("never sends an OAuth connection's refresh token to the provider's new token_url, and asks for a reconnect", async () => {
    const declaration = {
      id: "tasks-oauth",
      display_name: "Tasks (OAuth)",
      api_base_url: oauthTasks.apiBaseUrl,
      auth: { type: "oauth2", authorize_url: oauthTasks.authorizeUrl, token_url: oauthTasks.tokenUrl, revocation_url: oauthTasks.revokeUrl, scopes: ["tasks"] },
      identity: { path: "/me", account_id: "/id", display_name: "/name" },
    };
    expect((await post("/v1/providers", { env: "test", declaration })).status).toBe(201);
    expect((await post("/v1/providers/tasks-oauth/tools", { declaration: getTaskTool("tasks-oauth") })).status).toBe(201);
    const put = await call(broker, "PUT", "/v1/providers/tasks-oauth/oauth-client", { ...asOperator(acme), body: { env: "test", client_id: CLIENT.id, client_secret: CLIENT.secret } });
    expect(put.status, put.text).toBe(200);
    const connectionId = await connectAccount(broker, acme, "tasks-oauth");
    const token = await mintBrokerToken(broker, acme);
    expect((await execute(broker, token, { tool_name: "tasks-oauth.get_task", arguments: { id: "task-1" }, connected_account_id: connectionId })).status).toBe(200);

    expect((await patchProvider("tasks-oauth", { auth: { token_url: `${elsewhere.url}/oauth/token` } })).status).toBe(200);
    oauthTasks.expireAccessTokens();
    const refused = await execute(broker, token, { tool_name: "tasks-oauth.get_task", arguments: { id: "task-1" }, connected_account_id: connectionId });
    expectError(refused, 422, "connection_unusable");
    expect(refused.body.error.details).toMatchObject({ connection_status: "expired", reason: "origin_changed", reconnect_required: true });
    expect(elsewhere.requests).toEqual([]);
    expect(oauthTasks.stats.refreshGrants).toBe(0);

    const connection = await call(broker, "GET", `/v1/connections/${connectionId}`, asOperator(acme));
    expect(connection.body).toMatchObject({ status: "expired", reconnect_reason: "origin_changed" });
    const [updated] = await auditData(broker, acme, "provider.updated");
    expect(updated!.data).toMatchObject({
      origins: { changed: ["token_url"], from: { token_url: new URL(oauthTasks.url).origin }, to: { token_url: elsewhere.url } },
      needs_reconnect: { connections: 1, secret_items: 0 },
    });
    const expired = (await eventsOf(broker, acme.tenantId, "connection.expired")).filter((event) => event.data.connected_account_id === connectionId);
    expect(expired.map((event) => event.data.reason)).toEqual(["origin_changed"]);
    // Revoking it later sends its tokens nowhere: neither the new address nor (being moved) the old one.
    const revocations = oauthTasks.stats.revocations;
    const revoked = await call(broker, "DELETE", `/v1/connections/${connectionId}`, asOperator(acme));
    expect(revoked.body).toMatchObject({ status: "revoked", upstream_revocation: "failed" });
    expect(oauthTasks.stats.revocations).toBe(revocations);
    expect(elsewhere.requests).toEqual([]);
  });
  it("never sends a token to a revocation_url moved outside the origins it was issued for", async () => {
    const declaration = {
      id: "tasks-revocable",
      display_name: "Tasks (revocable)",
      api_base_url: oauthTasks.apiBaseUrl,
      auth: { type: "oauth2", authorize_url: oauthTasks.authorizeUrl, token_url: oauthTasks.tokenUrl, revocation_url: oauthTasks.revokeUrl, scopes: ["tasks"] },
      identity: { path: "/me", account_id: "/id", display_name: "/name" },
    };
    expect((await post("/v1/providers", { env: "test", declaration })).status).toBe(201);
    expect((await post("/v1/providers/tasks-revocable/tools", { declaration: getTaskTool("tasks-revocable") })).status).toBe(201);
    await call(broker, "PUT", "/v1/providers/tasks-revocable/oauth-client", { ...asOperator(acme), body: { env: "test", client_id: CLIENT.id, client_secret: CLIENT.secret } });
    const connectionId = await connectAccount(broker, acme, "tasks-revocable");
    expect((await patchProvider("tasks-revocable", { auth: { revocation_url: `${elsewhere.url}/oauth/revoke` } })).status).toBe(200);
    // Its token endpoint and API did not move: calls go on.
    const token = await mintBrokerToken(broker, acme);
    expect((await execute(broker, token, { tool_name: "tasks-revocable.get_task", arguments: { id: "task-1" }, connected_account_id: connectionId })).status).toBe(200);

    const revoked = await call(broker, "DELETE", `/v1/connections/${connectionId}`, asOperator(acme));
    expect(revoked.body).toMatchObject({ status: "revoked", upstream_revocation: "failed" });
    expect(elsewhere.requests).toEqual([]);
    const [audit] = (await auditData(broker, acme, "connection.revoked")).filter((event) => event.target.id === connectionId);
    expect(audit!.data).toMatchObject({ upstream_revocation_not_sent: { reason: "revocation_origin" } });
  });
  it("never exchanges an authorization code at a token_url changed while the connect was under way", async () => {
    const declaration = {
      id: "tasks-midflow",
      display_name: "Tasks (mid-flow)",
      api_base_url: oauthTasks.apiBaseUrl,
      auth: { type: "oauth2", authorize_url: oauthTasks.authorizeUrl, token_url: oauthTasks.tokenUrl, scopes: ["tasks"] },
      identity: { path: "/me", account_id: "/id", display_name: "/name" },
    };
    expect((await post("/v1/providers", { env: "test", declaration })).status).toBe(201);
    await call(broker, "PUT", "/v1/providers/tasks-midflow/oauth-client", { ...asOperator(acme), body: { env: "test", client_id: CLIENT.id, client_secret: CLIENT.secret } });
    const start = await post("/v1/connections/oauth/start", { provider: "tasks-midflow" });
    expect(start.status, start.text).toBe(200);
    const authorization = await completeAuthorization(start.body.authorize_url);
    expect((await patchProvider("tasks-midflow", { auth: { token_url: `${elsewhere.url}/oauth/token` } })).status).toBe(200);

    const callback = await call(broker, "GET", `${authorization.location!.pathname}${authorization.location!.search}`);
    expectError(callback, 400, "oauth_state_invalid");
    expect(callback.body.error.details).toMatchObject({ reason: "origin_changed", changed: ["token_url"] });
    expect(elsewhere.requests).toEqual([]);
  });
});

describeEachDatabase("a BROKER_PROVIDER_*_API_BASE_URL changed between two starts", (kind) => {
  let database: TestDatabase;
  let fakes: FakeUpstreams;
  let elsewhere: RecordingServer;
  let tenant: TestTenant;
  let scm: string;
  let linearKey: { id: string; value: string };
  let accessToken: string;
  let restarted: TestBroker;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    fakes = await startFakeUpstreams();
    elsewhere = await startRecordingServer();
    const env = { ...fakes.github.env, ...fakes.linear.env, BROKER_MASTER_KEYS: testMasterKey("origins-restart") };
    const first = await startBroker(kind, { database, env });
    try {
      tenant = await createTenant(first);
      scm = await connectAccount(first, tenant, "scm");
      const value = fakes.linear.addApiKey();
      const created = await call(first, "POST", "/v1/secrets", { ...asOperator(tenant), body: { provider: "tracker", env: "test", name: "linear", value } });
      linearKey = { id: created.body.secret_item_id, value };
      expect((await execute(first, await mintBrokerToken(first, tenant), { tool_name: "scm.get_authenticated_user", connected_account_id: scm })).status).toBe(200);
      accessToken = fakes.github.stats.apiCalls.at(-1)!.authorization!.replace(/^Bearer /, "");
    } finally {
      await first.close();
    }
    // The same data, started again with both providers' API base URL pointed elsewhere.
    restarted = await startBroker(kind, { database, env: { ...env, BROKER_PROVIDER_SCM_API_BASE_URL: elsewhere.url, BROKER_PROVIDER_TRACKER_API_BASE_URL: elsewhere.url } });
  });
  afterAll(async () => {
    await restarted?.close();
    await fakes?.close();
    await elsewhere?.close();
    await database?.drop();
  });

  it("refuses the connection's call without sending its token, expires it, and audits both origins", async () => {
    const token = await mintBrokerToken(restarted, tenant);
    const refused = await execute(restarted, token, { tool_name: "scm.get_authenticated_user", connected_account_id: scm });
    expectError(refused, 422, "connection_unusable");
    expect(refused.body.error.details).toMatchObject({
      reason: "origin_changed",
      reconnect_required: true,
      changed: ["api_base_url"],
      from: { api_base_url: new URL(fakes.github.url).origin },
      to: { api_base_url: elsewhere.url },
    });
    expect(elsewhere.requests).toEqual([]);
    expect(received(elsewhere)).not.toContain(accessToken);

    const connection = await call(restarted, "GET", `/v1/connections/${scm}`, asOperator(tenant));
    expect(connection.body).toMatchObject({ status: "expired", reconnect_reason: "origin_changed" });
    const audit = (await auditData(restarted, tenant, "connection.expired")).filter((event) => event.target.id === scm);
    expect(audit).toHaveLength(1);
    expect(audit[0]!.data).toMatchObject({ reason: "origin_changed", from: { api_base_url: new URL(fakes.github.url).origin }, to: { api_base_url: elsewhere.url } });
    expect(JSON.stringify(audit)).not.toContain(accessToken);
  });

  it("revokes the moved connection here without sending its token to the new address", async () => {
    const revoked = await call(restarted, "DELETE", `/v1/connections/${scm}`, asOperator(tenant));
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ status: "revoked", upstream_revocation: "failed" });
    expect(elsewhere.requests).toEqual([]);
    const [audit] = (await auditData(restarted, tenant, "connection.revoked")).filter((event) => event.target.id === scm);
    expect(audit!.data).toMatchObject({ upstream_revocation_not_sent: { reason: "origin_changed" } });
  });

  it("refuses a stored API key of the moved provider before opening it, and marks it to be stored again", async () => {
    const token = await mintBrokerToken(restarted, tenant);
    const refused = await execute(restarted, token, { tool_name: "tracker.list_issues", secret_item_id: linearKey.id });
    expectError(refused, 422, "connection_unusable");
    expect(refused.body.error.details).toMatchObject({ reason: "origin_changed", reconnect_required: true });
    expect(elsewhere.requests).toEqual([]);
    expect(received(elsewhere)).not.toContain(linearKey.value);
    const [audit] = (await auditData(restarted, tenant, "secret_item.needs_reconnect")).filter((event) => event.target.id === linearKey.id);
    expect(audit!.data).toMatchObject({ reason: "origin_changed", from: { api_base_url: new URL(fakes.linear.url).origin }, to: { api_base_url: elsewhere.url } });
    expect(JSON.stringify(audit)).not.toContain(linearKey.value);
  });
});

describe("credentials stored before origins were recorded", () => {
  it("are bound at their first use to the origins their provider has then, and refused once it moves", async () => {
    const database = await createTestDatabase("sqlite");
    const fakes = await startFakeUpstreams();
    const elsewhere = await startRecordingServer();
    const env = { ...fakes.github.env, BROKER_MASTER_KEYS: testMasterKey("origins-unbound") };
    const first = await startBroker("sqlite", { database, env });
    let second: TestBroker | undefined;
    try {
      const tenant = await createTenant(first);
      const scm = await connectAccount(first, tenant, "scm");
      // As a row written before migration 0014 left it.
      await first.services.store.db.updateTable("connections").set({ token_origin: null, api_origin: null }).where("id", "=", scm).execute();
      first.services.connectionCache.invalidate(scm);
      const used = await execute(first, await mintBrokerToken(first, tenant), { tool_name: "scm.get_authenticated_user", connected_account_id: scm });
      expect(used.status, used.text).toBe(200);
      const row = await first.services.store.db.selectFrom("connections").select(["token_origin", "api_origin"]).where("id", "=", scm).executeTakeFirstOrThrow();
      expect(row).toEqual({ token_origin: new URL(fakes.github.url).origin, api_origin: new URL(fakes.github.url).origin });
      await first.close();

      second = await startBroker("sqlite", { database, env: { ...env, BROKER_PROVIDER_SCM_API_BASE_URL: elsewhere.url } });
      const refused = await execute(second, await mintBrokerToken(second, tenant), { tool_name: "scm.get_authenticated_user", connected_account_id: scm });
      expectError(refused, 422, "connection_unusable");
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await second?.close();
      await first.close().catch(() => undefined);
      await fakes.close();
      await elsewhere.close();
      await database.drop();
    }
  });
});
