/**
 * Who may read the end user's approval link (`end_user_url`): it decides the call for the end user,
 * so it goes to those who hand it to them — admins, and the customer's backend reading approvals
 * with its control key (its own environment only). A viewer, who may not decide, reads null, in the
 * approval API and in the webhook delivery log.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { createScmTenant, deletion, outboxEvents, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { addMember, showApproval, vote, type TestMember } from "./support/approval-votes.js";
import { listDeliveries, registerEndpoint } from "./support/webhooks.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

const OWNER_DECIDES = { id: "owner-decides", effect: "require_approval", tools: ["scm.delete_repository"], conditions: [{ pointer: "/repo", equals: "private-notes" }], approval: { approvers: "end_user" } };
const ONE_ADMIN = { id: "one-admin", effect: "require_approval", tools: ["scm.delete_repository"] };

describeEachDatabase("who reads the end user's approval link", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;
  let other: ScmTenant;
  let viewer: TestMember;
  let receiver: WebhookReceiver;
  /** An approval the end user alice decides, with the link its approval.requested event carried. */
  let alices: { approvalId: string; url: string };
  /** An approval an admin decides (no end-user link). */
  let adminsId: string;

  const asKey = (token: string) => ({ token });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world, "Acme");
    other = await createScmTenant(world, "Other");
    viewer = await addMember(world.broker, tenant, "viewer", { display_name: "Read only" });
    await registerEndpoint(world.broker, tenant, { url: receiver.url, events: ["approval.requested"] });
    await putPolicy(world.broker, tenant, [OWNER_DECIDES, ONE_ADMIN]);
    const minted = await call(world.broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test", end_user_id: "alice" } });
    const { approval_id } = await requestApproval(world.broker, { ...deletion(tenant, "private-notes"), token: minted.body.access_token as string });
    const event = (await outboxEvents(world.broker, tenant.tenantId, "approval.requested")).find((e) => e.data.approval_id === approval_id)!;
    alices = { approvalId: approval_id, url: event.data.end_user_url as string };
    expect(alices.url).toMatch(/^http.*\/approve\//);
    adminsId = (await requestApproval(world.broker, deletion(tenant, "hello-world"))).approval_id;
  });
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  describe("operators", () => {
    it("shows an admin the link", async () => {
      expect((await call(world.broker, "GET", `/v1/approvals/${alices.approvalId}`, asOperator(tenant))).body.end_user_url).toBe(alices.url);
    });

    it("gives a viewer (who may not decide) null instead of the link, in one approval and in the list, and refuses their vote", async () => {
      const shown = await showApproval(world.broker, viewer, alices.approvalId);
      expect(shown.status, shown.text).toBe(200);
      expect(shown.body).toMatchObject({ approval_id: alices.approvalId, status: "pending", end_user_url: null, you: { may_decide: false, vote: null } });
      const listed = await call(world.broker, "GET", "/v1/approvals?status=all", viewer.auth);
      const item = listed.body.data.find((approval: { approval_id: string }) => approval.approval_id === alices.approvalId);
      expect(item.end_user_url).toBeNull();
      expect(listed.text).not.toContain(alices.url);
      expect((await vote(world.broker, viewer, alices.approvalId, { decision: "approve" })).status).toBe(403);
      expect((await showApproval(world.broker, viewer, alices.approvalId)).body.status).toBe("pending");
    });

    it("shows a viewer the webhook delivery log without the link; an admin reads the payload as sent", async () => {
      await receiver.waitFor(2, 10_000);
      const endpoint = (await call(world.broker, "GET", "/v1/webhooks", asOperator(tenant))).body.data[0];
      const asAdmin = await listDeliveries(world.broker, tenant, endpoint.id);
      const sent = asAdmin.find((delivery) => delivery.payload.data.approval_id === alices.approvalId);
      expect(sent.payload.data.end_user_url).toBe(alices.url);
      const asViewer = await call(world.broker, "GET", `/v1/webhooks/${endpoint.id}/deliveries`, viewer.auth);
      expect(asViewer.status, asViewer.text).toBe(200);
      expect(asViewer.text).not.toContain(alices.url);
      const seen = asViewer.body.data.find((delivery: { payload: { data: { approval_id: string } } }) => delivery.payload.data.approval_id === alices.approvalId);
      expect(seen.payload.data).toMatchObject({ approval_id: alices.approvalId, end_user_id: "alice", end_user_url: null });
    });
  });

  describe("the customer's backend with a control key", () => {
    it("reads one approval of its environment with the end user's link, and no operator's standing", async () => {
      const shown = await call(world.broker, "GET", `/v1/approvals/${alices.approvalId}`, asKey(tenant.testKey));
      expect(shown.status, shown.text).toBe(200);
      expect(shown.body).toMatchObject({ approval_id: alices.approvalId, env: "test", end_user_id: "alice", status: "pending", end_user_url: alices.url, you: null });
      expect((await call(world.broker, "GET", `/v1/approvals/${adminsId}`, asKey(tenant.testKey))).body).toMatchObject({ approval_id: adminsId, end_user_url: null, you: null });
    });

    it("lists the approvals of its environment with the link", async () => {
      const listed = await call(world.broker, "GET", "/v1/approvals", asKey(tenant.testKey));
      expect(listed.status, listed.text).toBe(200);
      const ids = listed.body.data.map((approval: { approval_id: string }) => approval.approval_id);
      expect(ids).toEqual(expect.arrayContaining([alices.approvalId, adminsId]));
      expect(listed.body.data.find((approval: { approval_id: string }) => approval.approval_id === alices.approvalId).end_user_url).toBe(alices.url);
      const paged = await call(world.broker, "GET", "/v1/approvals?status=all&limit=1", asKey(tenant.testKey));
      expect(paged.body.data).toHaveLength(1);
      expect(paged.body.next_cursor).toEqual(expect.any(String));
    });

    it("does not show another environment's approvals to a key (404, and not listed)", async () => {
      expectError(await call(world.broker, "GET", `/v1/approvals/${alices.approvalId}`, asKey(tenant.liveKey)), 404, "not_found");
      for (const status of ["pending", "decided", "all"]) {
        const listed = await call(world.broker, "GET", `/v1/approvals?status=${status}`, asKey(tenant.liveKey));
        expect(listed.status, listed.text).toBe(200);
        expect(listed.body).toEqual({ data: [], next_cursor: null });
      }
    });

    it("does not show another tenant's approvals to its key (404, and not listed)", async () => {
      expectError(await call(world.broker, "GET", `/v1/approvals/${alices.approvalId}`, asKey(other.testKey)), 404, "not_found");
      const listed = await call(world.broker, "GET", "/v1/approvals?status=all", asKey(other.testKey));
      expect(listed.body.data.map((approval: { approval_id: string }) => approval.approval_id)).not.toContain(alices.approvalId);
    });

    it("lets a key read but not decide (401: deciding needs a member)", async () => {
      expectError(await call(world.broker, "POST", `/v1/approvals/${adminsId}/decide`, { ...asKey(tenant.testKey), body: { decision: "approve" } }), 401, "unauthorized");
      expect((await call(world.broker, "GET", `/v1/approvals/${adminsId}`, asKey(tenant.testKey))).body.status).toBe("pending");
    });

    it("refuses a broker JWT (the agent) on both reads (401)", async () => {
      expectError(await call(world.broker, "GET", `/v1/approvals/${alices.approvalId}`, asKey(tenant.token)), 401, "unauthorized");
      expectError(await call(world.broker, "GET", "/v1/approvals", asKey(tenant.token)), 401, "unauthorized");
    });
  });
});
