/**
 * What the outbox's notices say as votes come in, on a 2-of-3-admins rule: the request names every
 * admin, the reminder only those who have not voted on the call as it stands, and the outcome,
 * sent once the second approval decides it, names them all with the approval's final status.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Decider } from "../src/approvals/approval.js";
import { manualClock } from "../src/clock.js";
import { recordingChannel, type RecordingChannel } from "./support/approval-channels.js";
import { deliveryOf, parkCall } from "./support/approval-outbox.js";
import { describeEachDatabase } from "./support/databases.js";
import { startServiceWorld, type ServiceWorld } from "./support/service-world.js";

describeEachDatabase("approval notices as votes come in", (kind) => {
  const clock = manualClock();
  let email: RecordingChannel;
  let world: ServiceWorld;
  let admins: Decider[];

  /** Another admin of the world's tenant, deciding through the API. */
  async function addAdmin(): Promise<Decider> {
    const { tenantId, operator } = world.tenant;
    const subject = `admin-${randomBytes(4).toString("hex")}`;
    await world.services.tenants.addMember(tenantId, { issuer: operator.issuer, subject, role: "admin" }, "test");
    const membership = await world.services.tenants.findMembership(tenantId, operator.issuer, subject);
    return { kind: "member", memberId: membership!.memberId, via: "api", actor: { type: "operator", id: `${operator.issuer}|${subject}` } };
  }

  beforeAll(async () => {
    email = recordingChannel("email");
    world = await startServiceWorld(kind, { clock, approvalChannels: [email] });
    admins = [world.decider, await addAdmin(), await addAdmin()];
  });
  afterAll(() => world?.close());

  const memberIds = (deciders: Decider[]) => deciders.map((decider) => (decider.kind === "member" ? decider.memberId : decider.endUserId)).sort();

  it("asks every admin, reminds only those still to vote, and tells them all the outcome", async () => {
    const approval = await parkCall(world, { approvers: { count: 2, of: "admins" }, ttl_seconds: 3600, remind_before_seconds: 600, channels: ["email"] });
    const noticeOf = (purpose: string) => email.notices.find((notice) => notice.approval.id === approval.id && notice.purpose === purpose);
    await world.services.approvalOutbox.runOnce();
    expect(memberIds(admins)).toEqual(noticeOf("request")!.approvers.map((member) => member.id).sort());

    await world.services.approvals.decide(world.tenant.tenantId, approval.id, { decision: "approve" }, admins[0]!);
    clock.advance(3000_000);
    await world.services.approvalOutbox.runOnce();
    expect(noticeOf("reminder")!.approvers.map((member) => member.id).sort()).toEqual(memberIds(admins.slice(1)));

    await world.services.approvals.decide(world.tenant.tenantId, approval.id, { decision: "approve" }, admins[1]!);
    await world.services.approvalOutbox.runOnce();
    const outcome = noticeOf("outcome");
    expect(outcome?.approval.status).toBe("approved");
    expect(outcome!.approvers.map((member) => member.id).sort()).toEqual(memberIds(admins));
    expect(await deliveryOf(world, approval.id, "outcome")).toMatchObject({ status: "sent" });
  });
});
