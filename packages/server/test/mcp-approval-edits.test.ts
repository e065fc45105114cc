/**
 * Issue 39, approve with edits, over MCP: whichever protocol generation the client speaks, the
 * approved call runs with the approver's arguments, and the result tells the agent so, in words
 * (a second text block) and in structuredContent (`_approval`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { approveWithEdit, decideWithArguments } from "./support/approval-edits.js";
import { createScmTenant, putPolicy, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";
import { connectLegacyClient, connectModernClient, type LegacyVersion, type ToolCallResult } from "./support/mcp-clients.js";

const approvalIdOf = (url: string) => /\/console\/approvals\/([0-9a-f-]{36})\?tenant=[0-9a-f-]{36}$/.exec(url)?.[1];

describeEachDatabase("MCP: a call an approver edited", (kind) => {
  let world: ScmWorld;
  let mcpUrl: string;

  beforeAll(async () => {
    world = await startScmWorld(kind);
    mcpUrl = `${world.broker.url}/mcp`;
  });
  afterAll(async () => world?.close());

  async function approvingTenant(name: string) {
    const tenant = await createScmTenant(world, name);
    await putPolicy(world.broker, tenant, [
      { id: "no-forbidden", effect: "deny", tools: ["scm.create_issue"], conditions: [{ pointer: "/title", equals: "Forbidden" }] },
      { id: "issues-wait", effect: "require_approval", tools: ["scm.create_issue"] },
    ], "test");
    return tenant;
  }
  const issue = (tenant: ScmTenant, title: string) => ({ name: "scm_create_issue", arguments: { owner: tenant.owner, repo: "hello-world", title, labels: ["bug"] } });
  const issuesSent = (tenant: ScmTenant) =>
    world.github.stats.apiCalls.filter((c) => c.method === "POST" && c.path === `/repos/${tenant.owner}/hello-world/issues`).map((c) => c.body);

  /** What every generation must show for an edit of the title from "Teh title" to "The title". */
  function expectEditedResult(result: ToolCallResult, approvalId: string) {
    expect(result.isError ?? false, result.content[0]?.text).toBe(false);
    const changes = [{ path: "/title", from: "Teh title", to: "The title" }];
    expect(result.structuredContent).toMatchObject({ title: "The title", _approval: { approval_id: approvalId, edited: true, changes } });
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ title: "The title" });
    expect(result.content[1]!.text).toBe(`Note: a person edited this call before approving it (approval ${approvalId}); it ran with changed arguments: /title: "Teh title" -> "The title".`);
  }

  it("a 2026-07-28 client, whose approver edits the call, gets the edited call's result and the note", async () => {
    const tenant = await approvingTenant("Modern");
    const { client, elicitations } = await connectModernClient(mcpUrl, tenant.token, async ({ url }) => {
      await approveWithEdit(world.broker, tenant, approvalIdOf(url)!, { owner: tenant.owner, repo: "hello-world", title: "The title", labels: ["bug"] });
      return "accept";
    });
    const result = (await client.callTool(issue(tenant, "Teh title"))) as ToolCallResult;
    await client.close();
    expect(elicitations).toHaveLength(1);
    expectEditedResult(result, approvalIdOf(elicitations[0]!.url)!);
    expect(issuesSent(tenant)).toEqual([{ title: "The title", labels: ["bug"] }]);
  });

  it("a 2026-07-28 client whose approver's edit policy refuses: the approver approves as asked, and the result carries no note", async () => {
    const tenant = await approvingTenant("Modern refused");
    const { client } = await connectModernClient(mcpUrl, tenant.token, async ({ url }) => {
      const approvalId = approvalIdOf(url)!;
      const refused = await decideWithArguments(world.broker, tenant, approvalId, { owner: tenant.owner, repo: "hello-world", title: "Forbidden", labels: ["bug"] });
      expect(refused.body.error.code, refused.text).toBe("approval_edit_refused");
      expect((await call(world.broker, "POST", `/v1/approvals/${approvalId}/decide`, { ...asOperator(tenant), body: { decision: "approve" } })).status).toBe(200);
      return "accept";
    });
    const result = (await client.callTool(issue(tenant, "Teh title"))) as ToolCallResult;
    await client.close();
    expect(result.isError ?? false, result.content[0]?.text).toBe(false);
    expect(result.structuredContent).toMatchObject({ title: "Teh title" });
    expect(result.structuredContent!._approval).toBeUndefined();
    expect(result.content).toHaveLength(1);
    expect(issuesSent(tenant)).toEqual([{ title: "Teh title", labels: ["bug"] }]);
  });

  it("tells the agent of the edit when the edited call fails upstream too", async () => {
    const tenant = await approvingTenant("Failing edit");
    const client = await connectLegacyClient(mcpUrl, tenant.token);
    const first = (await client.callTool(issue(tenant, "Teh title"))) as ToolCallResult;
    const approvalId = first.structuredContent!.error.details.approval_id as string;
    await approveWithEdit(world.broker, tenant, approvalId, { owner: tenant.owner, repo: "no-such-repo", title: "Teh title", labels: ["bug"] });
    const failed = (await client.callTool(issue(tenant, "Teh title"))) as ToolCallResult;
    await client.close();
    expect(failed.isError).toBe(true);
    const changes = [{ path: "/repo", from: "hello-world", to: "no-such-repo" }];
    expect(failed.structuredContent).toMatchObject({ error: { code: "upstream_error", details: { upstream_status: 404, approval: { approval_id: approvalId, edited: true, changes } } } });
    expect(failed.content[0]!.text).toContain(`Note: a person edited this call before approving it (approval ${approvalId}); it ran with changed arguments: /repo: "hello-world" -> "no-such-repo".`);
    expect(issuesSent(tenant)).toEqual([]);
  });

  describe.each<LegacyVersion>(["2025-11-25", "2025-06-18"])("a %s client", (version) => {
    it("calls the identical tool again after the edit and approval: the edited call runs once, with the note", async () => {
      const tenant = await approvingTenant(`Legacy ${version}`);
      const client = await connectLegacyClient(mcpUrl, tenant.token, version);
      const first = (await client.callTool(issue(tenant, "Teh title"))) as ToolCallResult;
      expect(first.structuredContent).toMatchObject({ error: { code: "approval_required" } });
      const approvalId = first.structuredContent!.error.details.approval_id as string;
      await approveWithEdit(world.broker, tenant, approvalId, { owner: tenant.owner, repo: "hello-world", title: "The title", labels: ["bug"] });

      const approved = (await client.callTool(issue(tenant, "Teh title"))) as ToolCallResult;
      expectEditedResult(approved, approvalId);
      expect(issuesSent(tenant)).toEqual([{ title: "The title", labels: ["bug"] }]);
      // The approval is spent: the same call asks anew.
      const again = (await client.callTool(issue(tenant, "Teh title"))) as ToolCallResult;
      expect(again.structuredContent).toMatchObject({ error: { code: "approval_required" } });
      await client.close();
    });
  });
});
