/**
 * SPEC §3.5 and §6: `DELETE /v1/connections/{id}` revokes the grant at the provider where it
 * can (best effort, recorded), marks the connection revoked, deletes its sealed tokens, writes
 * an audit event and emits `connection.revoked` into the durable outbox.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { connectAccount } from "./support/connect.js";
import { auditOf, connectionRow, eventsOf, executeTool, startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { DEFAULT_GITHUB_USER, DEFAULT_LINEAR_USER, DEFAULT_SLACK_USER, type FakeProvider } from "./support/fake-upstreams/index.js";
import { asOperator, call } from "./support/http.js";

describeEachDatabase("connection revocation", (kind) => {
  const clock = manualClock();
  let world: ConnectionsWorld;

  beforeAll(async () => {
    world = await startConnectionsWorld(kind, { clock });
  });
  afterAll(() => world.close());

  const revoke = (id: string) => call(world.broker, "DELETE", `/v1/connections/${id}`, asOperator(world.tenant));
  const eventsFor = async (id: string) => (await eventsOf(world.broker, world.tenant.tenantId, "connection.revoked")).filter((e) => e.data.connected_account_id === id);

  const CASES: { provider: string; vendor: string; tool: string; displayName: string; fake: () => FakeProvider<unknown> }[] = [
    { provider: "scm", vendor: "GitHub", tool: "scm.get_authenticated_user", displayName: DEFAULT_GITHUB_USER.login, fake: () => world.fakes.github },
    { provider: "chat", vendor: "Slack", tool: "chat.list_channels", displayName: DEFAULT_SLACK_USER.teamName, fake: () => world.fakes.slack },
    { provider: "tracker", vendor: "Linear", tool: "tracker.list_issues", displayName: DEFAULT_LINEAR_USER.email, fake: () => world.fakes.linear },
  ];

  for (const c of CASES) {
    it(`revokes a ${c.vendor} connection at the provider and locally, with an audit event and connection.revoked`, async () => {
      const id = await connectAccount(world.broker, world.tenant, c.provider);
      const revocations = c.fake().stats.revocations;
      clock.advance(60_000);

      const revoked = await revoke(id);
      expect(revoked.status, revoked.text).toBe(200);
      expect(revoked.body).toMatchObject({ connected_account_id: id, provider: c.provider, status: "revoked", upstream_revocation: "revoked", revoked_at: clock.now().toISOString(), scopes: [] });
      expect(c.fake().stats.revocations).toBe(revocations + 1);

      expect(await connectionRow(world.broker, id)).toMatchObject({ status: "revoked", credential_sealed: null, upstream_revocation: "revoked", revoked_at: clock.now().toISOString() });

      const audit = (await auditOf(world.broker, world.tenant.tenantId, "connection.revoked")).filter((e) => e.target_id === id);
      expect(audit).toHaveLength(1);
      expect(audit[0]!.actor_type).toBe("operator");
      expect(JSON.parse(audit[0]!.data)).toEqual({ provider: c.provider, env: "test", upstream_revocation: "revoked" });

      const events = await eventsFor(id);
      expect(events).toHaveLength(1);
      expect(events[0]).toEqual({
        type: "connection.revoked",
        timestamp: clock.now().toISOString(),
        data: { connected_account_id: id, provider: c.provider, env: "test", display_name: c.displayName, end_user_id: null, label: null, revoked_at: clock.now().toISOString() },
      });
    });

    it(`refuses agents a revoked ${c.vendor} connection with 422 connection_unusable, before calling the provider`, async () => {
      const id = await connectAccount(world.broker, world.tenant, c.provider);
      expect((await revoke(id)).status).toBe(200);
      const calls = c.fake().stats.apiCalls.length;
      const refused = await executeTool(world.broker, world.tenant, { tool_name: c.tool, connected_account_id: id });
      expectError(refused, 422, "connection_unusable");
      expect(refused.body.error.details).toMatchObject({ connection_status: "revoked", reconnect_required: true });
      expect(c.fake().stats.apiCalls.length).toBe(calls);
    });
  }

  it("answers a second DELETE with the revoked connection, without revoking or emitting again", async () => {
    const id = await connectAccount(world.broker, world.tenant, "scm");
    const first = await revoke(id);
    const revocations = world.fakes.github.stats.revocations;
    const second = await revoke(id);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(world.fakes.github.stats.revocations).toBe(revocations);
    expect(await eventsFor(id)).toHaveLength(1);
    expect((await auditOf(world.broker, world.tenant.tenantId, "connection.revoked")).filter((e) => e.target_id === id)).toHaveLength(1);
  });

  it("still revokes locally when the provider's revocation fails, and records that it failed", async () => {
    const id = await connectAccount(world.broker, world.tenant, "chat");
    // The workspace already uninstalled the app: Slack no longer knows the token.
    const accessToken = world.fakes.slack.issuedSecrets().at(-2)!;
    const uninstall = await fetch(`${world.fakes.slack.url}/api/auth.revoke`, { method: "POST", headers: { authorization: `Bearer ${accessToken}` } });
    expect(((await uninstall.json()) as { revoked: boolean }).revoked).toBe(true);

    const revoked = await revoke(id);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ status: "revoked", upstream_revocation: "failed" });
    expect(await connectionRow(world.broker, id)).toMatchObject({ status: "revoked", credential_sealed: null, upstream_revocation: "failed" });
    expect(await eventsFor(id)).toHaveLength(1);
  });

  it("revokes an expired connection too, deleting the tokens it still holds", async () => {
    const id = await connectAccount(world.broker, world.tenant, "tracker");
    world.fakes.linear.revokeAllRefreshTokens();
    clock.advance(2 * 3600_000);
    expectError(await executeTool(world.broker, world.tenant, { tool_name: "tracker.list_issues", connected_account_id: id }), 422, "connection_unusable");
    expect((await connectionRow(world.broker, id))?.status).toBe("expired");

    const revoked = await revoke(id);
    expect(revoked.status).toBe(200);
    expect(await connectionRow(world.broker, id)).toMatchObject({ status: "revoked", credential_sealed: null });
    expect(await eventsFor(id)).toHaveLength(1);
  });

  it("lists revoked connections as revoked, with no scopes left", async () => {
    const id = await connectAccount(world.broker, world.tenant, "scm");
    await revoke(id);
    const listed = await call(world.broker, "GET", "/v1/connections", asOperator(world.tenant));
    const entry = listed.body.data.find((c: { connected_account_id: string }) => c.connected_account_id === id);
    expect(entry).toMatchObject({ status: "revoked", scopes: [], upstream_revocation: "revoked" });
  });
});
