/** The hosted connect pages. Every value is escaped; no page holds a token of the tenant or of a provider. */
import { escapeHtml, page } from "../http/html-page.js";
import { PAGE_TOKEN_FIELD } from "./connect-page-guard.js";
import type { ConnectOption } from "./connect-session-service.js";

/** Form fields of the values a provider asks for: `value_<name>`. */
export const VALUE_FIELD_PREFIX = "value_";

/** One text field per value the provider asks for (a Zendesk subdomain), in both of its forms. */
function inputFields(option: ConnectOption, form: "oauth" | "key"): string {
  return option.inputs
    .map((input) => {
      const id = escapeHtml(`${form}-${option.id}-${input.name}`);
      const hint = input.description ? `<span class="muted">${escapeHtml(input.description)}</span>` : "";
      return (
        `<label for="${id}">${escapeHtml(input.label)}</label>${hint}` +
        `<input id="${id}" name="${escapeHtml(`${VALUE_FIELD_PREFIX}${input.name}`)}" type="text" required maxlength="63" autocomplete="off" autocapitalize="none" spellcheck="false">`
      );
    })
    .join("");
}

/** The page's proof that a post comes from it (see connect-page-guard.ts). */
const tokenField = (pageToken: string) => `<input type="hidden" name="${PAGE_TOKEN_FIELD}" value="${escapeHtml(pageToken)}">`;

function optionItem(connectUrl: string, pageToken: string, option: ConnectOption): string {
  const name = escapeHtml(option.displayName);
  const providerUrl = `${connectUrl}/${encodeURIComponent(option.id)}`;
  // Starting a flow is a form post, never a link: a navigation from elsewhere must not start one.
  const oauth = option.oauth
    ? `<form method="post" action="${escapeHtml(providerUrl)}">${tokenField(pageToken)}${inputFields(option, "oauth")}<p><button type="submit">Connect ${name}</button></p></form>`
    : "";
  const apiKey = option.apiKey
    ? `<form method="post" action="${escapeHtml(`${providerUrl}/api-key`)}">${tokenField(pageToken)}${inputFields(option, "key")}` +
      `<label for="key-${escapeHtml(option.id)}">${option.oauth ? "Or paste" : "Paste"} a ${name} API key</label>` +
      `<input id="key-${escapeHtml(option.id)}" name="api_key" type="password" autocomplete="off" required maxlength="4096">` +
      `<p><button type="submit">Save ${name} key</button></p></form>`
    : "";
  return `<li><strong>${name}</strong>${oauth}${apiKey}</li>`;
}

export function choosePage(connectUrl: string, pageToken: string, options: ConnectOption[], expiresAt: string): string {
  return page(
    "Connect your accounts",
    `<h1>Connect your accounts</h1><p>Choose an account to connect. You can connect more than one.</p>` +
      `<ul>${options.map((option) => optionItem(connectUrl, pageToken, option)).join("")}</ul>` +
      `<p class="muted">This link works until ${escapeHtml(expiresAt)} (UTC).</p>`,
  );
}

/** What a plain visit to a provider's start address sees: connecting starts from the page, with a press. */
export function startFromPage(connectUrl: string, option: ConnectOption): string {
  const name = escapeHtml(option.displayName);
  return page(
    `Connect ${option.displayName}`,
    `<h1>Connect ${name}</h1><p>Connecting an account starts on the connect page, with its button.</p>` +
      `<p><a class="button" href="${escapeHtml(connectUrl)}">Open the connect page</a></p>`,
  );
}
