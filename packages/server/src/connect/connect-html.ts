/** The hosted connect pages. Every value is escaped; no page holds a token of the tenant or of a provider. */
import { escapeHtml, page } from "../http/html-page.js";
import type { ConnectOption } from "./connect-session-service.js";

function optionItem(connectUrl: string, option: ConnectOption): string {
  const name = escapeHtml(option.displayName);
  const oauth = option.oauth ? `<p><a class="button" href="${escapeHtml(`${connectUrl}/${encodeURIComponent(option.id)}`)}">Connect ${name}</a></p>` : "";
  const apiKey = option.apiKey
    ? `<form method="post" action="${escapeHtml(`${connectUrl}/${encodeURIComponent(option.id)}/api-key`)}">` +
      `<label for="key-${escapeHtml(option.id)}">${option.oauth ? "Or paste" : "Paste"} a ${name} API key</label>` +
      `<input id="key-${escapeHtml(option.id)}" name="api_key" type="password" autocomplete="off" required maxlength="4096">` +
      `<p><button type="submit">Save ${name} key</button></p></form>`
    : "";
  return `<li><strong>${name}</strong>${oauth}${apiKey}</li>`;
}

export function choosePage(connectUrl: string, options: ConnectOption[], expiresAt: string): string {
  return page(
    "Connect your accounts",
    `<h1>Connect your accounts</h1><p>Choose an account to connect. You can connect more than one.</p>` +
      `<ul>${options.map((option) => optionItem(connectUrl, option)).join("")}</ul>` +
      `<p class="muted">This link works until ${escapeHtml(expiresAt)} (UTC).</p>`,
  );
}
