/**
 * Several approvers: who may vote (admins, a group, listed members, not the agent app's creator
 * when the rule says so), one deny ends it, a vote counts once per person, and the API shows who
 * voted and who is still needed. Edits are in approvals-edit-decisions.test.ts, racing instances in
 * approvals-decide-race.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { createAgentApp, createScmTenant, deletion, outboxEvents, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { addMember, adminOf, auditOf, showApproval, vote, type TestMember } from "./support/approval-votes.js";

const twoAdmins = (extra: Record<string, unknown> = {}) => [
  { id: "two-admins", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: { count: 2, of: "admins" }, ...extra } },
];

describeEachDatabase("approvals with several approvers", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;
  let other: ScmTenant;
  let admin: TestMember;
  let second: TestMember;
  let third: TestMember;
  let viewer: TestMember;

  beforeAll(async () => {
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world, "Acme");
    other = await createScmTenant(world, "Other");
    admin = await adminOf(world.broker, tenant);
    second = await addMember(world.broker, tenant, "admin", { display_name: "Second Admin" });
    third = await addMember(world.broker, tenant, "admin", { display_name: "Third Admin" });
    viewer = await addMember(world.broker, tenant, "viewer", { display_name: "Finance Viewer", groups: ["finance"] });
    await putPolicy(world.broker, tenant, twoAdmins());
  });
  afterAll(() => world.close());

  it("needs two of three admins: the first vote leaves it pending and shows who is still needed, the second approves", async () => {
    const { approval_id, invocation_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const first = await vote(world.broker, admin, approval_id, { decision: "approve" });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ status: "pending", decision: null, you: { may_decide: false, vote: "approve" } });
    expect(first.body.approvers).toMatchObject({ rule: { count: 2, of: "admins" }, requester_may_approve: true, needed: 2, approved: 1 });
    expect(first.body.approvers.waiting_for).toEqual([
      { member_id: second.memberId, display_name: "Second Admin" },
      { member_id: third.memberId, display_name: "Third Admin" },
    ]);
    expect(first.body.approvers.votes).toEqual([
      { voter: { kind: "member", id: admin.memberId, display_name: null }, decision: "approve", via: "api", digest: first.body.digest, reason: null, decided_at: expect.any(String) },
    ]);
    expect((await showApproval(world.broker, second, approval_id)).body.you).toEqual({ may_decide: true, vote: null });
    expect((await outboxEvents(world.broker, tenant.tenantId, "approval.decided")).filter((e) => e.data.approval_id === approval_id)).toHaveLength(0);

    const last = await vote(world.broker, third, approval_id, { decision: "approve", reason: "checked" });
    expect(last.body).toMatchObject({ status: "approved", decision: { decision: "approve", reason: "checked" }, approvers: { needed: 2, approved: 2, waiting_for: [] } });
    expectError(await vote(world.broker, second, approval_id, { decision: "approve" }), 409, "approval_already_decided");
    const decided = (await outboxEvents(world.broker, tenant.tenantId, "approval.decided")).filter((e) => e.data.approval_id === approval_id);
    expect(decided.map((e) => e.data)).toEqual([expect.objectContaining({ invocation_id, decision: "approve", digest: first.body.digest, edited: false })]);
    expect((await auditOf(world.broker, tenant.tenantId, "approval.vote", approval_id)).map((entry) => entry.data.voter)).toEqual([`member:${admin.memberId}`, `member:${third.memberId}`]);
    expect(await auditOf(world.broker, tenant.tenantId, "approval.decided", approval_id)).toHaveLength(1);
  });

  it("counts the same person's repeated approval once (200, still one vote) and refuses their change of mind (409)", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    expect((await vote(world.broker, admin, approval_id, { decision: "approve" })).status).toBe(200);
    const again = await vote(world.broker, admin, approval_id, { decision: "approve" });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ status: "pending", approvers: { approved: 1 } });
    expect(again.body.approvers.votes).toHaveLength(1);
    const changed = await vote(world.broker, admin, approval_id, { decision: "deny" });
    expectError(changed, 409, "approval_already_decided");
    expect(changed.body.error.details).toMatchObject({ status: "pending", vote: "approve" });
    expect(await auditOf(world.broker, tenant.tenantId, "approval.vote", approval_id)).toHaveLength(1);
  });

  it("ends with one deny, even after an approving vote", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    await vote(world.broker, admin, approval_id, { decision: "approve" });
    const denied = await vote(world.broker, second, approval_id, { decision: "deny", reason: "not this one" });
    expect(denied.body).toMatchObject({ status: "denied", decision: { decision: "deny", reason: "not this one" } });
    expectError(await vote(world.broker, third, approval_id, { decision: "approve" }), 409, "approval_already_decided");
  });

  it("refuses a viewer when the rule names the admins (403 approval_not_eligible), and the vote is not recorded", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    expectError(await vote(world.broker, viewer, approval_id, { decision: "deny" }), 403, "approval_not_eligible");
    const shown = await showApproval(world.broker, viewer, approval_id);
    expect(shown.body).toMatchObject({ status: "pending", approvers: { votes: [] }, you: { may_decide: false, vote: null } });
  });

  it("lets the members of a named group decide, viewers included, and nobody else", async () => {
    const fresh = await createScmTenant(world, "Grouped");
    const boss = await adminOf(world.broker, fresh);
    const finance = [await addMember(world.broker, fresh, "viewer", { groups: ["finance"] }), await addMember(world.broker, fresh, "admin", { groups: ["finance", "ops"] })];
    await putPolicy(world.broker, fresh, [{ id: "finance", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: { count: 2, of: { group: "finance" } } } }]);
    const { approval_id } = await requestApproval(world.broker, deletion(fresh, "hello-world"));
    expectError(await vote(world.broker, boss, approval_id, { decision: "approve" }), 403, "approval_not_eligible");
    expect((await vote(world.broker, finance[0]!, approval_id, { decision: "approve" })).body.status).toBe("pending");
    const done = await vote(world.broker, finance[1]!, approval_id, { decision: "approve" });
    expect(done.body).toMatchObject({ status: "approved", approvers: { rule: { count: 2, of: { group: "finance" } }, approved: 2 } });
  });

  it("needs every member listed by all_of", async () => {
    const fresh = await createScmTenant(world, "Listed");
    const boss = await adminOf(world.broker, fresh);
    const listed = await addMember(world.broker, fresh, "viewer");
    await putPolicy(world.broker, fresh, [{ id: "both", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: { all_of: [listed.memberId, boss.memberId] } } }]);
    const { approval_id } = await requestApproval(world.broker, deletion(fresh, "hello-world"));
    const first = await vote(world.broker, boss, approval_id, { decision: "approve" });
    expect(first.body).toMatchObject({ status: "pending", approvers: { needed: 2, approved: 1, waiting_for: [{ member_id: listed.memberId, display_name: null }] } });
    expect((await vote(world.broker, listed, approval_id, { decision: "approve" })).body.status).toBe("approved");
  });

  it("keeps the member who created the calling agent app from approving its calls when requester_may_approve is false", async () => {
    const fresh = await createScmTenant(world, "Requester");
    const creator = await adminOf(world.broker, fresh);
    const colleague = await addMember(world.broker, fresh, "admin");
    await putPolicy(world.broker, fresh, [
      { id: "not-mine", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: { count: 1, of: "admins" }, requester_may_approve: false } },
    ]);
    const app = await createAgentApp(world.broker, fresh, "creator's app");
    const { approval_id } = await requestApproval(world.broker, { ...deletion(fresh, "hello-world"), token: app.token });
    const shown = await showApproval(world.broker, creator, approval_id);
    expect(shown.body).toMatchObject({ approvers: { requester_may_approve: false, waiting_for: [{ member_id: colleague.memberId }] }, you: { may_decide: false } });
    expectError(await vote(world.broker, creator, approval_id, { decision: "approve" }), 403, "approval_not_eligible");
    expect((await vote(world.broker, colleague, approval_id, { decision: "approve" })).body.status).toBe("approved");
  });

  it("leaves an approval routed to the end user to them: a member is refused (403 approval_not_eligible) and the API shows their page's link", async () => {
    const fresh = await createScmTenant(world, "EndUser");
    const boss = await adminOf(world.broker, fresh);
    await putPolicy(world.broker, fresh, [{ id: "owner-decides", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: "end_user" } }]);
    const minted = await call(world.broker, "POST", "/v1/broker/token", { token: fresh.testKey, body: { agent_app_id: fresh.agentAppId, env: "test", end_user_id: "alice" } });
    const { approval_id } = await requestApproval(world.broker, { ...deletion(fresh, "hello-world"), token: minted.body.access_token });
    expectError(await vote(world.broker, boss, approval_id, { decision: "approve" }), 403, "approval_not_eligible");
    const shown = await showApproval(world.broker, boss, approval_id);
    expect(shown.body).toMatchObject({ status: "pending", end_user_id: "alice", edits_allowed: false, approvers: { rule: "end_user", needed: 1, approved: 0, votes: [], waiting_for: [] }, you: { may_decide: false, vote: null } });
    expect(shown.body.end_user_url).toMatch(/^http.*\/approve\//);
  });

  it("shows the binding: digest, the account by its display name and the agent app by its name", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const shown = await showApproval(world.broker, admin, approval_id);
    expect(shown.body.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(shown.body.requested_digest).toBe(shown.body.digest);
    expect(shown.body.account).toMatchObject({ id: tenant.connectionId, kind: "connection", display_name: expect.any(String) });
    expect(shown.body.agent_app).toEqual({ id: tenant.agentAppId, name: "default agent" });
    expect(shown.body).toMatchObject({ edits_allowed: true, edit: null, end_user_url: null, deliveries: [] });
  });

  it("lists pending (default), decided and all approvals", async () => {
    const fresh = await createScmTenant(world, "Lists");
    const boss = await adminOf(world.broker, fresh);
    const waiting = await requestApproval(world.broker, deletion(fresh, "hello-world"));
    const denied = await requestApproval(world.broker, deletion(fresh, "spoon-knife"));
    await vote(world.broker, boss, denied.approval_id, { decision: "deny" });
    const ids = async (query: string) => (await call(world.broker, "GET", `/v1/approvals${query}`, boss.auth)).body.data.map((a: { approval_id: string }) => a.approval_id);
    expect(await ids("")).toEqual([waiting.approval_id]);
    expect(await ids("?status=pending")).toEqual([waiting.approval_id]);
    expect(await ids("?status=decided")).toEqual([denied.approval_id]);
    // Newest first; the two may share a millisecond, so only the set is certain.
    expect((await ids("?status=all")).sort()).toEqual([denied.approval_id, waiting.approval_id].sort());
    const paged = await call(world.broker, "GET", "/v1/approvals?status=all&limit=1", boss.auth);
    const next = await call(world.broker, "GET", `/v1/approvals?status=all&limit=1&cursor=${paged.body.next_cursor}`, boss.auth);
    expect([...paged.body.data, ...next.body.data].map((a: { approval_id: string }) => a.approval_id).sort()).toEqual([denied.approval_id, waiting.approval_id].sort());
    expect(next.body.next_cursor).toBeNull();
    expect((await call(world.broker, "GET", "/v1/approvals?status=soon", boss.auth)).status).toBe(400);
  });

  it("neither lists nor lets another tenant's member vote on an approval (404), and the votes stay untouched", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    await vote(world.broker, admin, approval_id, { decision: "approve" });
    const outsider = await adminOf(world.broker, other);
    expectError(await vote(world.broker, outsider, approval_id, { decision: "deny" }), 404, "not_found");
    expect((await call(world.broker, "GET", "/v1/approvals?status=all&limit=200", asOperator(other))).body.data.map((a: { approval_id: string }) => a.approval_id)).not.toContain(approval_id);
    expect((await showApproval(world.broker, admin, approval_id)).body).toMatchObject({ status: "pending", approvers: { approved: 1 } });
  });
});
