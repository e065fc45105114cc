/**
 * Issue 41: `GET /v1/oauth-clients` lists a tenant's own OAuth apps for every provider at once, so
 * the console learns which providers use their own app with one request, instead of asking each
 * provider and getting a 404 for every one that has none. Secrets never come back.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, findSecret, mintBrokerToken } from "./support/http.js";
import { startToolWorld, type ToolWorld } from "./support/tool-execution.js";

describeEachDatabase("listing a tenant's own OAuth apps", (kind) => {
  let world: ToolWorld;
  let acme: TestTenant;
  let globex: TestTenant;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    acme = world.tenant;
    globex = await createTenant(world.broker, "Globex");
  });
  afterAll(async () => world?.close());

  const putApp = (tenant: TestTenant, provider: string, env: "test" | "live", secret: string) =>
    call(world.broker, "PUT", `/v1/providers/${provider}/oauth-client`, { ...asOperator(tenant), body: { env, client_id: `client-${provider}-${env}`, client_secret: secret } });
  const list = (tenant: TestTenant, query = "") => call(world.broker, "GET", `/v1/oauth-clients${query}`, asOperator(tenant));

  it("answers 401 without an operator session, also to a control key or an agent's broker JWT", async () => {
    const jwt = await mintBrokerToken(world.broker, acme);
    for (const token of [undefined, jwt, acme.testKey]) {
      expectError(await call(world.broker, "GET", "/v1/oauth-clients", token ? { token, tenant: acme.tenantId } : {}), 401, "unauthorized");
    }
  });

  it("answers an empty list (not 404) while the tenant has no app of its own", async () => {
    const listed = await list(globex);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual({ data: [] });
  });

  it("lists the current app of each provider and env with the secret's hint, never the secret, and nothing of another tenant's", async () => {
    const secrets = { scmTest: `scm-test-${randomUUID()}`, scmLive: `scm-live-${randomUUID()}`, chat: `chat-${randomUUID()}` };
    expect((await putApp(acme, "scm", "test", `replaced-${randomUUID()}`)).status).toBe(200);
    expect((await putApp(acme, "scm", "test", secrets.scmTest)).status).toBe(200);
    expect((await putApp(acme, "scm", "live", secrets.scmLive)).status).toBe(200);
    expect((await putApp(acme, "chat", "test", secrets.chat)).status).toBe(200);

    const listed = await list(acme);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual([
      { provider: "chat", env: "test", client_id: "client-chat-test", client_secret_hint: secrets.chat.slice(-4), created_at: expect.any(String) },
      { provider: "scm", env: "live", client_id: "client-scm-live", client_secret_hint: secrets.scmLive.slice(-4), created_at: expect.any(String) },
      { provider: "scm", env: "test", client_id: "client-scm-test", client_secret_hint: secrets.scmTest.slice(-4), created_at: expect.any(String) },
    ]);
    // Each entry is what the one-provider read answers.
    expect(listed.body.data[2]).toEqual((await call(world.broker, "GET", "/v1/providers/scm/oauth-client?env=test", asOperator(acme))).body);
    expect((await list(acme, "?env=live")).body.data.map((app: { provider: string }) => app.provider)).toEqual(["scm"]);
    expect((await list(globex)).body.data).toEqual([]);
    for (const secret of Object.values(secrets)) {
      expect(listed.text).not.toContain(secret);
      expect(findSecret(world.broker, secret)).toEqual([]);
    }
  });

  it("leaves out an app that was removed", async () => {
    const removed = await call(world.broker, "DELETE", "/v1/providers/chat/oauth-client?env=test", asOperator(acme));
    expect(removed.status, removed.text).toBe(204);
    expect((await list(acme, "?env=test")).body.data.map((app: { provider: string }) => app.provider)).toEqual(["scm"]);
  });

  it("refuses an unknown env with 400 and the envelope", async () => {
    expectError(await list(acme, "?env=staging"), 400, "invalid_request");
    expectError(await list(acme, "?provider=scm"), 400, "invalid_request");
  });
});
