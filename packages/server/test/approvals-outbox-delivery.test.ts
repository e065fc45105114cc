/**
 * The approval outbox's delivery worker on a real database with a fake clock and a recording
 * channel: a request reaches its rule's channel with what the approval is bound to, a failing
 * channel is retried with backoff (its error kept without secrets, its progress kept) and then
 * given up while the approval stays pending, and two instances send every delivery once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_DELIVERY_ATTEMPTS } from "../src/approvals/approval-delivery-retry.js";
import { DELIVERY_LEASE_MS } from "../src/approvals/approval-delivery-worker.js";
import { manualClock } from "../src/clock.js";
import { hanging, failWith, recordingChannel, type RecordingChannel } from "./support/approval-channels.js";
import { approvalOf, deliveryOf, parkCall } from "./support/approval-outbox.js";
import { testMasterKey } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { startServiceWorld, type ServiceWorld } from "./support/service-world.js";

const EMAIL_RULE = { channels: ["email" as const] };

describeEachDatabase("the approval delivery worker", (kind) => {
  const clock = manualClock();
  const masterKeys = testMasterKey();
  let email: RecordingChannel;
  let world: ServiceWorld;

  beforeAll(async () => {
    email = recordingChannel("email");
    world = await startServiceWorld(kind, { clock, masterKeys, approvalChannels: [email] });
  });
  afterAll(() => world?.close());

  const noticesFor = (approvalId: string) => email.notices.filter((notice) => notice.approval.id === approvalId);

  it("sends a request once to the rule's channel, with the binding and the approvers still needed", async () => {
    const approval = await parkCall(world, EMAIL_RULE);
    await world.services.approvalOutbox.runOnce();
    await world.services.approvalOutbox.runOnce();
    const notices = noticesFor(approval.id);
    expect(notices).toHaveLength(1);
    const [notice] = notices;
    expect(notice!.purpose).toBe("request");
    expect(notice!.progress).toBeNull();
    expect(notice!.binding).toMatchObject({ digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), agentApp: { id: world.tenant.agentAppId } });
    expect(notice!.approvers.map((member) => member.id)).toEqual([world.tenant.memberId]);
    expect(await deliveryOf(world, approval.id, "request")).toMatchObject({ status: "sent", attempts: 1, last_error: null, sent_at: clock.now().toISOString(), progress: JSON.stringify({ sent: email.notices.length }) });
  });

  it("keeps a failure without its secrets, retries after the backoff with the progress made, then sends", async () => {
    const approval = await parkCall(world, EMAIL_RULE);
    email.queue(failWith("SMTP smtp://mailer:hunter2@127.0.0.1:2525 refused: Authorization: Bearer sk_live_abc token=xyz123", { emailed: ["a@example.test"] }));
    await world.services.approvalOutbox.runOnce();
    const failed = await deliveryOf(world, approval.id, "request");
    expect(failed).toMatchObject({ status: "pending", attempts: 1, progress: JSON.stringify({ emailed: ["a@example.test"] }) });
    expect(failed.last_error).toContain("refused");
    for (const secret of ["hunter2", "sk_live_abc", "xyz123"]) expect(failed.last_error).not.toContain(secret);
    const delay = Date.parse(failed.next_attempt_at) - clock.now().getTime();
    expect(delay).toBeGreaterThanOrEqual(9_000);
    expect(delay).toBeLessThanOrEqual(11_000);

    await world.services.approvalOutbox.runOnce();
    expect(noticesFor(approval.id)).toHaveLength(1);
    clock.advance(11_000);
    await world.services.approvalOutbox.runOnce();
    expect(noticesFor(approval.id).map((notice) => notice.progress)).toEqual([null, { emailed: ["a@example.test"] }]);
    expect(await deliveryOf(world, approval.id, "request")).toMatchObject({ status: "sent", attempts: 2, last_error: null });
  });

  it("gives up after the last attempt; the approval stays pending in the console", async () => {
    const approval = await parkCall(world, { ...EMAIL_RULE, ttl_seconds: 30 * 86400 });
    email.queue(...Array.from({ length: MAX_DELIVERY_ATTEMPTS }, () => failWith("connection refused")));
    for (let attempt = 0; attempt < MAX_DELIVERY_ATTEMPTS + 2; attempt += 1) {
      await world.services.approvalOutbox.runOnce();
      clock.advance(2 * 3600_000);
    }
    expect(noticesFor(approval.id)).toHaveLength(MAX_DELIVERY_ATTEMPTS);
    expect(await deliveryOf(world, approval.id, "request")).toMatchObject({ status: "gave_up", attempts: MAX_DELIVERY_ATTEMPTS, last_error: "connection refused", sent_at: null });
    expect((await approvalOf(world, approval.id)).status).toBe("pending");
  });

  it("retries a Slack delivery for a tenant whose settings name no Slack connection, saying so", async () => {
    const approval = await parkCall(world, { channels: ["slack"] });
    await world.services.approvalOutbox.runOnce();
    expect(await deliveryOf(world, approval.id, "request", "slack")).toMatchObject({ status: "pending", attempts: 1, last_error: "the tenant's approval settings name no Slack connection and channel" });
  });

  it("does not send a request once the approval is decided", async () => {
    const approval = await parkCall(world, EMAIL_RULE);
    await world.services.approvals.decide(world.tenant.tenantId, approval.id, { decision: "deny" }, world.decider);
    await world.services.approvalOutbox.runOnce();
    expect(noticesFor(approval.id).filter((notice) => notice.purpose === "request")).toEqual([]);
    expect(await deliveryOf(world, approval.id, "request")).toMatchObject({ status: "gave_up", last_error: "not sent: the approval was denied first" });
  });

  it("holds an outcome back while its channel's request is still pending", async () => {
    const approval = await parkCall(world, EMAIL_RULE);
    email.queue(failWith("mailbox busy"));
    await world.services.approvalDeliveries.enqueue(approval, "outcome", ["email"], clock.now().toISOString());
    await world.services.approvalOutbox.runOnce();
    expect(await deliveryOf(world, approval.id, "outcome")).toMatchObject({ status: "pending", attempts: 0 });
    clock.advance(11_000);
    await world.services.approvalOutbox.runOnce();
    expect(noticesFor(approval.id).map((notice) => notice.purpose)).toEqual(["request", "request", "outcome"]);
    expect(await deliveryOf(world, approval.id, "outcome")).toMatchObject({ status: "sent", attempts: 1 });
  });

  describe("with a second instance on the same database", () => {
    let second: ServiceWorld;
    let secondEmail: RecordingChannel;

    beforeAll(async () => {
      secondEmail = recordingChannel("email");
      second = await startServiceWorld(kind, { clock, masterKeys, database: world.database, tenant: world.tenant, approvalChannels: [secondEmail] });
    });
    afterAll(() => second?.close());

    it("sends every delivery exactly once when both instances run at once", async () => {
      const approvals = await Promise.all(Array.from({ length: 30 }, () => parkCall(world, EMAIL_RULE)));
      const ids = new Set(approvals.map((approval) => approval.id));
      await Promise.all([world.services.approvalOutbox.runOnce(), second.services.approvalOutbox.runOnce(), world.services.approvalOutbox.runOnce(), second.services.approvalOutbox.runOnce()]);
      const sent = [...email.notices, ...secondEmail.notices].filter((notice) => ids.has(notice.approval.id)).map((notice) => notice.approval.id);
      expect(sent.sort()).toEqual([...ids].sort());
    });

    it("lets another instance retry once a lease lapses, and ignores the stale worker's late result", async () => {
      const approval = await parkCall(world, EMAIL_RULE);
      const stuck = hanging();
      email.queue(stuck.behaviour);
      const firstPass = world.services.approvalOutbox.runOnce();
      await stuck.started;
      await second.services.approvalOutbox.runOnce();
      expect(secondEmail.notices.filter((notice) => notice.approval.id === approval.id)).toEqual([]);

      clock.advance(DELIVERY_LEASE_MS);
      await second.services.approvalOutbox.runOnce();
      expect(await deliveryOf(world, approval.id, "request")).toMatchObject({ status: "sent", attempts: 2, progress: JSON.stringify({ sent: secondEmail.notices.length }) });
      stuck.release();
      await firstPass;
      expect(await deliveryOf(world, approval.id, "request")).toMatchObject({ status: "sent", attempts: 2, progress: JSON.stringify({ sent: secondEmail.notices.length }) });
    });
  });
});
