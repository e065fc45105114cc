/**
 * The Slack messages of an approval, in Block Kit: the request (tool, account, agent app, digest,
 * arguments, who is still needed, Approve and Deny buttons), a reminder, and the outcome that
 * replaces the request once decided. Everything shown comes from the approval's redacted arguments
 * and its binding, escaped so that nothing in them can mention a channel or forge a link.
 */
import type { ApprovalNotice } from "./approval-channel.js";

export const APPROVE_ACTION = "toolbroker_approval_approve";
export const DENY_ACTION = "toolbroker_approval_deny";

/** What a button carries back: the approval and the digest of the call the message shows. */
export type ButtonValue = { approval_id: string; digest: string };

export type SlackBlock = Record<string, unknown>;
export type SlackMessage = { text: string; blocks: SlackBlock[] };

/** Slack's limits: a header 150 characters, a section's text 3000, a field 2000, a dialog's title 100 and buttons 30. */
const HEADER_MAX = 150;
const ARGUMENTS_MAX = 2_800;

/** Slack's mrkdwn control characters, as Slack asks them escaped: `<` would open a mention or link. */
export const escapeMrkdwn = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

const mrkdwn = (text: string) => ({ type: "mrkdwn", text });
const plain = (text: string, max = HEADER_MAX) => ({ type: "plain_text", text: clip(text, max), emoji: false });

function argumentsText(notice: ApprovalNotice): string {
  const { approval } = notice;
  const shown = approval.edit ? approval.edit.argumentsRedacted : approval.argumentsRedacted;
  // A run of backticks inside would end the code block early; a zero-width space keeps it whole.
  const json = clip(JSON.stringify(shown, null, 2), ARGUMENTS_MAX).replaceAll("```", "`\u200b``");
  return `*${approval.edit ? "Arguments (edited by an approver)" : "Arguments"}*\n\`\`\`${escapeMrkdwn(json)}\`\`\``;
}

function callFields(notice: ApprovalNotice) {
  const { approval, binding } = notice;
  const account = binding.account ? `${escapeMrkdwn(binding.account.displayName)} (${binding.account.kind === "connection" ? "connected account" : "secret item"})` : "none";
  return {
    type: "section",
    fields: [
      mrkdwn(`*Tool*\n\`${escapeMrkdwn(approval.toolName)}\``),
      mrkdwn(`*Account*\n${account}`),
      mrkdwn(`*Agent app*\n${escapeMrkdwn(binding.agentApp.name)}`),
      mrkdwn(`*Env*\n${approval.env}${approval.endUserId ? `, end user \`${escapeMrkdwn(approval.endUserId)}\`` : ""}`),
      mrkdwn(`*Digest*\n\`${binding.digest}\``),
      mrkdwn(`*Expires*\n${approval.expiresAt}`),
    ],
  };
}

/** "<@U123>" for approvers Slack knows (their `<team>:<user>` id), their name otherwise. */
function waitingFor(notice: ApprovalNotice): string {
  const names = notice.approvers.map((member) => {
    const slackUser = member.slackUserId?.split(":")[1];
    if (slackUser && /^[UW][A-Z0-9]+$/.test(slackUser)) return `<@${slackUser}>`;
    return escapeMrkdwn(member.displayName ?? member.email ?? member.id);
  });
  return names.length ? `Waiting for: ${names.join(", ")}` : "Waiting for an approver";
}

function buttons(notice: ApprovalNotice): SlackBlock {
  const value = JSON.stringify({ approval_id: notice.approval.id, digest: notice.binding.digest } satisfies ButtonValue);
  return {
    type: "actions",
    block_id: `approval_${notice.approval.id}`,
    elements: [
      {
        type: "button",
        action_id: APPROVE_ACTION,
        text: plain("Approve"),
        style: "primary",
        value,
        confirm: {
          title: plain("Approve this call?"),
          // A confirmation dialog takes plain text only, at most 300 characters.
          text: plain(`${notice.approval.toolName} runs with the arguments shown (digest ${notice.binding.digest.slice(0, 19)}…).`, 300),
          confirm: plain("Approve"),
          deny: plain("Cancel"),
        },
      },
      { type: "button", action_id: DENY_ACTION, text: plain("Deny"), style: "danger", value },
    ],
  };
}

/** The request (or a reminder in its thread, `reminder` true): the call, who is needed, the buttons. */
export function requestMessage(notice: ApprovalNotice, reminder = false): SlackMessage {
  const { approval, binding } = notice;
  const title = `${reminder ? "Reminder: approval" : "Approval"} needed: ${approval.toolName}`;
  return {
    text: escapeMrkdwn(`${title} (agent app ${binding.agentApp.name}, expires ${approval.expiresAt})`),
    blocks: [
      { type: "header", text: plain(title) },
      callFields(notice),
      { type: "section", text: mrkdwn(argumentsText(notice)) },
      { type: "context", elements: [mrkdwn(`${waitingFor(notice)} · approval \`${approval.id}\``)] },
      buttons(notice),
    ],
  };
}

const OUTCOME_WORDS: Record<string, string> = { approved: "Approved", consumed: "Approved", denied: "Denied", expired: "Expired", pending: "Still pending" };

/** What replaces the request once decided: the same call, the outcome, and no buttons. */
export function outcomeMessage(notice: ApprovalNotice, status: string): SlackMessage {
  const { approval } = notice;
  const word = OUTCOME_WORDS[status] ?? status;
  const when = approval.decidedAt ? ` at ${approval.decidedAt}` : status === "expired" ? ` at ${approval.expiresAt}` : "";
  const reason = approval.reason ? ` · reason: ${escapeMrkdwn(clip(approval.reason, 500))}` : "";
  return {
    text: escapeMrkdwn(`${word}: ${approval.toolName}`),
    blocks: [
      { type: "header", text: plain(`${word}: ${approval.toolName}`) },
      callFields(notice),
      { type: "section", text: mrkdwn(argumentsText(notice)) },
      { type: "context", elements: [mrkdwn(`*${word}*${when}${reason} · approval \`${approval.id}\``)] },
    ],
  };
}
