/**
 * Issue 3: every way a connect can fail — a replayed, expired, unknown or foreign state, the
 * provider's `error=` callback, a refused code exchange, a provider the broker has no client
 * for — answers a clear error envelope and stores nothing.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { createTenant, startBroker, type TestBroker } from "./support/broker.js";
import { connectThroughBrowser } from "./support/connect.js";
import { countRows, startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { completeAuthorization } from "./support/fake-upstreams/index.js";
import { asOperator, call } from "./support/http.js";

describeEachDatabase("OAuth connect failures", (kind) => {
  const clock = manualClock();
  let world: ConnectionsWorld;
  let broker: TestBroker;

  beforeAll(async () => {
    world = await startConnectionsWorld(kind, { clock });
    broker = world.broker;
  });
  afterAll(() => world.close());

  /** start → the fake's authorize step; returns the callback path the browser would follow. */
  async function authorize(provider: string, target: TestBroker = broker, tenant = world.tenant) {
    const started = await call(target, "POST", "/v1/connections/oauth/start", { ...asOperator(tenant), body: { provider } });
    expect(started.status, started.text).toBe(200);
    const authorization = await completeAuthorization(started.body.authorize_url);
    return { state: started.body.state as string, authorization, callbackPath: `${authorization.location!.pathname}${authorization.location!.search}` };
  }

  /** Runs `attempt` and checks that no connection was stored meanwhile. */
  async function storesNothing(attempt: () => Promise<void>, target: TestBroker = broker) {
    const before = await countRows(target, "connections");
    await attempt();
    expect(await countRows(target, "connections")).toBe(before);
  }

  it("refuses a replayed callback without a second code exchange", async () => {
    const { callback, callbackPath } = await connectThroughBrowser(broker, world.tenant, "scm");
    expect(callback.status).toBe(200);
    const tokenRequests = world.fakes.github.stats.tokenRequests;
    await storesNothing(async () => {
      const replay = await call(broker, "GET", callbackPath);
      expectError(replay, 400, "oauth_state_invalid");
    });
    expect(world.fakes.github.stats.tokenRequests).toBe(tokenRequests);
  });

  it("lets only one of two simultaneous callbacks with the same state through", async () => {
    const { callbackPath } = await authorize("tracker");
    const before = await countRows(broker, "connections");
    const results = await Promise.all([call(broker, "GET", callbackPath), call(broker, "GET", callbackPath)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await countRows(broker, "connections")).toBe(before + 1);
  });

  it("refuses a state older than 10 minutes, even with a valid code", async () => {
    const { callbackPath } = await authorize("scm");
    clock.advance(10 * 60_000 + 1_000);
    const tokenRequests = world.fakes.github.stats.tokenRequests;
    await storesNothing(async () => expectError(await call(broker, "GET", callbackPath), 400, "oauth_state_expired"));
    expect(world.fakes.github.stats.tokenRequests).toBe(tokenRequests);
  });

  it("accepts a state used just before its 10 minutes are up", async () => {
    const { callbackPath } = await authorize("scm");
    clock.advance(10 * 60_000 - 1_000);
    expect((await call(broker, "GET", callbackPath)).status).toBe(200);
  });

  it("refuses an unknown, altered or missing state", async () => {
    const { authorization } = await authorize("chat");
    const code = authorization.code!;
    const altered = `${authorization.state!.slice(0, -1)}${authorization.state!.endsWith("A") ? "B" : "A"}`;
    await storesNothing(async () => {
      expectError(await call(broker, "GET", `/v1/connections/oauth/callback?code=${code}&state=${altered}`), 400, "oauth_state_invalid");
      expectError(await call(broker, "GET", `/v1/connections/oauth/callback?code=${code}&state=not-a-state-we-issued`), 400, "oauth_state_invalid");
      expectError(await call(broker, "GET", `/v1/connections/oauth/callback?code=${code}`), 400, "oauth_state_invalid");
    });
  });

  it("refuses a callback with a state but neither code nor error as 400 invalid_request, without spending the state", async () => {
    const { state, callbackPath } = await authorize("tracker");
    await storesNothing(async () => {
      const result = await call(broker, "GET", `/v1/connections/oauth/callback?state=${state}`);
      expectError(result, 400, "invalid_request");
      expect(result.body.error.details.fields).toEqual([{ location: "querystring", field: "/code", message: expect.any(String) }]);
    });
    expect((await call(broker, "GET", callbackPath)).status).toBe(200);
  });

  it("refuses a state another broker issued (its own database knows nothing of it)", async () => {
    const other = await startBroker(kind, { env: { ...world.fakes.github.env } });
    try {
      const otherTenant = await createTenant(other);
      const { callbackPath } = await authorize("scm", other, otherTenant);
      await storesNothing(async () => expectError(await call(broker, "GET", callbackPath), 400, "oauth_state_invalid"));
      // The state is still good where it was issued.
      expect((await call(other, "GET", callbackPath)).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it("reports the provider's error= callback and spends the state", async () => {
    world.fakes.slack.denyNextAuthorization();
    const { authorization, callbackPath } = await authorize("chat");
    expect(authorization.error).toBe("access_denied");
    const tokenRequests = world.fakes.slack.stats.tokenRequests;
    await storesNothing(async () => {
      const denied = await call(broker, "GET", callbackPath);
      expectError(denied, 400, "oauth_denied");
      expect(denied.body.error.details).toEqual({ upstream_error: "access_denied" });
      expectError(await call(broker, "GET", callbackPath), 400, "oauth_state_invalid");
    });
    expect(world.fakes.slack.stats.tokenRequests).toBe(tokenRequests);
  });

  it("reports a refused code exchange (GitHub's error inside HTTP 200) and stores nothing", async () => {
    const { callbackPath } = await authorize("scm");
    world.fakes.github.failNextTokenRequest(1, { status: 200, body: { error: "bad_verification_code", error_description: "The code passed is incorrect or expired." } });
    await storesNothing(async () => {
      const failed = await call(broker, "GET", callbackPath);
      expectError(failed, 400, "oauth_exchange_failed");
      expect(failed.body.error.details).toEqual({ upstream_error: "bad_verification_code" });
    });
  });

  it("reports a refused code exchange (Linear's RFC 6749 invalid_grant) and stores nothing", async () => {
    const { callbackPath } = await authorize("tracker");
    world.fakes.linear.failNextTokenRequest(1, { status: 400, body: { error: "invalid_grant", error_description: "Authorization code has expired" } });
    await storesNothing(async () => expectError(await call(broker, "GET", callbackPath), 400, "oauth_exchange_failed"));
  });

  it("reports a token endpoint that is down as 502 upstream_error (the code was not refused), never a 500", async () => {
    const { callbackPath } = await authorize("chat");
    world.fakes.slack.failNextTokenRequest(1, { status: 503, body: "upstream maintenance" });
    await storesNothing(async () => expectError(await call(broker, "GET", callbackPath), 502, "upstream_error"));
  });

  it("revokes the freshly issued grant when the provider will not say who the account is, and stores nothing", async () => {
    const { callbackPath } = await authorize("scm");
    const revocations = world.fakes.github.stats.revocations;
    world.fakes.github.failNext(1, { status: 500, body: { message: "Server Error" } });
    await storesNothing(async () => expectError(await call(broker, "GET", callbackPath), 502, "upstream_error"));
    expect(world.fakes.github.stats.revocations).toBe(revocations + 1);
  });

  it("reports a wrong client secret as a refused exchange (the fake checks client credentials)", async () => {
    for (const [name, fake] of [["SCM", world.fakes.github], ["CHAT", world.fakes.slack], ["TRACKER", world.fakes.linear]] as const) {
      const misconfigured = await startBroker(kind, { env: { ...fake.env, [`BROKER_PROVIDER_${name}_CLIENT_SECRET`]: "not-the-secret" } });
      try {
        const tenant = await createTenant(misconfigured);
        const { callbackPath } = await authorize(name.toLowerCase(), misconfigured, tenant);
        const grants = fake.stats.authorizationCodeGrants;
        await storesNothing(async () => expectError(await call(misconfigured, "GET", callbackPath), 400, "oauth_exchange_failed"), misconfigured);
        expect(fake.stats.authorizationCodeGrants).toBe(grants);
      } finally {
        await misconfigured.close();
      }
    }
  }, 90_000); // three brokers started one after another
});

describeEachDatabase("providers without an OAuth client", (kind) => {
  let broker: TestBroker;
  let world: ConnectionsWorld;

  beforeAll(async () => {
    world = await startConnectionsWorld(kind);
    // GitHub is not configured at all; Linear has an id but no secret; Slack is complete.
    const { BROKER_PROVIDER_TRACKER_CLIENT_SECRET: _secret, ...linearWithoutSecret } = world.fakes.linear.env;
    broker = await startBroker(kind, { env: { ...world.fakes.slack.env, ...linearWithoutSecret } });
  });
  afterAll(async () => {
    await broker.close();
    await world.close();
  });

  it("refuses to start a connection with 422 naming the missing variables", async () => {
    const tenant = await createTenant(broker);
    const scm = await call(broker, "POST", "/v1/connections/oauth/start", { ...asOperator(tenant), body: { provider: "scm" } });
    expectError(scm, 422, "provider_not_configured");
    expect(scm.body.error.message).toContain("BROKER_PROVIDER_SCM_CLIENT_ID");
    expect(scm.body.error.details).toEqual({ provider: "scm", missing: ["BROKER_PROVIDER_SCM_CLIENT_ID", "BROKER_PROVIDER_SCM_CLIENT_SECRET"] });

    const tracker = await call(broker, "POST", "/v1/connections/oauth/start", { ...asOperator(tenant), body: { provider: "tracker" } });
    expectError(tracker, 422, "provider_not_configured");
    expect(tracker.body.error.details.missing).toEqual(["BROKER_PROVIDER_TRACKER_CLIENT_SECRET"]);

    const chat = await call(broker, "POST", "/v1/connections/oauth/start", { ...asOperator(tenant), body: { provider: "chat" } });
    expect(chat.status).toBe(200);
  });

  it("lists on /health which providers are ready and what each one still needs", async () => {
    const health = await call(broker, "GET", "/health");
    expect(health.status).toBe(200);
    const byId = Object.fromEntries(health.body.providers.map((p: { id: string }) => [p.id, p]));
    // The three providers this broker was given a client for, or not; the other built-ins are listed too.
    expect(byId).toMatchObject({
      scm: { id: "scm", ready: false, missing: ["BROKER_PROVIDER_SCM_CLIENT_ID", "BROKER_PROVIDER_SCM_CLIENT_SECRET"] },
      chat: { id: "chat", ready: true },
      tracker: { id: "tracker", ready: false, missing: ["BROKER_PROVIDER_TRACKER_CLIENT_SECRET"] },
    });
    expect(byId.chat).toEqual({ id: "chat", ready: true });
    // The fully configured broker reports all three ready.
    const ready = await call(world.broker, "GET", "/health");
    const configured = ready.body.providers.filter((p: { id: string }) => ["scm", "chat", "tracker"].includes(p.id));
    expect(configured.map((p: { ready: boolean }) => p.ready)).toEqual([true, true, true]);
  });
});
