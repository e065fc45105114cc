/**
 * `GET/PUT /v1/approval-settings`: a tenant's default approval channels and the Slack connection
 * and channel its approval messages go through. Admins only; the Slack connection must be the
 * tenant's own shared, active Slack connection; a refused change writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBroker } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { connectAccount } from "./support/connect.js";
import { createSlackTenant, GENERAL, putApprovalSettings, startSlackWorld, type SlackTenant, type SlackWorld } from "./support/slack-approvals.js";
import { auditOf } from "./support/connections.js";

describeEachDatabase("approval settings", (kind) => {
  let world: SlackWorld;
  let tenant: SlackTenant;
  let other: SlackTenant;
  let viewer: { token: string; tenant: string };

  beforeAll(async () => {
    world = await startSlackWorld(kind);
    tenant = await createSlackTenant(world, "Acme");
    other = await createSlackTenant(world, "Other");
    const issuer = world.broker.runtime.developmentIssuer!;
    await world.broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "settings-viewer", role: "viewer" }, "test");
    viewer = { token: await issuer.issue("settings-viewer"), tenant: tenant.tenantId };
  });
  afterAll(() => world.close());

  const slackOf = (owner: SlackTenant, channel = GENERAL) => ({ connected_account_id: owner.slackConnectionId, channel });
  const settingsOf = async (owner: SlackTenant) => (await call(world.broker, "GET", "/v1/approval-settings", asOperator(owner))).body;

  describe("authentication and tenant isolation", () => {
    it("refuses both routes without an operator session (401), and to a viewer (403)", async () => {
      for (const token of [undefined, tenant.testKey, tenant.token]) {
        const auth = token ? { token } : {};
        expectError(await call(world.broker, "GET", "/v1/approval-settings", auth), 401, "unauthorized");
        expectError(await call(world.broker, "PUT", "/v1/approval-settings", { ...auth, body: { channels: [] } }), 401, "unauthorized");
      }
      expectError(await call(world.broker, "GET", "/v1/approval-settings", viewer), 403, "forbidden");
      expectError(await call(world.broker, "PUT", "/v1/approval-settings", { ...viewer, body: { channels: [] } }), 403, "forbidden");
    });

    it("refuses another tenant's Slack connection as unknown (404), and each tenant reads only its own settings", async () => {
      expectError(await putApprovalSettings(world.broker, tenant, { channels: ["slack"], slack: slackOf(other) }), 404, "not_found");
      const saved = await putApprovalSettings(world.broker, other, { channels: ["slack"], slack: slackOf(other, "#random") });
      expect(saved.status, saved.text).toBe(200);
      expect((await settingsOf(tenant)).slack).toBeNull();
      expect((await settingsOf(other)).slack).toEqual(slackOf(other, "#random"));
    });
  });

  it("starts with no channels, then keeps what an admin sets, audited", async () => {
    const fresh = await createSlackTenant(world, "Fresh");
    expect(await settingsOf(fresh)).toEqual({ channels: [], slack: null, updated_at: null, updated_by: null });
    const saved = await putApprovalSettings(world.broker, fresh, { channels: ["slack", "email"], slack: slackOf(fresh) });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ channels: ["slack", "email"], slack: slackOf(fresh) });
    expect(await settingsOf(fresh)).toEqual(saved.body);
    const [entry] = await auditOf(world.broker, fresh.tenantId, "approval_settings.updated");
    expect(JSON.parse(entry!.data!)).toEqual({ channels: ["slack", "email"], slack_connection_id: fresh.slackConnectionId, slack_channel: GENERAL });
    const cleared = await putApprovalSettings(world.broker, fresh, { channels: ["email"], slack: null });
    expect(cleared.body).toMatchObject({ channels: ["email"], slack: null });
  });

  describe("refusals, each writing nothing", () => {
    let before: unknown;
    beforeAll(async () => {
      expect((await putApprovalSettings(world.broker, tenant, { channels: ["slack"], slack: slackOf(tenant) })).status).toBe(200);
      before = await settingsOf(tenant);
    });

    it.each([
      ["slack without a connection", { channels: ["slack"] }, 400, "invalid_request"],
      ["an unknown channel kind", { channels: ["sms"] }, 400, "invalid_request"],
      ["a channel named twice", { channels: ["email", "email"] }, 400, "invalid_request"],
      ["a channel that is not a Slack channel name", { channels: ["slack"], slack: { connected_account_id: "00000000-0000-4000-8000-000000000000", channel: "<!here>" } }, 400, "invalid_request"],
      ["an unknown connection", { channels: ["slack"], slack: { connected_account_id: "00000000-0000-4000-8000-000000000000", channel: GENERAL } }, 404, "not_found"],
    ])("refuses %s", async (_name, body, status, code) => {
      expectError(await putApprovalSettings(world.broker, tenant, body), status, code);
      expect(await settingsOf(tenant)).toEqual(before);
    });

    it("refuses a connection of another provider (422 credential_mismatch)", async () => {
      const answer = await putApprovalSettings(world.broker, tenant, { channels: ["slack"], slack: { connected_account_id: tenant.connectionId, channel: GENERAL } });
      expectError(answer, 422, "credential_mismatch");
      expect(await settingsOf(tenant)).toEqual(before);
    });

    it("refuses a revoked Slack connection (422 connection_unusable)", async () => {
      const revoked = await connectAccount(world.broker, tenant, "chat");
      expect((await call(world.broker, "DELETE", `/v1/connections/${revoked}`, asOperator(tenant))).status).toBe(200);
      const answer = await putApprovalSettings(world.broker, tenant, { channels: ["slack"], slack: { connected_account_id: revoked, channel: GENERAL } });
      expectError(answer, 422, "connection_unusable");
      expect(await settingsOf(tenant)).toEqual(before);
    });
  });
});

describeEachDatabase("Slack interactivity without a signing secret", (kind) => {
  it("is not there (404), whatever is posted", async () => {
    const broker = await startBroker(kind);
    try {
      const answer = await call(broker, "POST", "/v1/slack/interactivity", { headers: { "content-type": "application/x-www-form-urlencoded" }, rawBody: "payload=%7B%7D" });
      expectError(answer, 404, "not_found");
    } finally {
      await broker.close();
    }
  });
});
