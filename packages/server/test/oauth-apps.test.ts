/**
 * Issue 17: a tenant brings its own OAuth app (PUT /v1/providers/{id}/oauth-client). Its connects
 * go through that client — the fake GitHub sees its client id at authorize, code exchange and
 * refresh — while other tenants keep the broker-wide one; a connection keeps refreshing with the
 * client that issued it after the app is replaced or removed; the secret never comes back.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, findSecret, mintBrokerToken } from "./support/http.js";
import { execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

describeEachDatabase("bring your own OAuth app", (kind) => {
  let world: ToolWorld;
  let acme: TestTenant;
  let globex: TestTenant;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    acme = world.tenant;
    globex = await createTenant(world.broker, "Globex");
  });
  afterAll(async () => world?.close());

  const github = () => world.fakes.github;
  const putApp = (tenant: TestTenant, provider: string, body: Record<string, unknown>) =>
    call(world.broker, "PUT", `/v1/providers/${provider}/oauth-client`, { ...asOperator(tenant), body });
  const lastGrant = (grantType: "authorization_code" | "refresh_token") => github().stats.tokenGrants.filter((grant) => grant.grantType === grantType).at(-1)?.clientId;

  /** Makes the connection's access token stale at the fake, then calls a tool: the broker refreshes once. */
  async function callAfterExpiry(tenant: TestTenant, connectionId: string) {
    github().expireAllAccessTokens();
    const result = await execute(world.broker, await mintBrokerToken(world.broker, tenant), { tool_name: "scm.get_authenticated_user", connected_account_id: connectionId });
    expect(result.status, result.text).toBe(200);
  }

  it("stores the app, shows only the secret's last four characters, and never the secret", async () => {
    const app = github().registerClient();
    const put = await putApp(acme, "scm", { env: "test", client_id: app.clientId, client_secret: app.clientSecret });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toEqual({ provider: "scm", env: "test", client_id: app.clientId, client_secret_hint: app.clientSecret.slice(-4), created_at: expect.any(String) });
    const read = await call(world.broker, "GET", "/v1/providers/scm/oauth-client?env=test", asOperator(acme));
    expect(read.body).toEqual(put.body);
    expectError(await call(world.broker, "GET", "/v1/providers/scm/oauth-client?env=live", asOperator(acme)), 404, "not_found");
    expectError(await call(world.broker, "GET", "/v1/providers/scm/oauth-client", asOperator(globex)), 404, "not_found");
    const audit = await call(world.broker, "GET", "/v1/audit?action=oauth_app.set", asOperator(acme));
    expect(audit.body.data[0]).toMatchObject({ action: "oauth_app.set", data: { provider: "scm", env: "test", client_id: app.clientId } });
    const stored = await world.broker.services.store.db.selectFrom("oauth_apps").select("client_secret_sealed").execute();
    expect(stored.map((row) => row.client_secret_sealed).join()).not.toContain(app.clientSecret);
    expect(findSecret(world.broker, app.clientSecret)).toEqual([]);
  });

  it("connects through the tenant's app and refreshes with it; another tenant keeps the broker-wide client", async () => {
    const mine = (await call(world.broker, "GET", "/v1/providers/scm/oauth-client", asOperator(acme))).body.client_id as string;
    const connectionId = await connectAccount(world.broker, acme, "scm");
    expect(github().stats.authorizeRequests.at(-1)?.client_id).toBe(mine);
    expect(lastGrant("authorization_code")).toBe(mine);
    await callAfterExpiry(acme, connectionId);
    expect(lastGrant("refresh_token")).toBe(mine);

    await connectAccount(world.broker, globex, "scm");
    expect(github().stats.authorizeRequests.at(-1)?.client_id).toBe(github().clientId);
    expect(lastGrant("authorization_code")).toBe(github().clientId);
  });

  it("keeps a connection on the app that issued it when the app is replaced or removed", async () => {
    const first = (await call(world.broker, "GET", "/v1/providers/scm/oauth-client", asOperator(acme))).body.client_id as string;
    const before = await connectAccount(world.broker, acme, "scm");
    const second = github().registerClient();
    expect((await putApp(acme, "scm", { env: "test", client_id: second.clientId, client_secret: second.clientSecret })).status).toBe(200);

    const after = await connectAccount(world.broker, acme, "scm");
    expect(lastGrant("authorization_code")).toBe(second.clientId);
    await callAfterExpiry(acme, before);
    expect(lastGrant("refresh_token")).toBe(first);
    await callAfterExpiry(acme, after);
    expect(lastGrant("refresh_token")).toBe(second.clientId);

    expect((await call(world.broker, "DELETE", "/v1/providers/scm/oauth-client?env=test", asOperator(acme))).status).toBe(204);
    expectError(await call(world.broker, "GET", "/v1/providers/scm/oauth-client", asOperator(acme)), 404, "not_found");
    await connectAccount(world.broker, acme, "scm");
    expect(lastGrant("authorization_code")).toBe(github().clientId);
    await callAfterExpiry(acme, after);
    expect(lastGrant("refresh_token")).toBe(second.clientId);
  });

  it("rotates the secret of the same client id for the connections it issued", async () => {
    const app = github().registerClient();
    expect((await putApp(globex, "scm", { env: "test", client_id: app.clientId, client_secret: app.clientSecret })).status).toBe(200);
    const connectionId = await connectAccount(world.broker, globex, "scm");
    const rotated = github().rotateClientSecret(app.clientId);
    github().expireAllAccessTokens();
    const token = await mintBrokerToken(world.broker, globex);
    const refused = await execute(world.broker, token, { tool_name: "scm.get_authenticated_user", connected_account_id: connectionId });
    expect(refused.status, refused.text).toBeGreaterThanOrEqual(400);
    const put = await putApp(globex, "scm", { env: "test", client_id: app.clientId, client_secret: rotated });
    expect(put.body.client_secret_hint).toBe(rotated.slice(-4));
    const rows = await world.broker.services.store.db.selectFrom("oauth_apps").select(["status"]).where("tenant_id", "=", globex.tenantId).where("client_id", "=", app.clientId).execute();
    expect(rows).toEqual([{ status: "current" }]);
    await callAfterExpiry(globex, connectionId);
    expect(lastGrant("refresh_token")).toBe(app.clientId);
  });

  it("keeps one current app when PUTs race, and shows no hint of a short secret", async () => {
    const apps = [github().registerClient(), github().registerClient(), github().registerClient()];
    const answers = await Promise.all(apps.map((app) => putApp(globex, "tracker", { env: "live", client_id: app.clientId, client_secret: app.clientSecret })));
    for (const answer of answers) expect([200, 409], answer.text).toContain(answer.status);
    const current = await world.broker.services.store.db.selectFrom("oauth_apps").select("id").where("tenant_id", "=", globex.tenantId).where("provider", "=", "tracker").where("status", "=", "current").execute();
    expect(current).toHaveLength(1);
    const short = await putApp(globex, "tracker", { env: "live", client_id: "short-secret-app", client_secret: "s3cr" });
    expect(short.body.client_secret_hint).toBeNull();
  });

  it("revokes a connection whose app is gone, recording that the provider could not be told", async () => {
    const app = github().registerClient();
    expect((await putApp(globex, "scm", { env: "test", client_id: app.clientId, client_secret: app.clientSecret })).status).toBe(200);
    const connectionId = await connectAccount(world.broker, globex, "scm");
    // Another row's ciphertext in the app's secret column: it cannot be opened there (the AAD names the row).
    const { db } = world.broker.services.store;
    const foreign = await db.selectFrom("connections").select("credential_sealed").where("id", "=", connectionId).executeTakeFirstOrThrow();
    await db.updateTable("oauth_apps").set({ client_secret_sealed: foreign.credential_sealed! }).where("client_id", "=", app.clientId).execute();
    const revoked = await call(world.broker, "DELETE", `/v1/connections/${connectionId}`, asOperator(globex));
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body).toMatchObject({ status: "revoked", upstream_revocation: "failed" });
  });

  it("refreshes many connections of a tenant app at once without starving the database pool", { timeout: 60_000 }, async () => {
    const app = github().registerClient();
    const tenant = await createTenant(world.broker, "Many");
    expect((await putApp(tenant, "scm", { env: "test", client_id: app.clientId, client_secret: app.clientSecret })).status).toBe(200);
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push(await connectAccount(world.broker, tenant, "scm"));
    github().expireAllAccessTokens();
    const token = await mintBrokerToken(world.broker, tenant);
    const results = await Promise.all(ids.map((id) => execute(world.broker, token, { tool_name: "scm.get_authenticated_user", connected_account_id: id })));
    expect(results.map((result) => result.status)).toEqual(ids.map(() => 200));
  });

  it("refuses what cannot be an OAuth app: viewers, unknown providers, bad bodies", async () => {
    const issuer = world.broker.runtime.developmentIssuer!;
    await world.broker.services.tenants.addMember(acme.tenantId, { issuer: issuer.issuer, subject: "viewer-7", role: "viewer" }, "test");
    const viewer = { token: await issuer.issue("viewer-7"), tenant: acme.tenantId };
    const body = { env: "test", client_id: "x", client_secret: "y" };
    expectError(await call(world.broker, "PUT", "/v1/providers/scm/oauth-client", { ...viewer, body }), 403, "forbidden");
    expectError(await putApp(acme, "nosuch", body), 404, "not_found");
    expectError(await putApp(acme, "scm", { ...body, client_secret: "" }), 400, "invalid_request");
    expectError(await putApp(acme, "scm", { ...body, extra: 1 }), 400, "invalid_request");
    expectError(await putApp(acme, "scm", { ...body, env: "prod" }), 400, "invalid_request");
    expectError(await call(world.broker, "PUT", "/v1/providers/scm/oauth-client", { token: acme.testKey, body }), 401, "unauthorized");
  });
});

describeEachDatabase("a tenant's own OAuth app where the broker has none", (kind) => {
  let world: ToolWorld;

  beforeAll(async () => {
    // GitHub's endpoints point at the fake, but the broker has no client for it: empty counts as unset.
    world = await startToolWorld(kind, { env: { BROKER_PROVIDER_SCM_CLIENT_ID: "", BROKER_PROVIDER_SCM_CLIENT_SECRET: "" } });
  });
  afterAll(async () => world?.close());

  it("makes the provider connectable for that tenant only: connect sessions, the connect page and the operator flow", async () => {
    const other = await createTenant(world.broker, "Without an app");
    const session = (tenant: TestTenant) => call(world.broker, "POST", "/v1/connect-sessions", { token: tenant.testKey, body: { end_user_id: "u-1", providers: ["scm"] } });
    expectError(await session(world.tenant), 422, "provider_not_configured");
    const app = world.fakes.github.registerClient();
    const put = await call(world.broker, "PUT", "/v1/providers/scm/oauth-client", { ...asOperator(world.tenant), body: { env: "test", client_id: app.clientId, client_secret: app.clientSecret } });
    expect(put.status, put.text).toBe(200);
    const created = await session(world.tenant);
    expect(created.status, created.text).toBe(201);
    const page = await call(world.broker, "GET", new URL(created.body.connect_url).pathname, { headers: { accept: "text/html" } });
    expect(page.text).toContain(`${new URL(created.body.connect_url).pathname}/scm`);
    expectError(await session(other), 422, "provider_not_configured");

    await connectAccount(world.broker, world.tenant, "scm");
    expect(world.fakes.github.stats.tokenGrants.at(-1)).toEqual({ grantType: "authorization_code", clientId: app.clientId });
  });
});
