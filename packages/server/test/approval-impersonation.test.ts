/**
 * "Two people for money or deletion": one admin must not make another approver's channel their own
 * (PATCH /v1/members/{id}: email, slack_user_id) while an approval waits, then cast both votes:
 * their own through the API and the other admin's through the email link arriving in their mailbox.
 * Members set their own contact fields; another admin is refused.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { approverMemberOf, eligibleMembers } from "../src/approvals/approval-requirement.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { createScmTenant, deletion, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { addMember, adminOf, showApproval, vote, type TestMember } from "./support/approval-votes.js";
import { openApprovalPage, pressOnApprovalPage } from "./support/approval-pages.js";
import { linksIn, startSmtpInbox, type SmtpInbox } from "./support/smtp-inbox.js";

describeEachDatabase("one admin casting another approver's vote", (kind) => {
  let inbox: SmtpInbox;
  let world: ScmWorld;
  let tenant: ScmTenant;
  let mallory: TestMember;
  let bo: TestMember;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    world = await startScmWorld(kind, { env: { BROKER_SMTP_URL: inbox.url(), BROKER_SMTP_FROM: "Approvals <approvals@example.test>" } });
    tenant = await createScmTenant(world, "Acme");
    mallory = await adminOf(world.broker, tenant);
    bo = await addMember(world.broker, tenant, "admin", { display_name: "Bo" });
    // Bo gives his own address.
    expect((await call(world.broker, "PATCH", `/v1/members/${bo.memberId}`, { ...bo.auth, body: { email: "bo@example.test" } })).status).toBe(200);
    await putPolicy(world.broker, tenant, [{ id: "two-admins", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: { count: 2, of: "admins" }, channels: ["email"] } }]);
  });
  afterAll(async () => {
    await world?.close();
    await inbox?.close();
  });

  it("does not let one admin redirect another approver's email and approve as both", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    // Mallory points Bo's address at her own mailbox (an admin may edit any member's profile)...
    const retarget = await call(world.broker, "PATCH", `/v1/members/${bo.memberId}`, { ...asOperator(tenant), body: { email: "mallory@example.test", slack_user_id: "T0ACME:U0MALLORY" } });
    expectError(retarget, 403, "forbidden");
    expect(retarget.body.error.details).toEqual({ fields: ["email", "slack_user_id"] });
    // ...votes herself...
    expect((await vote(world.broker, mallory, approval_id, { decision: "approve" })).body.status).toBe("pending");
    // ...and the email channel mails Bo's own links to her (as the delivery worker does).
    const { services } = world.broker;
    const approval = await services.approvals.get(tenant.tenantId, approval_id);
    const members = (await services.store.db.selectFrom("tenant_members").selectAll().where("tenant_id", "=", tenant.tenantId).execute()).map(approverMemberOf);
    const bos = eligibleMembers(approval, members, null).filter((member) => member.id === bo.memberId);
    await services.emailChannel!.send({ purpose: "request", approval, binding: await services.approvalBindings.describe(approval), approvers: bos, progress: null });
    expect(inbox.mails.filter((m) => m.to.includes("bo@example.test"))).toHaveLength(1);
    const mail = inbox.mails.filter((m) => m.to.includes("mallory@example.test")).at(-1);
    expect(mail).toBeUndefined();
    if (mail) {
      const { approve } = linksIn(mail);
      const page = await openApprovalPage(world.broker, approve);
      await pressOnApprovalPage(world.broker, page, approve, { decision: "approve" });
    }
    const after = await showApproval(world.broker, mallory, approval_id);
    expect(after.body.status, `PATCH answered ${retarget.status}; votes: ${JSON.stringify(after.body.approvers.votes.map((v: { voter: { id: string } }) => v.voter.id))}`).toBe("pending");
  });
});
