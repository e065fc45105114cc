/**
 * The hosted connect pages. Every value is escaped; no page holds a token of the tenant or of a
 * provider. Images are data: URLs inside the page (the tenant's logo as the broker stores it, the
 * providers' catalogue icons), so the end user's browser fetches nothing from anywhere else.
 */
import { escapeHtml, page, type ExplainedError, type HtmlErrorExplainer } from "../http/html-page.js";
import { PAGE_TOKEN_FIELD } from "./connect-page-guard.js";
import { CONNECT_SESSION_TTL_MS, type ConnectOption } from "./connect-session-service.js";

/** Form fields of the values a provider asks for: `value_<name>`. */
export const VALUE_FIELD_PREFIX = "value_";

/** The tenant's name and logo on its end users' pages (the tenants domain keeps them). */
export type PageBranding = { name: string; logo: { contentType: string; base64: string } | null };

/** Where the page's one script lives: it shows the expiry in the reader's own time zone. */
export const LOCAL_TIME_SCRIPT_PATH = "/connect-assets/local-time.js";

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

/** The first letter of a name, for a badge where there is no image. */
const initialOf = (name: string) => (Array.from(name.trim())[0] ?? "?").toUpperCase();
const badge = (name: string, size: "" | "small" = "") => `<span class="badge${size ? ` ${size}` : ""}" aria-hidden="true">${escapeHtml(initialOf(name))}</span>`;

function brandHeader(branding: PageBranding): string {
  const mark = branding.logo
    ? `<img src="data:${escapeHtml(branding.logo.contentType)};base64,${escapeHtml(branding.logo.base64)}" alt="${escapeHtml(branding.name)} logo">`
    : badge(branding.name);
  return `<header class="brand">${mark}<span class="brand-name">${escapeHtml(branding.name)}</span></header>`;
}

/** What connecting lets the application do: the OAuth scopes in plain words, or what a key means. */
function permissions(option: ConnectOption, tenantName: string): string {
  const who = escapeHtml(tenantName);
  if (option.scopes.length === 0) {
    return option.apiKey ? `<p class="muted">${who} will act as you with what the key allows.</p>` : "";
  }
  const items = option.scopes.map(({ scope, words }) => (words ? `<li>${escapeHtml(words)} <code>${escapeHtml(scope)}</code></li>` : `<li><code>${escapeHtml(scope)}</code></li>`));
  return `<p class="muted">${who} will be able to:</p><ul class="scopes">${items.join("")}</ul>`;
}

function optionItem(connectUrl: string, pageToken: string, option: ConnectOption, tenantName: string): string {
  const name = escapeHtml(option.displayName);
  const providerUrl = `${connectUrl}/${encodeURIComponent(option.id)}`;
  const icon = option.icon ? `<img src="${escapeHtml(option.icon)}" alt="">` : badge(option.displayName, "small");
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
  return `<li><div class="provider">${icon}<strong>${name}</strong></div>${permissions(option, tenantName)}${oauth}${apiKey}</li>`;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "2 December 2026, 02:40 UTC": what a reader without the script sees (the script shows their own time). */
export function utcReadable(iso: string): string {
  const at = new Date(iso);
  const hhmm = `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}, ${hhmm} UTC`;
}

/** "in 30 minutes", from the server's clock at render time (the script keeps it current). */
export function timeLeft(iso: string, now: Date): string {
  const minutes = Math.max(0, Math.round((new Date(iso).getTime() - now.getTime()) / 60_000));
  if (minutes < 1) return "in less than a minute";
  return minutes === 1 ? "in 1 minute" : `in ${minutes} minutes`;
}

export type ChoosePageInput = { connectUrl: string; pageToken: string; options: ConnectOption[]; expiresAt: string; now: Date; branding: PageBranding; scriptUrl: string };

export function choosePage({ connectUrl, pageToken, options, expiresAt, now, branding, scriptUrl }: ChoosePageInput): string {
  const tenant = escapeHtml(branding.name);
  const expiry =
    `<p class="muted">This link works until <time datetime="${escapeHtml(expiresAt)}" data-local-time>${escapeHtml(utcReadable(expiresAt))}</time> ` +
    `(<span data-time-left="${escapeHtml(expiresAt)}">${escapeHtml(timeLeft(expiresAt, now))}</span>). After that, ask ${tenant} for a new link.</p>`;
  return page(
    `Connect your accounts to ${branding.name}`,
    brandHeader(branding) +
      `<h1>Connect your accounts to ${tenant}</h1>` +
      `<p>${tenant} asks you to connect ${options.length === 1 ? "an account" : "accounts"} below. You can connect more than one of each.</p>` +
      `<ul>${options.map((option) => optionItem(connectUrl, pageToken, option, branding.name)).join("")}</ul>` +
      expiry +
      `<script src="${escapeHtml(scriptUrl)}" defer></script>`,
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

const ASK_AGAIN = "<p>Ask the app that sent you here for a new link, and open that one.</p>";

/**
 * The connect routes' errors in words an end user can act on: which it is (unknown, expired, not
 * from the page) and what to do. Every other error keeps the plain error page with its message.
 */
export const explainConnectError: HtmlErrorExplainer = ({ code, message }): ExplainedError | undefined => {
  if (code === "not_found") {
    return {
      title: "This connect link is not valid",
      body: "<p>The link may be incomplete (check that it was copied whole), or it was cancelled by the app that made it.</p>" + ASK_AGAIN,
    };
  }
  if (code === "connect_session_expired") {
    return { title: "This connect link has expired", body: `<p>Connect links work for ${CONNECT_SESSION_TTL_MS / 60_000} minutes after the app makes them, so that an old link someone else finds connects nothing.</p>` + ASK_AGAIN };
  }
  if (code === "forbidden") return { title: "This request was refused", body: `<p class="error">${escapeHtml(message)}.</p>` };
  return undefined;
};
