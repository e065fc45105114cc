/**
 * The text of an approval email: what the call is (tool, account by display name, agent app,
 * digest, redacted arguments) and, for a request or a reminder, the approver's own Approve and Deny
 * links, each opening a confirmation page. Plain text and HTML say the same; every value in the
 * HTML is escaped. The links are the only credentials in it, and they are the recipient's own.
 */
import { escapeHtml } from "../http/html-page.js";
import type { ApprovalNotice } from "./approval-channel.js";

export type EmailLinks = { approve: string; deny: string; expiresAt: string };
export type ApprovalEmail = { subject: string; text: string; html: string };

const OUTCOME_WORDS: Record<string, string> = { approved: "Approved", consumed: "Approved", denied: "Denied", expired: "Expired", pending: "Still waiting" };

function subjectOf({ purpose, approval, binding }: ApprovalNotice): string {
  const what = `${approval.toolName}${binding.account ? ` on ${binding.account.displayName}` : ""}`;
  if (purpose === "request") return `Approval needed: ${what}`;
  if (purpose === "reminder") return `Reminder: approval needed before ${approval.expiresAt}: ${what}`;
  return `${OUTCOME_WORDS[approval.status] ?? approval.status}: ${what}`;
}

function facts({ approval, binding }: ApprovalNotice): [string, string][] {
  return [
    ["Action", approval.toolName],
    ["Account", binding.account?.displayName ?? "none"],
    ["Requested by", binding.agentApp.name],
    ["Env", approval.env],
    ["Expires", `${approval.expiresAt} (UTC)`],
    ["Digest", binding.digest],
  ];
}

function leadOf(notice: ApprovalNotice): string {
  if (notice.purpose === "outcome") {
    const decided = notice.approval.decidedBy ? ` by ${notice.approval.decidedBy}` : "";
    return `This request is ${(OUTCOME_WORDS[notice.approval.status] ?? notice.approval.status).toLowerCase()}${notice.approval.status === "expired" ? "" : decided}. Nothing more is needed from you.`;
  }
  const reminder = notice.purpose === "reminder" ? "Reminder: this request still waits and expires soon. " : "";
  return `${reminder}An agent asks to run the action below. Nothing runs unless it is approved.`;
}

const argumentsOf = ({ approval }: ApprovalNotice) => JSON.stringify(approval.edit ? approval.edit.argumentsRedacted : approval.argumentsRedacted, null, 2);

export function approvalEmail(notice: ApprovalNotice, links: EmailLinks | null, consoleUrl: string): ApprovalEmail {
  const lead = leadOf(notice);
  const edited = notice.approval.edit ? "An approver edited these arguments; this is the call that runs if it is approved.\n" : "";
  const choose = links
    ? `Approve: ${links.approve}\nDeny: ${links.deny}\n\nEach link opens a page where you confirm; nothing is decided by opening it. ` +
      `The links are yours alone, work once, and expire at ${links.expiresAt} (UTC).\n`
    : "";
  const text =
    `${lead}\n\n${facts(notice).map(([name, value]) => `${name}: ${value}`).join("\n")}\n\nArguments (credential-like fields hidden):\n${edited}${argumentsOf(notice)}\n\n` +
    `${choose}Open it in the console: ${consoleUrl}\n`;

  const buttons = links
    ? `<p><a href="${escapeHtml(links.approve)}" style="background:#1f6feb;color:#fff;padding:8px 16px;border-radius:6px;text-decoration:none">Approve…</a> ` +
      `<a href="${escapeHtml(links.deny)}" style="background:#cf222e;color:#fff;padding:8px 16px;border-radius:6px;text-decoration:none">Deny…</a></p>` +
      `<p style="color:#57606a">Each link opens a page where you confirm; nothing is decided by opening it. The links are yours alone, work once, and expire at ${escapeHtml(links.expiresAt)} (UTC).</p>`
    : "";
  const rows = facts(notice).map(([name, value]) => `<tr><th align="left">${escapeHtml(name)}</th><td>${escapeHtml(value)}</td></tr>`).join("");
  const html =
    `<p>${escapeHtml(lead)}</p><table>${rows}</table><p>Arguments (credential-like fields hidden):</p>` +
    (edited ? `<p>${escapeHtml(edited)}</p>` : "") +
    `<pre style="white-space:pre-wrap">${escapeHtml(argumentsOf(notice))}</pre>${buttons}<p><a href="${escapeHtml(consoleUrl)}">Open it in the console</a></p>`;
  return { subject: subjectOf(notice), text, html };
}
