/**
 * The approval outbox's sweeper on a real database with a fake clock: a pending approval past its
 * per-rule expiry becomes expired once (one `approval.expired` event and audit entry, the outcome
 * sent where the request went), however many instances sweep; a reminder goes out once,
 * `remind_before_seconds` before the expiry, on the request's channels.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { recordingChannel, type RecordingChannel } from "./support/approval-channels.js";
import { approvalOf, deliveriesOf, deliveryOf, parkCall } from "./support/approval-outbox.js";
import { testMasterKey } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { startServiceWorld, type ServiceWorld } from "./support/service-world.js";

const HOUR = 3600_000;

describeEachDatabase("the approval sweeper", (kind) => {
  const clock = manualClock();
  const masterKeys = testMasterKey();
  let email: RecordingChannel;
  let world: ServiceWorld;
  let second: ServiceWorld;

  beforeAll(async () => {
    email = recordingChannel("email");
    world = await startServiceWorld(kind, { clock, masterKeys, approvalChannels: [email] });
    second = await startServiceWorld(kind, { clock, masterKeys, database: world.database, tenant: world.tenant, approvalChannels: [email] });
  });
  afterAll(async () => {
    await second?.close();
    await world?.close();
  });

  const db = () => world.services.store.db;
  const eventsOf = async (type: string, approvalId: string) =>
    (await db().selectFrom("events").select("payload").where("tenant_id", "=", world.tenant.tenantId).where("type", "=", type).execute())
      .map((row) => JSON.parse(row.payload) as { data: Record<string, unknown> })
      .filter((event) => event.data.approval_id === approvalId);
  const auditOf = (action: string, approvalId: string) =>
    db().selectFrom("audit_events").select(["actor_type", "actor_id"]).where("action", "=", action).where("target_id", "=", approvalId).execute();
  /**
   * Both instances sweep, at once on PostgreSQL. SQLite is one process's database: two instances in
   * one test process would each hold the write lock across an await while the other's busy wait
   * blocks the event loop, so there they sweep one after the other.
   */
  async function sweepBoth() {
    const passes = () => [world, second, world].map((instance) => () => instance.services.approvalOutbox.runOnce());
    if (kind === "postgres") await Promise.all(passes().map((pass) => pass()));
    else for (const pass of passes()) await pass();
  }

  it("leaves an approval pending until its rule's expiry", async () => {
    const approval = await parkCall(world, { ttl_seconds: 3600, channels: ["email"] });
    expect(approval.expiresAt).toBe(new Date(clock.now().getTime() + HOUR).toISOString());
    clock.advance(HOUR - 1);
    await sweepBoth();
    expect((await approvalOf(world, approval.id)).status).toBe("pending");
    expect(await eventsOf("approval.expired", approval.id)).toEqual([]);
  });

  it("expires it once past its expiry, with one approval.expired event, one audit entry and the outcome on the request's channel", async () => {
    const approval = await parkCall(world, { ttl_seconds: 3600, channels: ["email"] });
    await world.services.approvalOutbox.runOnce();
    clock.advance(HOUR);
    await sweepBoth();
    await sweepBoth();
    const expired = await approvalOf(world, approval.id);
    expect({ status: expired.status, expiryAnnouncedAt: expired.expiryAnnouncedAt }).toEqual({ status: "expired", expiryAnnouncedAt: clock.now().toISOString() });
    const events = await eventsOf("approval.expired", approval.id);
    expect(events.map((event) => event.data)).toEqual([
      { approval_id: approval.id, invocation_id: approval.invocationId, tool_name: "scm.create_issue", agent_app_id: world.tenant.agentAppId, end_user_id: null, env: "test", expires_at: approval.expiresAt },
    ]);
    expect(await auditOf("approval.expired", approval.id)).toEqual([{ actor_type: "system", actor_id: "approval-sweeper" }]);
    expect(await deliveryOf(world, approval.id, "outcome")).toMatchObject({ status: "sent", attempts: 1 });
    const outcome = email.notices.find((notice) => notice.approval.id === approval.id && notice.purpose === "outcome");
    expect(outcome?.approval.status).toBe("expired");
  });

  it("refuses a decision on an expired approval with approval_expired", async () => {
    const approval = await parkCall(world, { ttl_seconds: 600 });
    clock.advance(600_000);
    await world.services.approvalOutbox.runOnce();
    await expect(world.services.approvals.decide(world.tenant.tenantId, approval.id, { decision: "approve" }, world.decider)).rejects.toMatchObject({ code: "approval_expired" });
  });

  it("does not expire a decided approval", async () => {
    const approval = await parkCall(world, { ttl_seconds: 600 });
    await world.services.approvals.decide(world.tenant.tenantId, approval.id, { decision: "approve" }, world.decider);
    clock.advance(600_000);
    await sweepBoth();
    expect((await approvalOf(world, approval.id)).status).toBe("approved");
    expect(await eventsOf("approval.expired", approval.id)).toEqual([]);
  });

  it("reminds once, remind_before_seconds before the expiry, on the request's channel", async () => {
    const approval = await parkCall(world, { ttl_seconds: 3600, remind_before_seconds: 600, channels: ["email"] });
    const reminders = () => email.notices.filter((notice) => notice.approval.id === approval.id && notice.purpose === "reminder");
    await sweepBoth();
    clock.advance(3000_000 - 1);
    await sweepBoth();
    expect(reminders()).toEqual([]);
    expect((await approvalOf(world, approval.id)).remindedAt).toBeNull();

    clock.advance(1);
    await sweepBoth();
    clock.advance(60_000);
    await sweepBoth();
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0]!.approvers.map((member) => member.id)).toEqual([world.tenant.memberId]);
    expect((await approvalOf(world, approval.id)).remindedAt).toBe(new Date(Date.parse(approval.expiresAt) - 600_000).toISOString());
    expect(await deliveryOf(world, approval.id, "reminder")).toMatchObject({ status: "sent" });
  });

  it("sends no reminder for a rule without one, nor for an approval decided first", async () => {
    const plain = await parkCall(world, { ttl_seconds: 3600, channels: ["email"] });
    const decided = await parkCall(world, { ttl_seconds: 3600, remind_before_seconds: 600, channels: ["email"] });
    await world.services.approvals.decide(world.tenant.tenantId, decided.id, { decision: "deny" }, world.decider);
    clock.advance(3300_000);
    await sweepBoth();
    for (const approval of [plain, decided]) {
      expect((await deliveriesOf(world, approval.id)).filter((d) => d.purpose === "reminder")).toEqual([]);
      expect((await approvalOf(world, approval.id)).remindedAt).toBeNull();
    }
  });
});
