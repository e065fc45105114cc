/**
 * The pages a signed approval link opens: what the call is (tool, account by its display name,
 * agent app, digest, arguments with credential-like fields redacted) and the buttons that decide.
 * Every value is escaped; nothing on a page is a credential but the link itself, in the form's action.
 */
import { escapeHtml, page } from "../http/html-page.js";
import type { LinkView } from "./approval-page-service.js";

/** The hidden field that proves a post comes from this browser's view of the page (the page guard). */
export const APPROVAL_PAGE_TOKEN_FIELD = "page_token";
/** The hidden field naming the version of the call the page showed: the decision counts for that version only. */
export const APPROVAL_PAGE_DIGEST_FIELD = "digest";

function details({ approval, binding }: LinkView): string {
  const account = binding.account ? escapeHtml(binding.account.displayName) : "none";
  const shownArguments = approval.edit ? approval.edit.argumentsRedacted : approval.argumentsRedacted;
  const edited = approval.edit ? `<p class="muted">An approver edited these arguments; this is the call that runs if it is approved.</p>` : "";
  return (
    `<dl>` +
    `<dt>Action</dt><dd><code>${escapeHtml(approval.toolName)}</code></dd>` +
    `<dt>Account</dt><dd>${account}</dd>` +
    `<dt>Requested by</dt><dd>${escapeHtml(binding.agentApp.name)}</dd>` +
    `<dt>Expires</dt><dd>${escapeHtml(approval.expiresAt)} (UTC)</dd>` +
    `<dt>Digest</dt><dd><code>${escapeHtml(binding.digest)}</code></dd>` +
    `</dl><h2>Arguments</h2>${edited}<pre>${escapeHtml(JSON.stringify(shownArguments, null, 2))}</pre>` +
    `<p class="muted">Fields that look like credentials are hidden. The digest is the fingerprint of this exact call: it is what runs if you approve.</p>`
  );
}

const STATUS_WORDS: Record<string, string> = { approved: "approved", consumed: "approved and run", denied: "denied", expired: "expired" };

/** Why there is nothing to press: the approval is no longer waiting, or this link already decided. */
function closedNote(view: LinkView): string | undefined {
  if (view.approval.status !== "pending") return `This request was already ${STATUS_WORDS[view.approval.status] ?? view.approval.status}. There is nothing left to do.`;
  if (view.used) return "This link was already used. Each link decides once.";
  return undefined;
}

function form(view: LinkView, actionUrl: string, pageToken: string): string {
  const token =
    `<input type="hidden" name="${APPROVAL_PAGE_TOKEN_FIELD}" value="${escapeHtml(pageToken)}">` +
    `<input type="hidden" name="${APPROVAL_PAGE_DIGEST_FIELD}" value="${escapeHtml(view.binding.digest)}">`;
  const { kind } = view.claims;
  const buttons =
    kind === "end_user"
      ? `<button type="submit" name="decision" value="approve">Approve</button><button type="submit" class="deny" name="decision" value="deny">Deny</button>`
      : `<button type="submit" name="decision" value="${kind}"${kind === "deny" ? ` class="deny"` : ""}>Confirm: ${kind === "approve" ? "Approve" : "Deny"}</button>`;
  return `<form method="post" action="${escapeHtml(actionUrl)}" class="actions">${token}${buttons}</form>`;
}

/** The page a link opens (GET): the call, and the buttons when it can still be decided through this link. */
export function approvalPage(view: LinkView, actionUrl: string, pageToken: string): string {
  const { kind } = view.claims;
  const title = kind === "end_user" ? "Approve this action?" : kind === "approve" ? "Confirm your approval" : "Confirm your denial";
  const lead =
    kind === "end_user"
      ? `<p>An application wants to act on your account. Nothing happens unless you approve.</p>`
      : `<p>Nothing is decided until you press the button below.</p>`;
  const closed = closedNote(view);
  const action = closed ? `<p class="error">${escapeHtml(closed)}</p>` : form(view, actionUrl, pageToken);
  return page(title, `<h1>${escapeHtml(title)}</h1>${lead}${details(view)}${action}`);
}

/** After a press: what was decided, and whether more approvers are still needed. */
export function decidedPage(view: LinkView, decision: "approve" | "deny"): string {
  const { status } = view.approval;
  const heading = decision === "approve" ? "Approved" : "Denied";
  const outcome =
    status === "pending"
      ? "Your approval is recorded. The request still waits for other approvers."
      : decision === "approve"
        ? "The request is approved: the application may now run it."
        : "The request is denied: it will not run.";
  return page(heading, `<h1>${heading}</h1><p>${escapeHtml(outcome)} You can close this window.</p>${details(view)}`);
}
