/**
 * Issue 36, item 12: a broker killed (SIGKILL) while a rotating refresh is out has lost the new
 * refresh token the provider issued. Before the refresh request leaves, the broker records that it
 * is under way; the next refresh that finds that record still tries the old refresh token (which
 * recovers when the request never reached the provider), and when the provider refuses it, the
 * connection expires with reason `refresh_interrupted`, which tells the operator why to reconnect.
 * The broker that dies is a real child process; the fake Linear holds the token request open.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startSiblingProcess, type BrokerProcess } from "./support/broker-process.js";
import { connectionRow, eventsOf } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { connect, execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

async function waitFor(probe: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** How long the fake holds each token request: long enough to kill the broker while it waits. */
const HELD_MS = 1_500;

describeEachDatabase("a broker killed during a rotating refresh", (kind) => {
  let world: ToolWorld;
  let doomed: BrokerProcess | undefined;

  beforeAll(async () => {
    world = await startToolWorld(kind);
  });
  afterAll(async () => {
    await doomed?.stop();
    await world.close();
  });

  const startDoomed = () => startSiblingProcess(world.broker.config, world.fakes.linear.env);
  const listIssues = (broker: { url: string }, connectionId: string) =>
    execute({ ...world.broker, url: broker.url }, world.jwt, { tool_name: "tracker.list_issues", connected_account_id: connectionId });

  /** Sends a call through a child broker that must refresh, and kills it while the token request is held. */
  async function killDuringRefresh(connectionId: string) {
    doomed = await startDoomed();
    const linear = world.fakes.linear;
    linear.expireAllAccessTokens();
    linear.setTokenEndpointDelay(HELD_MS);
    const tokenRequests = linear.stats.tokenRequests;
    void listIssues(doomed, connectionId).catch(() => undefined);
    await waitFor(() => linear.stats.tokenRequests > tokenRequests, "the child's refresh request");
    // Written ahead of the request, and still there: nothing cleared it.
    expect((await connectionRow(world.broker, connectionId))?.refresh_started_at).toEqual(expect.any(String));
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    doomed = undefined;
  }

  it("expires the connection with reason refresh_interrupted when the provider rotated the token the dead broker never stored", async () => {
    const connectionId = await connect(world, "tracker");
    const refreshes = world.fakes.linear.stats.refreshGrants;
    await killDuringRefresh(connectionId);
    // The provider carries on without the broker: it rotates, and its answer goes nowhere.
    await waitFor(() => world.fakes.linear.stats.refreshGrants === refreshes + 1, "the provider's rotation");
    world.fakes.linear.setTokenEndpointDelay(0);

    const refused = await listIssues(world.broker, connectionId);
    expectError(refused, 422, "connection_unusable");
    expect(refused.body.error.details).toMatchObject({ connection_status: "expired", reason: "refresh_interrupted", reconnect_required: true });
    expect(refused.body.error.message).toMatch(/refresh was interrupted/);

    const connection = await call(world.broker, "GET", `/v1/connections/${connectionId}`, asOperator(world.tenant));
    expect(connection.body).toMatchObject({ status: "expired", reconnect_reason: "refresh_interrupted" });
    const events = (await eventsOf(world.broker, world.tenant.tenantId, "connection.expired")).filter((event) => event.data.connected_account_id === connectionId);
    expect(events.map((event) => event.data.reason)).toEqual(["refresh_interrupted"]);
    const audit = await call(world.broker, "GET", "/v1/audit?action=connection.expired", asOperator(world.tenant));
    expect(audit.body.data.find((event: { target: { id: string } }) => event.target.id === connectionId)?.data).toMatchObject({ reason: "refresh_interrupted", upstream_error: "invalid_grant" });
  });

  it("recovers with the old refresh token when the interrupted request never rotated it, and clears the record", async () => {
    const connectionId = await connect(world, "tracker");
    const refreshes = world.fakes.linear.stats.refreshGrants;
    // The held request will fail at the provider: as if it had never arrived, nothing is rotated.
    world.fakes.linear.failNextTokenRequest(1, { status: 503, body: { error: "temporarily_unavailable" } });
    await killDuringRefresh(connectionId);
    await new Promise((resolve) => setTimeout(resolve, HELD_MS));
    world.fakes.linear.setTokenEndpointDelay(0);
    expect(world.fakes.linear.stats.refreshGrants).toBe(refreshes);

    const recovered = await listIssues(world.broker, connectionId);
    expect(recovered.status, recovered.text).toBe(200);
    expect(world.fakes.linear.stats.refreshGrants).toBe(refreshes + 1);
    expect(await connectionRow(world.broker, connectionId)).toMatchObject({ status: "active", refresh_started_at: null, reconnect_reason: null });
  });

  it("leaves no record after a refresh the provider refused without rotating, so a later refusal is not taken for an interrupted one", async () => {
    const connectionId = await connect(world, "tracker");
    world.fakes.linear.expireAllAccessTokens();
    world.fakes.linear.failNextTokenRequest(1, { status: 400, body: { error: "invalid_client", error_description: "client suspended for a moment" } });
    expectError(await listIssues(world.broker, connectionId), 502, "upstream_error");
    expect((await connectionRow(world.broker, connectionId))?.refresh_started_at).toBeNull();

    world.fakes.linear.revokeAllRefreshTokens();
    const refused = await listIssues(world.broker, connectionId);
    expectError(refused, 422, "connection_unusable");
    expect(refused.body.error.details.reason).toBeUndefined();
    expect(await connectionRow(world.broker, connectionId)).toMatchObject({ status: "expired", reconnect_reason: "refresh_refused" });
  });
});
