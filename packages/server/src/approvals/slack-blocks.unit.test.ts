import { describe, expect, it } from "vitest";
import { DEFAULT_REQUIREMENT, type Approval } from "./approval.js";
import type { ApprovalNotice } from "./approval-channel.js";
import { APPROVE_ACTION, DENY_ACTION, escapeMrkdwn, outcomeMessage, requestMessage } from "./slack-blocks.js";

const approval: Approval = {
  id: "6f1c2a8e-3b7d-4e5f-9a0b-1c2d3e4f5a6b",
  tenantId: "t",
  env: "test",
  agentAppId: "a",
  invocationId: "i",
  toolName: "chat.post_message",
  provider: "chat",
  connectionId: "c",
  secretItemId: null,
  argumentsFingerprint: "f",
  argumentsRedacted: { channel: "#general", text: "<!channel> ship it & <https://evil.example|click>" },
  status: "pending",
  ruleId: "r",
  reason: null,
  decidedBy: null,
  decidedAt: null,
  consumedAt: null,
  requestedAt: "2026-11-29T12:00:00.000Z",
  expiresAt: "2026-11-30T12:00:00.000Z",
  endUserId: null,
  requirement: DEFAULT_REQUIREMENT,
  edit: null,
  remindedAt: null,
  expiryAnnouncedAt: null,
};

const notice = (overrides: Partial<Approval> = {}): ApprovalNotice => ({
  purpose: "request",
  approval: { ...approval, ...overrides },
  binding: { digest: `sha256:${"ab".repeat(32)}`, requestedDigest: `sha256:${"ab".repeat(32)}`, account: { id: "c", kind: "connection", displayName: "Acme <Slack>" }, agentApp: { id: "a", name: "Support bot" } },
  approvers: [
    { id: "m1", role: "admin", groups: [], email: null, displayName: "Ann", slackUserId: "T1:U0ANN" },
    { id: "m2", role: "admin", groups: [], email: "bo@example.com", displayName: null, slackUserId: null },
  ],
  progress: null,
});

const textOf = (message: { blocks: unknown[] }) => JSON.stringify(message.blocks);

describe("the Slack approval messages", () => {
  it("escape every value they show, so arguments can neither mention a channel nor make a link", () => {
    const text = textOf(requestMessage(notice()));
    expect(text).not.toContain("<!channel>");
    expect(text).not.toContain("<https://");
    expect(text).toContain("&lt;!channel&gt; ship it &amp; &lt;https://evil.example|click&gt;");
    expect(text).toContain("Acme &lt;Slack&gt;");
    expect(escapeMrkdwn("a<b>&c")).toBe("a&lt;b&gt;&amp;c");
  });

  it("mention approvers Slack knows and name the others", () => {
    const text = textOf(requestMessage(notice()));
    expect(text).toContain("Waiting for: <@U0ANN>, bo@example.com");
  });

  it("carry the approval and the digest shown on both buttons", () => {
    const actions = requestMessage(notice()).blocks.find((block) => block.type === "actions") as { elements: { action_id: string; value: string }[] };
    expect(actions.elements.map((button) => button.action_id)).toEqual([APPROVE_ACTION, DENY_ACTION]);
    for (const button of actions.elements) expect(JSON.parse(button.value)).toEqual({ approval_id: approval.id, digest: `sha256:${"ab".repeat(32)}` });
  });

  it("show the edited arguments when an approver edited the call", () => {
    const edit = { argumentsSealed: "x", argumentsRedacted: { channel: "#ops", text: "fixed" }, argumentsFingerprint: "g", changes: [{ path: "/text", from: "ship it", to: "fixed" }], editedBy: "member:m1", editedAt: approval.requestedAt };
    const text = textOf(requestMessage(notice({ edit })));
    expect(text).toContain("edited by an approver");
    expect(text).toContain("#ops");
    expect(text).not.toContain("ship it");
  });

  it("keep long arguments within Slack's section limit", () => {
    const long = requestMessage(notice({ argumentsRedacted: { text: "x".repeat(10_000) } }));
    const section = long.blocks[2] as { text: { text: string } };
    expect(section.text.text.length).toBeLessThan(3000);
  });

  it("say the outcome without buttons once decided", () => {
    const outcome = outcomeMessage(notice({ status: "denied", decidedAt: "2026-11-29T12:05:00.000Z", reason: "not <now>" }), "denied");
    expect(outcome.blocks.some((block) => block.type === "actions")).toBe(false);
    expect(outcome.text).toContain("Denied");
    expect(textOf(outcome)).toContain("reason: not &lt;now&gt;");
  });
});
