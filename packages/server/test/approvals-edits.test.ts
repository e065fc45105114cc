/**
 * Issue 39, approve with edits, over REST: the edited call is what runs (continue and re-execute),
 * the upstream receives exactly the edited arguments, the agent is told what changed (in replays
 * too), the audit entry of the call keeps both versions, and policy judges the edited call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveWithEdit, decideWithArguments } from "./support/approval-edits.js";
import { continueInvocation, createScmTenant, execute, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";

describeEachDatabase("approve with edits: the edited call runs (REST)", (kind) => {
  let world: ScmWorld;

  beforeAll(async () => {
    world = await startScmWorld(kind);
  });
  afterAll(() => world.close());

  /** A tenant whose issues wait for approval, except that a title "Forbidden" is denied outright. */
  async function approvingTenant(name: string): Promise<ScmTenant> {
    const tenant = await createScmTenant(world, name);
    await putPolicy(world.broker, tenant, [
      { id: "no-forbidden", effect: "deny", tools: ["scm.create_issue"], conditions: [{ pointer: "/title", equals: "Forbidden" }] },
      { id: "issues-wait", effect: "require_approval", tools: ["scm.create_issue"] },
    ], "test");
    return tenant;
  }

  const issue = (tenant: ScmTenant, args: Record<string, unknown>) => ({
    token: tenant.token,
    tool: "scm.create_issue",
    args: { owner: tenant.owner, repo: "hello-world", ...args },
    connectionId: tenant.connectionId,
  });
  const issuesSent = (tenant: ScmTenant) =>
    world.github.stats.apiCalls.filter((c) => c.method === "POST" && c.path === `/repos/${tenant.owner}/hello-world/issues`).map((c) => c.body);

  const requested = { title: "Draft titel", labels: ["bug", "urgent"], body: "Steps to reproduce" };
  const edited = { title: "Draft title", labels: ["bug"], body: "Steps to reproduce" };
  const changes = [
    { path: "/labels", from: ["bug", "urgent"], to: ["bug"] },
    { path: "/title", from: "Draft titel", to: "Draft title" },
  ];

  describe("continue", () => {
    it("sends exactly the edited arguments and tells the agent what changed, in replays too", async () => {
      const tenant = await approvingTenant("Continue");
      const pending = await requestApproval(world.broker, issue(tenant, requested));
      await approveWithEdit(world.broker, tenant, pending.approval_id, { owner: tenant.owner, repo: "hello-world", ...edited });

      const result = await continueInvocation(world.broker, tenant.token, pending.invocation_id);
      expect(result.status, result.text).toBe(200);
      expect(result.body).toEqual({
        invocation_id: pending.invocation_id,
        result: expect.objectContaining({ title: "Draft title" }),
        approval: { approval_id: pending.approval_id, edited: true, changes },
      });
      expect(issuesSent(tenant)).toEqual([edited]);

      const again = await continueInvocation(world.broker, tenant.token, pending.invocation_id);
      expect(again.body).toEqual(result.body);
      expect(issuesSent(tenant)).toHaveLength(1);
      const read = await call(world.broker, "GET", `/v1/tools/invocations/${pending.invocation_id}`, { token: tenant.token });
      expect(read.body).toMatchObject({ status: "succeeded", approval_id: pending.approval_id, approval: { approval_id: pending.approval_id, edited: true, changes } });
    });

    it("keeps both versions and who edited in the audit entry of the call", async () => {
      const tenant = await approvingTenant("Audited");
      const pending = await requestApproval(world.broker, issue(tenant, requested));
      await approveWithEdit(world.broker, tenant, pending.approval_id, { owner: tenant.owner, repo: "hello-world", ...edited });
      expect((await continueInvocation(world.broker, tenant.token, pending.invocation_id)).status).toBe(200);

      const audit = await call(world.broker, "GET", "/v1/audit?action=tool.executed&limit=50", asOperator(tenant));
      const entry = (audit.body.data as { target: { id: string }; data: Record<string, unknown> }[]).find((e) => e.target.id === pending.invocation_id);
      expect(entry?.data).toMatchObject({
        status: "succeeded",
        approval_id: pending.approval_id,
        approval_edited: true,
        arguments: { owner: tenant.owner, repo: "hello-world", ...edited },
        requested_arguments: { owner: tenant.owner, repo: "hello-world", ...requested },
        edited_by: expect.any(String),
        changes,
      });
    });

    it("says an approval without edits ran the call as asked", async () => {
      const tenant = await approvingTenant("Unedited");
      const pending = await requestApproval(world.broker, issue(tenant, requested));
      const decided = await call(world.broker, "POST", `/v1/approvals/${pending.approval_id}/decide`, { ...asOperator(tenant), body: { decision: "approve" } });
      expect(decided.status, decided.text).toBe(200);
      const result = await continueInvocation(world.broker, tenant.token, pending.invocation_id);
      expect(result.body.approval).toEqual({ approval_id: pending.approval_id, edited: false, changes: [] });
      expect(issuesSent(tenant)).toEqual([requested]);
    });

    it("refuses with policy_denied, and sends nothing, when policy now denies the edited call (not the requested one)", async () => {
      const tenant = await approvingTenant("Judged");
      const pending = await requestApproval(world.broker, issue(tenant, requested));
      await approveWithEdit(world.broker, tenant, pending.approval_id, { owner: tenant.owner, repo: "hello-world", title: "Renamed later" });
      await putPolicy(world.broker, tenant, [
        { id: "no-renamed", effect: "deny", tools: ["scm.create_issue"], conditions: [{ pointer: "/title", equals: "Renamed later" }] },
        { id: "issues-wait", effect: "require_approval", tools: ["scm.create_issue"] },
      ], "test");

      const result = await continueInvocation(world.broker, tenant.token, pending.invocation_id);
      expectError(result, 403, "policy_denied");
      expect(result.body.error.details).toMatchObject({ rule_id: "no-renamed" });
      expect(issuesSent(tenant)).toEqual([]);
      const invocation = await call(world.broker, "GET", `/v1/tools/invocations/${pending.invocation_id}`, { token: tenant.token });
      expect(invocation.body.status).toBe("denied");
    });
  });

  describe("an edit policy refuses", () => {
    it("is refused at the decision, nothing is written, and the call then runs as requested once approved", async () => {
      const tenant = await approvingTenant("Refused");
      const pending = await requestApproval(world.broker, issue(tenant, requested));
      const refused = await decideWithArguments(world.broker, tenant, pending.approval_id, { owner: tenant.owner, repo: "hello-world", title: "Forbidden" });
      expectError(refused, 403, "approval_edit_refused");
      expect(refused.body.error.details).toMatchObject({ reason: "policy_denied", rule_id: "no-forbidden" });
      const approval = await call(world.broker, "GET", `/v1/approvals/${pending.approval_id}`, asOperator(tenant));
      expect(approval.body).toMatchObject({ status: "pending", edit: null });
      expectError(await continueInvocation(world.broker, tenant.token, pending.invocation_id), 409, "approval_pending");

      const decided = await call(world.broker, "POST", `/v1/approvals/${pending.approval_id}/decide`, { ...asOperator(tenant), body: { decision: "approve" } });
      expect(decided.status, decided.text).toBe(200);
      const result = await continueInvocation(world.broker, tenant.token, pending.invocation_id);
      expect(result.body.approval).toEqual({ approval_id: pending.approval_id, edited: false, changes: [] });
      expect(issuesSent(tenant)).toEqual([requested]);
    });
  });

  describe("re-execute with approval_id", () => {
    it("runs the edited arguments whether the agent sends the call as requested or as edited, once", async () => {
      const tenant = await approvingTenant("Reexecute");
      const asked = await requestApproval(world.broker, issue(tenant, requested));
      await approveWithEdit(world.broker, tenant, asked.approval_id, { owner: tenant.owner, repo: "hello-world", ...edited });
      const first = await execute(world.broker, { ...issue(tenant, requested), approvalId: asked.approval_id });
      expect(first.status, first.text).toBe(200);
      expect(first.body).toMatchObject({ invocation_id: asked.invocation_id, approval: { approval_id: asked.approval_id, edited: true, changes } });

      const second = await requestApproval(world.broker, issue(tenant, { ...requested, title: "Second draft" }));
      await approveWithEdit(world.broker, tenant, second.approval_id, { owner: tenant.owner, repo: "hello-world", ...edited, title: "Second" });
      const asEdited = await execute(world.broker, { ...issue(tenant, { ...edited, title: "Second" }), approvalId: second.approval_id });
      expect(asEdited.status, asEdited.text).toBe(200);
      expect(asEdited.body.approval).toMatchObject({ approval_id: second.approval_id, edited: true });
      expect(issuesSent(tenant)).toEqual([edited, { ...edited, title: "Second" }]);
    });

    it("refuses any other arguments with approval_mismatch, and sends nothing", async () => {
      const tenant = await approvingTenant("Mismatch");
      const asked = await requestApproval(world.broker, issue(tenant, requested));
      await approveWithEdit(world.broker, tenant, asked.approval_id, { owner: tenant.owner, repo: "hello-world", ...edited });
      const other = await execute(world.broker, { ...issue(tenant, { ...edited, title: "Something else" }), approvalId: asked.approval_id });
      expectError(other, 409, "approval_mismatch");
      expect(other.body.error.details).toMatchObject({ mismatch: "arguments" });
      expect(issuesSent(tenant)).toEqual([]);
      const approval = await call(world.broker, "GET", `/v1/approvals/${asked.approval_id}`, asOperator(tenant));
      expect(approval.body.status).toBe("approved");
    });

    it("refuses with policy_denied when policy now denies the edited call, leaving the approval unused", async () => {
      const tenant = await approvingTenant("Redenied");
      const asked = await requestApproval(world.broker, issue(tenant, requested));
      await approveWithEdit(world.broker, tenant, asked.approval_id, { owner: tenant.owner, repo: "hello-world", title: "Renamed later" });
      await putPolicy(world.broker, tenant, [
        { id: "no-renamed", effect: "deny", tools: ["scm.create_issue"], conditions: [{ pointer: "/title", equals: "Renamed later" }] },
        { id: "issues-wait", effect: "require_approval", tools: ["scm.create_issue"] },
      ], "test");
      const result = await execute(world.broker, { ...issue(tenant, requested), approvalId: asked.approval_id });
      expectError(result, 403, "policy_denied");
      expect(result.body.error.details).toMatchObject({ rule_id: "no-renamed" });
      expect(issuesSent(tenant)).toEqual([]);
      const approval = await call(world.broker, "GET", `/v1/approvals/${asked.approval_id}`, asOperator(tenant));
      expect(approval.body.status).toBe("approved");
    });
  });

  it("hides another tenant's edited call: continue answers 404", async () => {
    const tenant = await approvingTenant("Owner");
    const other = await approvingTenant("Stranger");
    const asked = await requestApproval(world.broker, issue(tenant, requested));
    await approveWithEdit(world.broker, tenant, asked.approval_id, { owner: tenant.owner, repo: "hello-world", ...edited });
    expectError(await continueInvocation(world.broker, other.token, asked.invocation_id), 404, "not_found");
    expectError(await execute(world.broker, { ...issue(other, requested), approvalId: asked.approval_id }), 404, "not_found");
    expect(issuesSent(tenant)).toEqual([]);
  });
});
