/**
 * A vote counts only for the version of the call its voter was shown (the digest): an approve of a
 * call someone edited meanwhile is refused (409 approval_changed) and records nothing, over the API
 * and on an email's confirmation page; with the digest of the call as it stands, it counts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { createScmTenant, deletion, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { addMember, adminOf, auditOf, showApproval, vote, type TestMember } from "./support/approval-votes.js";
import { openApprovalPage, pressOnApprovalPage } from "./support/approval-pages.js";

const TWO_ADMINS = { id: "two-admins", effect: "require_approval", tools: ["scm.delete_repository"], conditions: [{ pointer: "/repo", one_of: ["hello-world", "spoon-knife"] }], approval: { approvers: { count: 2, of: "admins" } } };
const JSON_ANSWER = { accept: "application/json" };

type Shown = { digest: string; requested_digest: string; status: string; approvers: { approved: number; votes: { voter: { id: string }; digest: string }[] } };

describeEachDatabase("approvals bound to what the voter saw", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;
  let ada: TestMember;
  let bo: TestMember;

  beforeAll(async () => {
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world, "Acme");
    ada = await adminOf(world.broker, tenant);
    bo = await addMember(world.broker, tenant, "admin", { display_name: "Bo" });
    await putPolicy(world.broker, tenant, [TWO_ADMINS]);
  });
  afterAll(() => world?.close());

  const show = async (member: TestMember, id: string) => (await showApproval(world.broker, member, id)).body as Shown;
  const editToSpoonKnife = async (id: string) => {
    const edited = await vote(world.broker, ada, id, { decision: "approve", arguments: { owner: tenant.owner, repo: "spoon-knife" } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.status).toBe("pending");
    return (edited.body as Shown).digest;
  };

  it("refuses an email confirmation of the version the page showed once the call was edited, then counts it from the page reopened", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const approval = await world.broker.services.approvals.get(tenant.tenantId, approval_id);
    const links = world.broker.services.approvalLinks.memberUrls(approval, bo.memberId, "binding-link-1");
    const page = await openApprovalPage(world.broker, links.approve);
    expect(page.page.text).toContain("hello-world");
    expect(page.digest).toBe((await show(bo, approval_id)).requested_digest);
    const editedDigest = await editToSpoonKnife(approval_id);

    const stale = await pressOnApprovalPage(world.broker, page, links.approve, { decision: "approve" }, JSON_ANSWER);
    expectError(stale, 409, "approval_changed");
    expect(stale.body.error).toMatchObject({ details: { digest: editedDigest, expected: page.digest } });
    const after = await show(ada, approval_id);
    expect(after.status).toBe("pending");
    expect(after.approvers.votes.filter((cast) => cast.voter.id === bo.memberId)).toEqual([]);

    // The link is not spent: reopened, it shows the edited call, and confirming it counts.
    const reopened = await openApprovalPage(world.broker, links.approve, page.cookie);
    expect(reopened.page.text).toContain("spoon-knife");
    expect(reopened.digest).toBe(editedDigest);
    const confirmed = await pressOnApprovalPage(world.broker, reopened, links.approve, { decision: "approve" }, JSON_ANSWER);
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((await show(ada, approval_id)).status).toBe("approved");
  });

  it("refuses an API approve naming the version reviewed before an edit (409) and records nothing", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const seen = await show(bo, approval_id);
    const editedDigest = await editToSpoonKnife(approval_id);
    const stale = await vote(world.broker, bo, approval_id, { decision: "approve", digest: seen.digest });
    expectError(stale, 409, "approval_changed");
    expect(stale.body.error).toMatchObject({ details: { digest: editedDigest, expected: seen.digest } });
    expect(stale.body.error).toMatchObject({ message: expect.stringContaining("edited") });
    expect((await show(ada, approval_id)).approvers.votes.filter((cast) => cast.voter.id === bo.memberId)).toEqual([]);
    expect((await auditOf(world.broker, tenant.tenantId, "approval.vote", approval_id)).filter((entry) => entry.data.voter === `member:${bo.memberId}`)).toEqual([]);
  });

  it("refuses an API approve without a digest once the call was edited, and counts it with the edited call's digest", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const editedDigest = await editToSpoonKnife(approval_id);
    const blind = await vote(world.broker, bo, approval_id, { decision: "approve" });
    expectError(blind, 409, "approval_changed");
    expect(blind.body.error).toMatchObject({ details: { digest: editedDigest } });
    const unchanged = await show(ada, approval_id);
    expect(unchanged).toMatchObject({ status: "pending", approvers: { approved: 1 } });
    expect(unchanged.approvers.votes.filter((cast) => cast.voter.id === bo.memberId)).toEqual([]);
    expect((await auditOf(world.broker, tenant.tenantId, "approval.vote", approval_id)).filter((entry) => entry.data.voter === `member:${bo.memberId}`)).toEqual([]);

    const reviewed = await vote(world.broker, bo, approval_id, { decision: "approve", digest: editedDigest });
    expect(reviewed.status, reviewed.text).toBe(200);
    expect(reviewed.body).toMatchObject({ status: "approved", digest: editedDigest, approvers: { approved: 2 } });
  });

  it("approves without a digest while nobody edited, and refuses an edit made on top of an edit the editor was not shown", async () => {
    const plain = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    expect((await vote(world.broker, bo, plain.approval_id, { decision: "approve" })).body).toMatchObject({ status: "pending", approvers: { approved: 1 } });

    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "spoon-knife"));
    const seen = await show(bo, approval_id);
    await vote(world.broker, ada, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: "hello-world" } });
    const overEdit = await vote(world.broker, bo, approval_id, { decision: "approve", digest: seen.digest, arguments: { owner: tenant.owner, repo: "spoon-knife" } });
    expectError(overEdit, 409, "approval_changed");
    const after = await show(ada, approval_id);
    expect(after.digest).not.toBe(after.requested_digest);
  });

  it("takes a deny on any version, and refuses a digest that is not one (400) without deciding", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const seen = await show(bo, approval_id);
    expectError(await vote(world.broker, bo, approval_id, { decision: "deny", digest: "sha256:not-a-digest" }), 400, "invalid_request");
    expectError(await vote(world.broker, bo, approval_id, { decision: "approve", digest: `SHA256:${"A".repeat(64)}` }), 400, "invalid_request");
    expect((await show(ada, approval_id)).approvers.votes).toEqual([]);
    await editToSpoonKnife(approval_id);
    const denied = await vote(world.broker, bo, approval_id, { decision: "deny", digest: seen.digest, reason: "not this one either" });
    expect(denied.status, denied.text).toBe(200);
    expect(denied.body.status).toBe("denied");
  });
});
