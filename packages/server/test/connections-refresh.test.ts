/**
 * Issue 3, token refresh: `getFreshCredentials` refreshes ahead of expiry, one refresh at a time
 * per connection however many calls need it, stores a rotated refresh token before anyone uses
 * the new access token, and turns an `invalid_grant` into an expired connection that agents are
 * told to have reconnected. The broker and the fakes share one manual clock.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { startBroker, testMasterKey } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { auditOf, connectionRow, eventsOf, executeTool, startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import type { FakeProvider } from "./support/fake-upstreams/index.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";

const HOUR = 3600_000;

describeEachDatabase("credential refresh", (kind) => {
  const clock = manualClock();
  const masterKeys = testMasterKey("refresh-1");
  let world: ConnectionsWorld;

  beforeAll(async () => {
    world = await startConnectionsWorld(kind, { clock, env: { BROKER_MASTER_KEYS: masterKeys } });
  });
  afterAll(() => world.close());

  const getUser = (connectionId: string, token?: string) =>
    executeTool(world.broker, world.tenant, { tool_name: "scm.get_authenticated_user", connected_account_id: connectionId }, token);

  it("uses a token far from expiry as it is", async () => {
    const id = await connectAccount(world.broker, world.tenant, "scm");
    const refreshes = world.fakes.github.stats.refreshGrants;
    clock.advance(HOUR - 5 * 60_000);
    expect((await getUser(id)).status).toBe(200);
    expect(world.fakes.github.stats.refreshGrants).toBe(refreshes);
  });

  it("refreshes a token that expires within the margin before using it", async () => {
    const id = await connectAccount(world.broker, world.tenant, "scm");
    const first = world.fakes.github.stats.apiCalls.length;
    expect((await getUser(id)).status).toBe(200);
    const oldAuthorization = world.fakes.github.stats.apiCalls[first]!.authorization;
    const refreshes = world.fakes.github.stats.refreshGrants;

    clock.advance(HOUR - 30_000);
    const result = await getUser(id);
    expect(result.status, result.text).toBe(200);
    expect(world.fakes.github.stats.refreshGrants).toBe(refreshes + 1);
    expect(world.fakes.github.stats.apiCalls.at(-1)!.authorization).not.toBe(oldAuthorization);
  });

  it("refreshes an expired token exactly once for 50 concurrent calls, and all 50 succeed", async () => {
    const id = await connectAccount(world.broker, world.tenant, "scm");
    clock.advance(2 * HOUR);
    const token = await mintBrokerToken(world.broker, world.tenant);
    const { stats } = world.fakes.github;
    const [tokenRequests, refreshes] = [stats.tokenRequests, stats.refreshGrants];
    world.fakes.github.setTokenEndpointDelay(250);
    try {
      const results = await Promise.all(Array.from({ length: 50 }, () => getUser(id, token)));
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
      expect(new Set(results.map((r) => r.body.result.login))).toEqual(new Set(["octocat"]));
    } finally {
      world.fakes.github.setTokenEndpointDelay(0);
    }
    expect(stats.tokenRequests - tokenRequests).toBe(1);
    expect(stats.refreshGrants - refreshes).toBe(1);
    expect((await connectionRow(world.broker, id))?.status).toBe("active");
  });

  it("stores the rotated refresh token, so a later second refresh works too", async () => {
    const id = await connectAccount(world.broker, world.tenant, "tracker");
    const listIssues = () => executeTool(world.broker, world.tenant, { tool_name: "tracker.list_issues", connected_account_id: id });
    const refreshes = world.fakes.linear.stats.refreshGrants;
    const sealed: (string | null | undefined)[] = [(await connectionRow(world.broker, id))?.credential_sealed];
    for (let round = 1; round <= 3; round++) {
      clock.advance(2 * HOUR);
      const result = await listIssues();
      expect(result.status, result.text).toBe(200);
      expect(world.fakes.linear.stats.refreshGrants).toBe(refreshes + round);
      sealed.push((await connectionRow(world.broker, id))?.credential_sealed);
    }
    expect(new Set(sealed).size).toBe(4);
  });

  it("lets another broker instance on the same database refresh with the stored rotated token", async () => {
    const id = await connectAccount(world.broker, world.tenant, "chat");
    clock.advance(2 * HOUR);
    expect((await executeTool(world.broker, world.tenant, { tool_name: "chat.list_channels", connected_account_id: id })).status).toBe(200);

    const second = await startBroker(kind, {
      database: world.broker.database,
      clock,
      env: { ...world.fakes.github.env, ...world.fakes.slack.env, ...world.fakes.linear.env, BROKER_MASTER_KEYS: masterKeys },
    });
    try {
      clock.advance(2 * HOUR);
      const refreshes = world.fakes.slack.stats.refreshGrants;
      const result = await call(second, "POST", "/v1/tools/execute", {
        token: await mintBrokerToken(second, world.tenant),
        body: { tool_name: "chat.list_channels", arguments: {}, connected_account_id: id },
      });
      expect(result.status, result.text).toBe(200);
      expect(world.fakes.slack.stats.refreshGrants).toBe(refreshes + 1);
    } finally {
      await second.close();
    }
  });

  it("refreshes once and retries when the provider rejects a token that looked valid", async () => {
    const id = await connectAccount(world.broker, world.tenant, "scm");
    world.fakes.github.expireAllAccessTokens();
    const refreshes = world.fakes.github.stats.refreshGrants;
    const result = await getUser(id);
    expect(result.status, result.text).toBe(200);
    expect(world.fakes.github.stats.refreshGrants).toBe(refreshes + 1);
  });

  it("answers 502 when the token endpoint fails, and keeps the connection active for a later try", async () => {
    const id = await connectAccount(world.broker, world.tenant, "scm");
    clock.advance(2 * HOUR);
    world.fakes.github.failNextTokenRequest(1, { status: 500, body: "Internal Server Error" });
    expectError(await getUser(id), 502, "upstream_error");
    expect((await connectionRow(world.broker, id))?.status).toBe("active");
    expect((await eventsOf(world.broker, world.tenant.tenantId, "connection.expired")).filter((e) => e.data.connected_account_id === id)).toEqual([]);
    expect((await getUser(id)).status).toBe(200);
  });

  const DEAD_REFRESH: { provider: string; vendor: string; tool: string; fake: () => FakeProvider<unknown> }[] = [
    { provider: "scm", vendor: "GitHub (bad_refresh_token in HTTP 200)", tool: "scm.get_authenticated_user", fake: () => world.fakes.github },
    { provider: "chat", vendor: "Slack (ok:false invalid_refresh_token)", tool: "chat.list_channels", fake: () => world.fakes.slack },
    { provider: "tracker", vendor: "Linear (400 invalid_grant)", tool: "tracker.list_issues", fake: () => world.fakes.linear },
  ];

  for (const c of DEAD_REFRESH) {
    it(`marks a connection expired when ${c.vendor} refuses its refresh token, and tells agents to reconnect`, async () => {
      const id = await connectAccount(world.broker, world.tenant, c.provider);
      c.fake().revokeAllRefreshTokens();
      clock.advance(2 * HOUR);

      const refused = await executeTool(world.broker, world.tenant, { tool_name: c.tool, connected_account_id: id });
      expectError(refused, 422, "connection_unusable");
      expect(refused.body.error.details).toMatchObject({ connection_status: "expired", reconnect_required: true });

      expect((await connectionRow(world.broker, id))?.status).toBe("expired");
      const shown = await call(world.broker, "GET", `/v1/connections/${id}`, asOperator(world.tenant));
      expect(shown.body.status).toBe("expired");

      const events = (await eventsOf(world.broker, world.tenant.tenantId, "connection.expired")).filter((e) => e.data.connected_account_id === id);
      expect(events).toHaveLength(1);
      expect(events[0]!.data).toMatchObject({ provider: c.provider, env: "test" });
      const audit = (await auditOf(world.broker, world.tenant.tenantId, "connection.expired")).filter((e) => e.target_id === id);
      expect(audit).toHaveLength(1);

      // Later calls are refused before any request to the provider, and raise no second event.
      const tokenRequests = c.fake().stats.tokenRequests;
      const again = await executeTool(world.broker, world.tenant, { tool_name: c.tool, connected_account_id: id });
      expectError(again, 422, "connection_unusable");
      expect(again.body.error.details).toMatchObject({ connection_status: "expired", reconnect_required: true });
      expect(c.fake().stats.tokenRequests).toBe(tokenRequests);
      expect((await eventsOf(world.broker, world.tenant.tenantId, "connection.expired")).filter((e) => e.data.connected_account_id === id)).toHaveLength(1);
    });
  }

  it.runIf(kind === "postgres")("refreshes once across two broker instances on one PostgreSQL database (advisory lock)", async () => {
    const id = await connectAccount(world.broker, world.tenant, "scm");
    const second = await startBroker(kind, {
      database: world.broker.database,
      clock,
      env: { ...world.fakes.github.env, BROKER_MASTER_KEYS: masterKeys },
    });
    try {
      clock.advance(2 * HOUR);
      const [firstToken, secondToken] = [await mintBrokerToken(world.broker, world.tenant), await mintBrokerToken(second, world.tenant)];
      const { stats } = world.fakes.github;
      const [tokenRequests, refreshes] = [stats.tokenRequests, stats.refreshGrants];
      world.fakes.github.setTokenEndpointDelay(250);
      const body = { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: id };
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          i % 2 === 0 ? getUser(id, firstToken) : call(second, "POST", "/v1/tools/execute", { token: secondToken, body }),
        ),
      );
      world.fakes.github.setTokenEndpointDelay(0);
      expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
      expect(stats.tokenRequests - tokenRequests).toBe(1);
      expect(stats.refreshGrants - refreshes).toBe(1);
    } finally {
      world.fakes.github.setTokenEndpointDelay(0);
      await second.close();
    }
  });
});
