/**
 * Issue 39 review: an approver's edit of a credential-like argument (Zoom's meeting `password`).
 * Both values redact alike, so changes read from the redacted copies were empty while another call
 * ran. Changes are now found on the real arguments when the edit is made and shown redacted: the
 * approval, the agent's result and the audit log all name the path, none holds either value, and
 * the upstream receives the approver's value.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { connectAccount } from "./support/connect.js";
import { describeEachDatabase } from "./support/databases.js";
import { continueInvocation, putPolicy, requestApproval } from "./support/approvals.js";
import { adminOf, auditOf, showApproval, vote, type TestMember } from "./support/approval-votes.js";
import { startToolWorld, type ToolWorld } from "./support/tool-execution.js";

const AGENT_PASSCODE = "agent4711";
const APPROVER_PASSCODE = "apprv0815";
const PASSWORD_CHANGE = { path: "/password", from: "[redacted]", to: "[redacted]" };

describeEachDatabase("an edit of a credential-like argument", (kind) => {
  let world: ToolWorld;
  let admin: TestMember;
  let connectionId: string;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    admin = await adminOf(world.broker, world.tenant);
    connectionId = await connectAccount(world.broker, world.tenant, "zoom", { env: "test" });
    await putPolicy(world.broker, world.tenant, [{ id: "meetings-wait", effect: "require_approval", tools: ["zoom.create_meeting"] }], "test");
  }, 60_000);
  afterAll(() => world?.close());

  const meeting = { topic: "Quarterly review", start_time: "2026-12-01T09:30:00Z", duration: 30 };
  const meetingsSent = () => world.fakes.described.zoom!.stats.apiCalls.filter((c) => c.method === "POST" && c.path.endsWith("/users/me/meetings")).map((c) => c.body as Record<string, unknown>);
  const withoutPasscodes = (label: string, text: string) => {
    expect(text, `${label} holds the agent's passcode`).not.toContain(AGENT_PASSCODE);
    expect(text, `${label} holds the approver's passcode`).not.toContain(APPROVER_PASSCODE);
  };

  it("is named by its path, values redacted, in the approval, the agent's result and the audit log; the upstream gets the approver's value", async () => {
    const pending = await requestApproval(world.broker, { token: world.jwt, tool: "zoom.create_meeting", args: { ...meeting, password: AGENT_PASSCODE }, connectionId });
    const decided = await vote(world.broker, admin, pending.approval_id, { decision: "approve", arguments: { ...meeting, password: APPROVER_PASSCODE } });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.body.status).toBe("approved");
    expect(decided.body.digest).not.toBe(decided.body.requested_digest);
    expect(decided.body.edit).toMatchObject({ arguments: { ...meeting, password: "[redacted]" }, changes: [PASSWORD_CHANGE] });
    const shown = await showApproval(world.broker, admin, pending.approval_id);
    expect(shown.body.edit.changes).toEqual([PASSWORD_CHANGE]);
    withoutPasscodes("the approval", shown.text);

    const [edited] = await auditOf(world.broker, world.tenant.tenantId, "approval.edited", pending.approval_id);
    expect(edited!.data).toMatchObject({ changes: [PASSWORD_CHANGE] });
    withoutPasscodes("the approval.edited audit entry", JSON.stringify(edited));

    const result = await continueInvocation(world.broker, world.jwt, pending.invocation_id);
    expect(result.status, result.text).toBe(200);
    expect(result.body.approval).toEqual({ approval_id: pending.approval_id, edited: true, changes: [PASSWORD_CHANGE] });
    withoutPasscodes("the agent's result", result.text);
    expect(meetingsSent()).toEqual([expect.objectContaining({ topic: meeting.topic, password: APPROVER_PASSCODE })]);

    const [executed] = await auditOf(world.broker, world.tenant.tenantId, "tool.executed", pending.invocation_id);
    expect(executed!.data).toMatchObject({ approval_edited: true, changes: [PASSWORD_CHANGE] });
    withoutPasscodes("the tool.executed audit entry", JSON.stringify(executed));
  });

  it("stores the changes with the edit, once: the stored row names the path and holds no value", async () => {
    const pending = await requestApproval(world.broker, { token: world.jwt, tool: "zoom.create_meeting", args: { ...meeting, password: AGENT_PASSCODE }, connectionId });
    await vote(world.broker, admin, pending.approval_id, { decision: "approve", arguments: { ...meeting, agenda: "Numbers first" } });
    const row = await world.broker.services.store.db.selectFrom("approvals").select(["edited_changes", "edited_arguments_redacted"]).where("id", "=", pending.approval_id).executeTakeFirstOrThrow();
    expect(JSON.parse(row.edited_changes!)).toEqual([{ path: "/agenda", to: "Numbers first" }, { path: "/password", from: "[redacted]" }]);
    withoutPasscodes("the stored approval", JSON.stringify(row));
  });
});
