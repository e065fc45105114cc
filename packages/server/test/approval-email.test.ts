/**
 * Issue 39, email: one message per approver through a real SMTP server on loopback, each with the
 * approver's own signed, single-use, short-lived Approve / Deny links. A link opens a confirmation
 * page: a mail scanner following it (GET) decides nothing; the person decides with a press.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeliveryPurpose } from "../src/approvals/approval-channel.js";
import { ChannelFailure } from "../src/approvals/approval-channel.js";
import { approverMemberOf, eligibleMembers } from "../src/approvals/approval-requirement.js";
import { manualClock } from "../src/clock.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { continueInvocation, createScmTenant, deletion, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { openApprovalPage, pathOf, pressOnApprovalPage } from "./support/approval-pages.js";
import { linksIn, startSmtpInbox, type SmtpInbox } from "./support/smtp-inbox.js";

const SMTP_PASSWORD = "s3cret-smtp-pass";
const LINK_TTL_SECONDS = 600;

describeEachDatabase("approval emails", (kind) => {
  const clock = manualClock(new Date());
  let inbox: SmtpInbox;
  let world: ScmWorld;
  let tenant: ScmTenant;
  const emails = { ada: "ada@example.test", bo: "bo@example.test", viewer: "viewer@example.test" };

  /** Gives a member an email address through the members API, as that member does (members set their own). */
  async function setEmail(subject: string, email: string | null) {
    const members = await call(world.broker, "GET", "/v1/members", asOperator(tenant));
    const member = (members.body.data as { id: string; subject: string }[]).find((row) => row.subject === subject)!;
    const token = await world.broker.runtime.developmentIssuer!.issue(subject);
    const patched = await call(world.broker, "PATCH", `/v1/members/${member.id}`, { token, tenant: tenant.tenantId, body: { email } });
    expect(patched.status, patched.text).toBe(200);
    return member.id;
  }

  /** Hands the email channel a notice as the delivery worker builds it: the eligible members without a vote. */
  async function deliver(approvalId: string, purpose: DeliveryPurpose, progress: unknown = null) {
    const { services } = world.broker;
    const approval = await services.approvals.get(tenant.tenantId, approvalId);
    const members = (await services.store.db.selectFrom("tenant_members").selectAll().where("tenant_id", "=", tenant.tenantId).execute()).map(approverMemberOf);
    const notice = { purpose, approval, binding: await services.approvalBindings.describe(approval), approvers: eligibleMembers(approval, members, null), progress };
    return services.emailChannel!.send(notice);
  }
  const statusOf = async (approvalId: string) => (await call(world.broker, "GET", `/v1/approvals/${approvalId}`, asOperator(tenant))).body.status as string;
  const mailsTo = (address: string) => inbox.mails.filter((mail) => mail.to.includes(address));

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    world = await startScmWorld(kind, {
      clock,
      env: { BROKER_SMTP_URL: inbox.url(`approvals:${SMTP_PASSWORD}`), BROKER_SMTP_FROM: "Approvals <approvals@example.test>", BROKER_APPROVAL_LINK_TTL_SECONDS: String(LINK_TTL_SECONDS), BROKER_APPROVAL_WORKER_INTERVAL_MS: "50" },
    });
    tenant = await createScmTenant(world, "Acme");
    const issuer = world.broker.runtime.developmentIssuer!;
    await world.broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "second-admin", role: "admin" }, "test");
    await world.broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "a-viewer", role: "viewer" }, "test");
    await setEmail(tenant.operatorSubject, emails.ada);
    await setEmail("second-admin", emails.bo);
    await setEmail("a-viewer", emails.viewer);
  });
  afterAll(async () => {
    await world?.close();
    await inbox?.close();
  });

  it("mails each approver their own links; a scanner's GETs decide nothing; the person's press approves, once", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    await deliver(approval_id, "request");
    const [adas, bos] = [mailsTo(emails.ada).at(-1)!, mailsTo(emails.bo).at(-1)!];
    expect(mailsTo(emails.viewer)).toEqual([]);
    expect(inbox.logins).toContain("approvals");
    const binding = await world.broker.services.approvalBindings.describe(await world.broker.services.approvals.get(tenant.tenantId, approval_id));
    expect(adas.subject).toContain("Approval needed: scm.delete_repository");
    for (const shown of [binding.digest, binding.agentApp.name, binding.account!.displayName, "hello-world"]) expect(adas.text).toContain(shown);
    const links = linksIn(adas);
    expect(links.approve).not.toBe(linksIn(bos).approve);

    // A mail scanner (and a link preview) follows every link with GET, without the page's cookie.
    for (const url of [links.approve, links.deny, links.approve]) expect((await call(world.broker, "GET", pathOf(url))).status).toBe(200);
    expect(await statusOf(approval_id)).toBe("pending");

    const view = await openApprovalPage(world.broker, links.approve);
    expect(view.page.text).toContain("Confirm your approval");
    const pressed = await pressOnApprovalPage(world.broker, view, links.approve, { decision: "approve" });
    expect(pressed.status, pressed.text).toBe(200);
    expect(await statusOf(approval_id)).toBe("approved");
    // The email's two links are one link: it has decided.
    expectError(await pressOnApprovalPage(world.broker, view, links.deny, { decision: "deny" }, { accept: "application/json" }), 410, "approval_link_used");
    expect(await statusOf(approval_id)).toBe("approved");
    const audit = await call(world.broker, "GET", "/v1/audit?action=approval.decided", asOperator(tenant));
    const entry = audit.body.data.find((row: { target: { id: string } }) => row.target.id === approval_id);
    expect(entry.actor.id).toContain(tenant.operatorSubject);
  });

  it("lets a Deny link deny and nothing else: a form asking it to approve is refused", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "spoon-knife"));
    await deliver(approval_id, "request");
    const { deny } = linksIn(mailsTo(emails.bo).at(-1)!);
    const view = await openApprovalPage(world.broker, deny);
    expectError(await pressOnApprovalPage(world.broker, view, deny, { decision: "approve" }, { accept: "application/json" }), 400, "invalid_request");
    expect(await statusOf(approval_id)).toBe("pending");
    expect((await pressOnApprovalPage(world.broker, view, deny, { decision: "deny" })).status).toBe(200);
    expect(await statusOf(approval_id)).toBe("denied");
  });

  it("counts an email's approval as one person's vote: two of finance needed, the first press leaves it waiting, the second approves; someone outside the group is refused", async () => {
    await putPolicy(world.broker, tenant, [{ id: "two-of-finance", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: { count: 2, of: { group: "finance" } } } }]);
    try {
      for (const subject of [tenant.operatorSubject, "second-admin"]) {
        const members = await call(world.broker, "GET", "/v1/members", asOperator(tenant));
        const id = (members.body.data as { id: string; subject: string }[]).find((row) => row.subject === subject)!.id;
        expect((await call(world.broker, "PATCH", `/v1/members/${id}`, { ...asOperator(tenant), body: { groups: ["finance"] } })).status).toBe(200);
      }
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "spoon-knife"));
      await deliver(approval_id, "request");
      const outsider = await setEmail("a-viewer", emails.viewer);
      const approval = await world.broker.services.approvals.get(tenant.tenantId, approval_id);
      const outsiders = world.broker.services.approvalLinks.memberUrls(approval, outsider, "outsider-link").approve;
      const outsiderView = await openApprovalPage(world.broker, outsiders);
      expectError(await pressOnApprovalPage(world.broker, outsiderView, outsiders, { decision: "approve" }, { accept: "application/json" }), 403, "approval_not_eligible");

      const adas = linksIn(mailsTo(emails.ada).at(-1)!).approve;
      const first = await pressOnApprovalPage(world.broker, await openApprovalPage(world.broker, adas), adas, { decision: "approve" });
      expect(first.status, first.text).toBe(200);
      expect(first.text).toContain("still waits for other approvers");
      const shown = await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(tenant));
      expect(shown.body).toMatchObject({ status: "pending", approvers: { needed: 2, approved: 1 } });
      expect(shown.body.approvers.votes).toEqual([expect.objectContaining({ via: "email", decision: "approve" })]);

      const bos = linksIn(mailsTo(emails.bo).at(-1)!).approve;
      expect((await pressOnApprovalPage(world.broker, await openApprovalPage(world.broker, bos), bos, { decision: "approve" })).status).toBe(200);
      expect(await statusOf(approval_id)).toBe("approved");
    } finally {
      await putPolicy(world.broker, tenant, []);
    }
  });

  describe("delivery", () => {
    it("keeps who was mailed when the SMTP server refuses one recipient, mails only the rest on retry, and keeps no secret in the failure", async () => {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "private-notes"));
      inbox.refused.add(emails.bo);
      const before = { ada: mailsTo(emails.ada).length, bo: mailsTo(emails.bo).length };
      const failure = await deliver(approval_id, "request").then(() => undefined, (error: unknown) => error);
      expect(failure).toBeInstanceOf(ChannelFailure);
      const { message, progress } = failure as ChannelFailure;
      expect(message).toContain("550");
      expect(message).not.toContain(SMTP_PASSWORD);
      expect(message).not.toContain(emails.bo);
      inbox.refused.delete(emails.bo);
      await deliver(approval_id, "request", progress);
      expect(mailsTo(emails.ada).length).toBe(before.ada + 1);
      expect(mailsTo(emails.bo).length).toBe(before.bo + 1);
    });

    it("words reminders and outcomes: a reminder has fresh links, an outcome has none", async () => {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      await deliver(approval_id, "reminder");
      const reminder = mailsTo(emails.ada).at(-1)!;
      expect(reminder.subject).toMatch(/^Reminder: approval needed before /);
      expect(linksIn(reminder).approve).toMatch(/\/approve\/al1\./);
      await call(world.broker, "POST", `/v1/approvals/${approval_id}/decide`, { ...asOperator(tenant), body: { decision: "deny" } });
      await deliver(approval_id, "outcome");
      const outcome = mailsTo(emails.ada).at(-1)!;
      expect(outcome.subject).toBe(`Denied: scm.delete_repository on ${(await world.broker.services.approvalBindings.describe(await world.broker.services.approvals.get(tenant.tenantId, approval_id))).account!.displayName}`);
      expect(outcome.text).not.toContain("/approve/");
    });

    it("fails, to be retried, when no approver has an email address", async () => {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "spoon-knife"));
      await setEmail(tenant.operatorSubject, null);
      await setEmail("second-admin", null);
      await expect(deliver(approval_id, "request")).rejects.toThrow(/no approver of this approval has an email address/);
      await setEmail(tenant.operatorSubject, emails.ada);
      await setEmail("second-admin", emails.bo);
    });

    it("never writes a link or the SMTP password into the logs", async () => {
      const token = pathOf(linksIn(mailsTo(emails.ada).at(-2)!).approve).split("/")[2]!;
      expect(world.broker.logs.filter((line) => line.includes(token) || line.includes(SMTP_PASSWORD))).toEqual([]);
    });
  });

  it("goes through the delivery outbox end to end: a rule's email channel mails the approvers, a scanner decides nothing, a person approves", async () => {
    await putPolicy(world.broker, tenant, [{ id: "mail-the-admins", effect: "require_approval", tools: ["scm.delete_repository"], approval: { channels: ["email"] } }]);
    try {
      const before = mailsTo(emails.bo).length;
      const { approval_id, invocation_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      await expect.poll(() => mailsTo(emails.bo).length, { timeout: 10_000 }).toBe(before + 1);
      const { approve } = linksIn(mailsTo(emails.bo).at(-1)!);
      expect((await call(world.broker, "GET", pathOf(approve))).status).toBe(200);
      expect(await statusOf(approval_id)).toBe("pending");
      const view = await openApprovalPage(world.broker, approve);
      expect((await pressOnApprovalPage(world.broker, view, approve, { decision: "approve" })).status).toBe(200);
      expect(await statusOf(approval_id)).toBe("approved");
      const deliveries = async () => (await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(tenant))).body.deliveries as unknown[];
      await expect.poll(deliveries).toContainEqual(expect.objectContaining({ channel: "email", purpose: "request", status: "sent" }));
      // The outcome goes out on the same channel, without links.
      await expect.poll(() => mailsTo(emails.ada).at(-1)?.subject, { timeout: 10_000 }).toMatch(/^Approved: scm.delete_repository/);
      expect(mailsTo(emails.ada).at(-1)!.text).not.toContain("/approve/");
      expect((await continueInvocation(world.broker, tenant.token, invocation_id)).status).toBe(200);
    } finally {
      await putPolicy(world.broker, tenant, []);
    }
  });

  it("makes an email's links short-lived: 410 approval_link_expired after BROKER_APPROVAL_LINK_TTL_SECONDS, nothing decided", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "private-notes"));
    await deliver(approval_id, "request");
    const { approve } = linksIn(mailsTo(emails.ada).at(-1)!);
    const view = await openApprovalPage(world.broker, approve);
    clock.advance((LINK_TTL_SECONDS + 1) * 1000);
    expectError(await call(world.broker, "GET", pathOf(approve)), 410, "approval_link_expired");
    expectError(await pressOnApprovalPage(world.broker, view, approve, { decision: "approve" }, { accept: "application/json" }), 410, "approval_link_expired");
    expect(await statusOf(approval_id)).toBe("pending");
  });
});
