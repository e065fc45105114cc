/**
 * Pages a person opens in a browser (the hosted connect pages, their errors): plain HTML, no
 * JavaScript, one stylesheet allowed by its hash.
 */
import { createHash } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";

const STYLE =
  "body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1f24}" +
  "h1{font-size:1.4rem}ul{list-style:none;padding:0}li{border:1px solid #d0d7de;border-radius:8px;padding:1rem;margin:.75rem 0}" +
  "a.button,button{display:inline-block;background:#1f6feb;color:#fff;border:0;border-radius:6px;padding:.5rem 1rem;text-decoration:none;font-size:1rem;cursor:pointer}" +
  "label{display:block;margin:.75rem 0 .25rem}input{width:100%;box-sizing:border-box;padding:.4rem;font-size:1rem}" +
  ".muted{color:#57606a;font-size:.9rem}.error{color:#cf222e}" +
  "pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border-radius:6px;padding:.75rem;font-size:.85rem}" +
  "h2{font-size:1.1rem}dt{font-weight:600;margin-top:.6rem}dd{margin:0;overflow-wrap:anywhere}button.deny{background:#cf222e}.actions button{margin:0 .5rem .5rem 0}";
const STYLE_HASH = `'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`;

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);

export function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/**
 * Sends a page with headers that keep the connect link private: no referrer (the link is the
 * session's capability), no caching, no framing, and forms that post only here. Browsers check
 * `form-action` on the redirect that follows a post too, so `formTargets` names the origins a post
 * may lead to (the provider's authorize page, the application's redirect URL).
 */
export function sendPage(reply: FastifyReply, status: number, html: string, formTargets: readonly string[] = []) {
  const formAction = ["'self'", ...new Set(formTargets)].join(" ");
  return reply
    .code(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .header("x-frame-options", "DENY")
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", `default-src 'none'; style-src ${STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`)
    .send(html);
}

export function connectedPage(what: string, backUrl?: string): string {
  const back = backUrl ? `<p><a href="${escapeHtml(backUrl)}">Connect another account</a></p>` : "";
  return page("Connected", `<h1>Connected</h1><p>${escapeHtml(what)} is connected. You can close this window.</p>${back}`);
}

export function errorPage(status: number, message: string): string {
  return page("Something went wrong", `<h1>Something went wrong</h1><p class="error">${escapeHtml(message)}</p><p class="muted">Error ${status}.</p>`);
}

/** A browser asks for HTML first; API clients and tools send JSON or nothing. */
export const wantsHtml = (request: FastifyRequest) =>
  request.routeOptions.config?.htmlErrors === true && (request.headers.accept ?? "").includes("text/html");
