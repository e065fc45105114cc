/**
 * Approving with edits, as a decision: the edit is validated against the tool's schema and
 * re-checked against policy (it may not be denied, nor escape the rule that asked), a rule may
 * forbid edits, the approval is bound to the edited call, earlier approving votes go stale, and
 * the audit log keeps both versions and who edited. What runs afterwards is approvals-edits.test.ts.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { continueInvocation, createScmTenant, deleteCalls, deletion, outboxEvents, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { addMember, adminOf, auditOf, showApproval, vote, type TestMember } from "./support/approval-votes.js";
import { call } from "./support/http.js";

describeEachDatabase("approving with edits", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;
  let admin: TestMember;
  let second: TestMember;

  /** Deleting private-notes is denied; hello-world and spoon-knife wait for two admins (edits allowed); others for the default approval. */
  const rules = (approval: Record<string, unknown> = {}) => [
    { id: "keep-notes", effect: "deny", tools: ["scm.delete_repository"], conditions: [{ pointer: "/repo", equals: "private-notes" }] },
    { id: "two-for-known", effect: "require_approval", tools: ["scm.delete_repository"], conditions: [{ pointer: "/repo", one_of: ["hello-world", "spoon-knife"] }], approval: { approvers: { count: 2, of: "admins" }, ...approval } },
  ];

  beforeAll(async () => {
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world, "Acme");
    admin = await adminOf(world.broker, tenant);
    second = await addMember(world.broker, tenant, "admin", { display_name: "Second" });
    await putPolicy(world.broker, tenant, rules());
  });
  afterAll(() => world.close());

  const unchanged = async (approvalId: string) => {
    const shown = await showApproval(world.broker, admin, approvalId);
    expect(shown.body).toMatchObject({ status: "pending", edit: null, approvers: { votes: [] } });
    expect(shown.body.digest).toBe(shown.body.requested_digest);
  };

  it("binds the approval to the edited call: a new digest, the changes, who edited; the audit log keeps both versions", async () => {
    const { approval_id, invocation_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const edited = await vote(world.broker, admin, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: "spoon-knife" } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.digest).not.toBe(edited.body.requested_digest);
    expect(edited.body.edit).toEqual({
      arguments: { owner: tenant.owner, repo: "spoon-knife" },
      changes: [{ path: "/repo", from: "hello-world", to: "spoon-knife" }],
      edited_by: `member:${admin.memberId}`,
      edited_at: expect.any(String),
    });
    expect(edited.body.arguments).toEqual({ owner: tenant.owner, repo: "hello-world" });
    expect(edited.body.approvers).toMatchObject({ approved: 1, votes: [{ digest: edited.body.digest, decision: "approve" }] });

    const [entry] = await auditOf(world.broker, tenant.tenantId, "approval.edited", approval_id);
    expect(entry!.data).toMatchObject({
      invocation_id,
      edited_by: `member:${admin.memberId}`,
      requested_arguments: { owner: tenant.owner, repo: "hello-world" },
      edited_arguments: { owner: tenant.owner, repo: "spoon-knife" },
      changes: [{ path: "/repo", from: "hello-world", to: "spoon-knife" }],
      previous_digest: edited.body.requested_digest,
      digest: edited.body.digest,
    });
    const row = await world.broker.services.store.db.selectFrom("approvals").select("edited_arguments_sealed").where("id", "=", approval_id).executeTakeFirstOrThrow();
    expect(row.edited_arguments_sealed).not.toContain("spoon-knife");

    // The second approver reviewed the edited call: their approve names its digest.
    const done = await vote(world.broker, second, approval_id, { decision: "approve", digest: edited.body.digest });
    expect(done.body).toMatchObject({ status: "approved", approvers: { approved: 2 } });
    const decided = (await outboxEvents(world.broker, tenant.tenantId, "approval.decided")).find((e) => e.data.approval_id === approval_id);
    expect(decided?.data).toMatchObject({ digest: edited.body.digest, edited: true });
    expect((await continueInvocation(world.broker, tenant.token, invocation_id)).status).toBe(200);
    expect(deleteCalls(world, tenant, "spoon-knife")).toBe(1);
    expect(deleteCalls(world, tenant, "hello-world")).toBe(0);
  });

  it("makes approving votes on the earlier version stale: they stay listed but no longer count", async () => {
    const fresh = await createScmTenant(world, "Stale");
    const [boss, other, third] = [await adminOf(world.broker, fresh), await addMember(world.broker, fresh, "admin"), await addMember(world.broker, fresh, "admin")];
    await putPolicy(world.broker, fresh, rules());
    const { approval_id } = await requestApproval(world.broker, deletion(fresh, "hello-world"));
    await vote(world.broker, boss, approval_id, { decision: "approve" });
    const edited = await vote(world.broker, other, approval_id, { decision: "approve", arguments: { owner: fresh.owner, repo: "spoon-knife" } });
    expect(edited.body).toMatchObject({ status: "pending", approvers: { approved: 1 } });
    expect(edited.body.approvers.votes.map((v: { digest: string }) => v.digest)).toEqual([edited.body.requested_digest, edited.body.digest]);
    expect(edited.body.approvers.waiting_for.map((w: { member_id: string }) => w.member_id)).toEqual([boss.memberId, third.memberId]);
    expect((await showApproval(world.broker, boss, approval_id)).body.you).toEqual({ may_decide: true, vote: null });
    expect((await vote(world.broker, boss, approval_id, { decision: "approve", digest: edited.body.digest })).body).toMatchObject({ status: "approved", approvers: { approved: 2 } });
  });

  it("undoes the edit when an approver edits back to the requested arguments", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const edited = await vote(world.broker, admin, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: "spoon-knife" } });
    const back = await vote(world.broker, second, approval_id, { decision: "approve", digest: edited.body.digest, arguments: { owner: tenant.owner, repo: "hello-world" } });
    expect(back.body).toMatchObject({ status: "pending", edit: null, approvers: { approved: 1 } });
    expect(back.body.digest).toBe(back.body.requested_digest);
  });

  it("refuses edited arguments that fail the tool's schema (422 invalid_tool_args) and records nothing", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const refused = await vote(world.broker, admin, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: 42 } });
    expectError(refused, 422, "invalid_tool_args");
    expect(refused.body.error.details.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field: "/repo" })]));
    await unchanged(approval_id);
  });

  it("refuses an edit policy denies (403 approval_edit_refused, policy_denied) and records nothing", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const refused = await vote(world.broker, admin, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: "private-notes" } });
    expectError(refused, 403, "approval_edit_refused");
    expect(refused.body.error.details).toEqual({ reason: "policy_denied", rule_id: "keep-notes" });
    await unchanged(approval_id);
    expect(await auditOf(world.broker, tenant.tenantId, "approval.edited", approval_id)).toHaveLength(0);
  });

  it("refuses an edit that escapes the rule that asked for the approval (403 approval_edit_refused, rule_changed)", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const refused = await vote(world.broker, admin, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: "elsewhere" } });
    expectError(refused, 403, "approval_edit_refused");
    expect(refused.body.error.details).toMatchObject({ reason: "rule_changed", rule_id: "two-for-known", edited_rule_id: null, edited_effect: "require_approval" });
    await unchanged(approval_id);
  });

  it("refuses edits under a rule with edits: forbidden (403 approval_edit_forbidden), and shows edits_allowed false", async () => {
    const fresh = await createScmTenant(world, "NoEdits");
    const boss = await adminOf(world.broker, fresh);
    await putPolicy(world.broker, fresh, rules({ approvers: { count: 1, of: "admins" }, edits: "forbidden" }));
    const { approval_id } = await requestApproval(world.broker, deletion(fresh, "hello-world"));
    expect((await showApproval(world.broker, boss, approval_id)).body.edits_allowed).toBe(false);
    expectError(await vote(world.broker, boss, approval_id, { decision: "approve", arguments: { owner: fresh.owner, repo: "spoon-knife" } }), 403, "approval_edit_forbidden");
    expect((await showApproval(world.broker, boss, approval_id)).body).toMatchObject({ status: "pending", edit: null });
    expect((await vote(world.broker, boss, approval_id, { decision: "approve" })).body.status).toBe("approved");
  });

  it("refuses someone who may not vote before looking at their edit (403 approval_not_eligible, nothing sealed)", async () => {
    const viewer = await addMember(world.broker, tenant, "viewer");
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    expectError(await vote(world.broker, viewer, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: 42 } }), 403, "approval_not_eligible");
    expectError(await vote(world.broker, viewer, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: "spoon-knife" } }), 403, "approval_not_eligible");
    await unchanged(approval_id);
  });

  it("reveals the exact arguments the call will send after an edit, and the agent's beside them (POST /v1/approvals/{id}/arguments)", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    await vote(world.broker, admin, approval_id, { decision: "approve", arguments: { owner: tenant.owner, repo: "spoon-knife" } });
    // The second admin, still to vote, asks for the exact values (the redacted view may hide an edited credential-like field).
    const revealed = await call(world.broker, "POST", `/v1/approvals/${approval_id}/arguments`, second.auth);
    expect(revealed.status, revealed.text).toBe(200);
    expect(revealed.body).toEqual({
      approval_id,
      arguments: { owner: tenant.owner, repo: "spoon-knife" },
      requested_arguments: { owner: tenant.owner, repo: "hello-world" },
    });
    const [entry] = await auditOf(world.broker, tenant.tenantId, "approval.arguments_revealed", approval_id);
    expect(entry!.data).toMatchObject({ edited: true });
  });

  it("reveals the requested arguments as the ones that will run when nobody edited", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const revealed = await call(world.broker, "POST", `/v1/approvals/${approval_id}/arguments`, second.auth);
    expect(revealed.status, revealed.text).toBe(200);
    expect(revealed.body.arguments).toEqual({ owner: tenant.owner, repo: "hello-world" });
    expect(revealed.body.requested_arguments).toEqual(revealed.body.arguments);
  });

  it("refuses arguments sent with a deny (400 invalid_request)", async () => {
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    expectError(await vote(world.broker, admin, approval_id, { decision: "deny", arguments: { owner: tenant.owner, repo: "spoon-knife" } }), 400, "invalid_request");
    await unchanged(approval_id);
  });
});
