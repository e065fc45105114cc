/**
 * Security review of issue 39: a person's approval must be bound to the call they were shown.
 * These tests FAIL on purpose where the broker counts a vote for a version of the call the voter
 * never saw, or where a credential that decides reaches someone who may not decide.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";
import { createScmTenant, deletion, outboxEvents, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { addMember, adminOf, showApproval, vote, type TestMember } from "./support/approval-votes.js";
import { openApprovalPage, pressOnApprovalPage } from "./support/approval-pages.js";

const TWO_ADMINS = { id: "two-admins", effect: "require_approval", tools: ["scm.delete_repository"], conditions: [{ pointer: "/repo", one_of: ["hello-world", "spoon-knife"] }], approval: { approvers: { count: 2, of: "admins" } } };
const OWNER_DECIDES = { id: "owner-decides", effect: "require_approval", tools: ["scm.delete_repository"], conditions: [{ pointer: "/repo", equals: "private-notes" }], approval: { approvers: "end_user" } };

describeEachDatabase("review: approvals bound to what the voter saw", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;
  let ada: TestMember;
  let bo: TestMember;
  let viewer: TestMember;

  beforeAll(async () => {
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world, "Acme");
    ada = await adminOf(world.broker, tenant);
    bo = await addMember(world.broker, tenant, "admin", { display_name: "Bo" });
    viewer = await addMember(world.broker, tenant, "viewer", { display_name: "Read only" });
    await putPolicy(world.broker, tenant, [TWO_ADMINS, OWNER_DECIDES]);
  });
  afterAll(() => world?.close());

  it("does not count an email confirmation for an edited call the approver was never shown (page opened before the edit)", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const approval = await world.broker.services.approvals.get(tenant.tenantId, approval_id);
    // Bo's email link (as the email channel mints it), opened: the page shows hello-world.
    const links = world.broker.services.approvalLinks.memberUrls(approval, bo.memberId, "review-link-1");
    const page = await openApprovalPage(world.broker, links.approve);
    expect(page.page.text).toContain("hello-world");
    // Meanwhile Ada edits the call to delete spoon-knife instead, and approves it.
    const edited = await vote(world.broker, ada, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: "spoon-knife" } });
    expect(edited.body.status).toBe("pending");
    // Bo confirms the page he was shown (hello-world): his vote must not approve spoon-knife.
    const pressed = await pressOnApprovalPage(world.broker, page, links.approve, { decision: "approve" }, { accept: "application/json" });
    const after = await showApproval(world.broker, ada, approval_id);
    expect(after.body.status, `press answered ${pressed.status}: Bo approved a deletion of spoon-knife he never saw`).toBe("pending");
  });

  it("does not let an API approve sent against the requested version count for an edit made meanwhile (no digest binding)", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const seen = (await showApproval(world.broker, bo, approval_id)).body as { digest: string };
    await vote(world.broker, ada, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: "spoon-knife" } });
    // Bo presses Approve in the console on the version he loaded; the body cannot say which version.
    // Today decide has no field naming the version voted on (digest is refused as an unknown field, 400),
    // so a console/API approve is counted for whatever version is current when it arrives.
    const pressed = await vote(world.broker, bo, approval_id, { decision: "approve", digest: seen.digest } as never);
    expect(pressed.status, `decide should refuse a vote on a stale version with 409; answered ${pressed.status} ${pressed.text.slice(0, 200)}`).toBe(409);
    const blind = await vote(world.broker, bo, approval_id, { decision: "approve" });
    expect(blind.body.status, "an approve without a version was counted for the edited call").toBe("pending");
  });

  it("does not hand a viewer (who may not decide) the end user's deciding link", async () => {
    const minted = await call(world.broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test", end_user_id: "alice" } });
    const { approval_id } = await requestApproval(world.broker, { ...deletion(tenant, "private-notes"), token: minted.body.access_token as string });
    const refused = await vote(world.broker, viewer, approval_id, { decision: "approve" });
    expect(refused.status).toBe(403);
    const shown = await showApproval(world.broker, viewer, approval_id);
    const url = shown.body.end_user_url as string | null;
    expect(url).toEqual(expect.any(String));
    const page = await openApprovalPage(world.broker, url!);
    const pressed = await pressOnApprovalPage(world.broker, page, url!, { decision: "approve" });
    expect(pressed.status, pressed.text).toBe(200);
    const after = await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(tenant));
    expect(after.body.status, "a read-only viewer approved the end user's call through end_user_url").toBe("pending");
    expect(await outboxEvents(world.broker, tenant.tenantId, "approval.decided")).not.toContainEqual(expect.objectContaining({ data: expect.objectContaining({ approval_id }) }));
  });
});
