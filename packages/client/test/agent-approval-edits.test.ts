/**
 * Issue 39: an approver edits the call before approving. The SDK's result says the call was edited
 * and what changed (`approval`), the upstream receives the edited arguments, and a failed edited
 * call carries the same on its error (`error.approval`).
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { approveWithEdit, decideWithArguments } from "../../server/test/support/approval-edits.js";
import { describeEachDatabase } from "../../server/test/support/databases.js";
import { AgentClient, isBrokerError, type ApprovalNote, type ApprovalRequiredError, type ExecuteRequest } from "../src/index.js";
import { putPolicy, startTestBed, type ClientTestBed } from "./support/broker-setup.js";

describeEachDatabase("AgentClient: a call an approver edited", (kind) => {
  let bed: ClientTestBed;
  let client: AgentClient;

  beforeAll(async () => {
    bed = await startTestBed({ kind });
    await putPolicy(bed, [
      { id: "no-forbidden", effect: "deny", tools: ["scm.create_issue"], conditions: [{ pointer: "/title", equals: "Forbidden" }] },
      { id: "issues-wait", effect: "require_approval", tools: ["scm.create_issue"] },
    ]);
    client = new AgentClient({ baseUrl: bed.broker.url, token: await bed.mintToken() });
  });
  afterAll(() => bed.close());

  const issue = (args: Record<string, unknown>): ExecuteRequest => ({ tool_name: "scm.create_issue", arguments: { owner: "octocat", ...args }, connected_account_id: bed.accountId });
  const issuesPosted = (repo: string) => bed.fakes.github.stats.apiCalls.filter((c) => c.method === "POST" && c.path === `/repos/octocat/${repo}/issues`).map((c) => c.body);
  /** The approver, told of the approval, edits the arguments and approves. */
  const approverEdits = (args: Record<string, unknown>) => async (pending: ApprovalRequiredError) => {
    await approveWithEdit(bed.broker, bed.tenant, pending.approvalId, { owner: "octocat", ...args });
  };

  it("executeAndWait resolves with the edited call's result and what changed, after an edit policy refused", async () => {
    let approvalId = "";
    const outcome = await client.executeAndWait(issue({ repo: "hello-world", title: "Refnud order 1234" }), {
      pollInterval: 50,
      onApprovalRequired: async (pending) => {
        approvalId = pending.approvalId;
        const refused = await decideWithArguments(bed.broker, bed.tenant, pending.approvalId, { owner: "octocat", repo: "hello-world", title: "Forbidden" });
        expect(refused.body.error).toMatchObject({ code: "approval_edit_refused", details: { reason: "policy_denied" } });
        await approverEdits({ repo: "hello-world", title: "Refund order 1234" })(pending);
      },
    });
    const note: ApprovalNote | undefined = outcome.approval;
    expect(note).toEqual({ approval_id: approvalId, edited: true, changes: [{ path: "/title", from: "Refnud order 1234", to: "Refund order 1234" }] });
    expect(outcome.result).toMatchObject({ title: "Refund order 1234" });
    expect(issuesPosted("hello-world")).toEqual([{ title: "Refund order 1234" }]);
  });

  it("a failed edited call carries the approval note on its error", async () => {
    const error = await client
      .executeAndWait(issue({ repo: "hello-world", title: "Move it" }), { pollInterval: 50, onApprovalRequired: approverEdits({ repo: "no-such-repo", title: "Move it" }) })
      .catch((caught: unknown) => caught);
    expect(isBrokerError(error, "upstream_error")).toBe(true);
    const failed = error as { approval?: ApprovalNote };
    expect(failed.approval).toMatchObject({ edited: true, changes: [{ path: "/repo", from: "hello-world", to: "no-such-repo" }] });
    expect(issuesPosted("no-such-repo")).toHaveLength(1);
  });
});
