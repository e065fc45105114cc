/**
 * The credential refresher's races (src/connections/credential-refresher.ts), against a real
 * database and the fake Linear on loopback, with no broker HTTP in between: concurrent refreshes
 * of one connection send one refresh request (in one process through the shared promise, across
 * instances on PostgreSQL through the lock), a refresh interrupted after its write-ahead mark is
 * recovered or expires the connection as `refresh_interrupted`, and a revoked connection never
 * gets tokens back. The fake holds a token request open where a test needs two callers to overlap.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../../src/clock.js";
import type { Connection } from "../../src/connections/connection.js";
import { startLinearFake } from "../../src/sandbox/linear.js";
import { testMasterKey } from "../support/broker.js";
import { describeEachDatabase } from "../support/databases.js";
import { completeAuthorization } from "../support/fake-upstreams/index.js";
import { startServiceWorld, type ServiceWorld } from "../support/service-world.js";

const HOUR = 3600_000;

describeEachDatabase("credential refresher races", (kind) => {
  const clock = manualClock();
  const masterKeys = testMasterKey("refresher-1");
  let linear: Awaited<ReturnType<typeof startLinearFake>>;
  let world: ServiceWorld;

  beforeAll(async () => {
    linear = await startLinearFake({ ttlSeconds: 3600, now: () => clock.now().getTime() });
    world = await startServiceWorld(kind, { clock, masterKeys, env: linear.provider.env });
  });
  afterAll(async () => {
    await world?.close();
    await linear?.server.close();
  });

  const fake = () => linear.provider;
  const refresher = () => world.services.credentialRefresher;

  /** Connects a Linear account through the connection service, as the OAuth callback route does. */
  async function connectTracker(): Promise<Connection> {
    const { services, tenant } = world;
    const started = await services.connections.start(tenant.operator, { provider: "tracker" });
    const authorization = await completeAuthorization(started.authorize_url);
    const { connectionId } = await services.connections.complete(authorization.location!.searchParams, () => true);
    return stored(connectionId);
  }
  const stored = async (id: string) => (await world.services.connectionQueries.find(world.tenant.tenantId, id))!;
  const row = (id: string) => world.runtime.store.db.selectFrom("connections").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const auditOf = (id: string, action: string) =>
    world.runtime.store.db.selectFrom("audit_events").selectAll().where("target_id", "=", id).where("action", "=", action).execute();
  const eventsOf = async (id: string, type: string) =>
    (await world.runtime.store.db.selectFrom("events").select("payload").where("type", "=", type).execute())
      .map((event) => JSON.parse(event.payload) as { data: Record<string, unknown> })
      .filter((event) => event.data.connected_account_id === id);

  it("sends one refresh request for two concurrent refreshes of one connection, and both callers get its tokens", async () => {
    const connection = await connectTracker();
    clock.advance(2 * HOUR);
    const { stats } = fake();
    const [tokenRequests, refreshes] = [stats.tokenRequests, stats.refreshGrants];
    const held = fake().holdNextTokenRequest();
    const first = refresher().getFreshCredentials(connection);
    await held.arrived;
    // The second caller arrives while the first one's request is out.
    const second = refresher().getFreshCredentials(await stored(connection.id));
    held.release();
    const [a, b] = await Promise.all([first, second]);
    expect(b.accessToken).toBe(a.accessToken);
    expect(stats.tokenRequests - tokenRequests).toBe(1);
    expect(stats.refreshGrants - refreshes).toBe(1);
    expect(await row(connection.id)).toMatchObject({ status: "active", refresh_started_at: null });
  });

  it.runIf(kind === "postgres")("sends one refresh request when two instances refresh at once: the second waits on the lock and reads the first one's tokens", async () => {
    const second = await startServiceWorld(kind, { clock, masterKeys, env: fake().env, database: world.database, tenant: world.tenant });
    try {
      const connection = await connectTracker();
      clock.advance(2 * HOUR);
      const { stats } = fake();
      const tokenRequests = stats.tokenRequests;
      const held = fake().holdNextTokenRequest();
      const first = refresher().getFreshCredentials(connection);
      await held.arrived;
      const other = second.services.credentialRefresher.getFreshCredentials(connection);
      // Long enough for the other instance to send its own request, were it not waiting.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(stats.tokenRequests - tokenRequests).toBe(1);
      held.release();
      const [a, b] = await Promise.all([first, other]);
      expect(b.accessToken).toBe(a.accessToken);
      expect(stats.tokenRequests - tokenRequests).toBe(1);
    } finally {
      await second.close();
    }
  });

  it("recovers a refresh interrupted after its write-ahead mark with the old refresh token, and clears the mark", async () => {
    const connection = await connectTracker();
    // A broker died with its request out; the request never reached the provider.
    await world.services.connectionQueries.markRefreshStarted(connection.id, clock.now().toISOString());
    clock.advance(2 * HOUR);
    const refreshes = fake().stats.refreshGrants;
    const tokens = await refresher().getFreshCredentials(await stored(connection.id));
    expect(tokens.accessToken).toMatch(/^lin_oauth_/);
    expect(fake().stats.refreshGrants).toBe(refreshes + 1);
    expect(await row(connection.id)).toMatchObject({ status: "active", refresh_started_at: null, reconnect_reason: null });
  });

  it("expires a connection as refresh_interrupted when the provider refuses the refresh token an interrupted refresh spent, with its audit row and event", async () => {
    const connection = await connectTracker();
    await world.services.connectionQueries.markRefreshStarted(connection.id, clock.now().toISOString());
    // The provider rotated the token for the dead broker, whose answer went nowhere.
    fake().revokeAllRefreshTokens();
    clock.advance(2 * HOUR);
    await expect(refresher().getFreshCredentials(await stored(connection.id))).rejects.toMatchObject({
      code: "connection_unusable",
      details: { connection_status: "expired", reason: "refresh_interrupted", reconnect_required: true },
    });
    expect(await row(connection.id)).toMatchObject({ status: "expired", reconnect_reason: "refresh_interrupted", refresh_started_at: null });
    expect((await auditOf(connection.id, "connection.expired")).map((audit) => JSON.parse(audit.data))).toEqual([
      expect.objectContaining({ reason: "refresh_interrupted", upstream_error: "invalid_grant" }),
    ]);
    expect((await eventsOf(connection.id, "connection.expired")).map((event) => event.data.reason)).toEqual(["refresh_interrupted"]);
  });

  it("expires a connection as refresh_refused when the provider refuses a refresh that nothing interrupted", async () => {
    const connection = await connectTracker();
    fake().revokeAllRefreshTokens();
    clock.advance(2 * HOUR);
    await expect(refresher().getFreshCredentials(connection)).rejects.toMatchObject({ code: "connection_unusable", details: { connection_status: "expired" } });
    expect(await row(connection.id)).toMatchObject({ status: "expired", reconnect_reason: "refresh_refused", refresh_started_at: null });
  });

  it("refuses a connection revoked since it was read, before any request to the provider", async () => {
    const connection = await connectTracker();
    await world.services.connections.revoke(world.tenant.operator, connection.id);
    clock.advance(2 * HOUR);
    const tokenRequests = fake().stats.tokenRequests;
    // `connection` is the copy read before the revoke (a cached one, say): still active in memory.
    await expect(refresher().getFreshCredentials(connection)).rejects.toMatchObject({ code: "connection_unusable", details: { connection_status: "revoked" } });
    await expect(refresher().forceRefresh(connection, "stale")).rejects.toMatchObject({ code: "connection_unusable" });
    expect(fake().stats.tokenRequests).toBe(tokenRequests);
  });

  it("does not store the tokens of a refresh that a revoke overtook, and revokes them at the provider", async () => {
    const connection = await connectTracker();
    clock.advance(2 * HOUR);
    const held = fake().holdNextTokenRequest();
    const refreshing = refresher().getFreshCredentials(connection);
    await held.arrived;
    // A revoke whose own request to the provider failed: the grant lives on there, so the refresh is answered.
    await world.services.connectionQueries.markRevoked(connection.id, connection.credentialSealed, clock.now().toISOString(), "failed");
    const revocations = fake().stats.revocations;
    held.release();
    await expect(refreshing).rejects.toMatchObject({ code: "connection_unusable", details: { connection_status: "revoked" } });
    expect(fake().stats.revocations).toBe(revocations + 1);
    expect(await row(connection.id)).toMatchObject({ status: "revoked", credential_sealed: null });
  });
});
