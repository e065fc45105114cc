/**
 * Pages a person opens in a browser (the hosted connect pages, their errors): plain HTML, one
 * stylesheet allowed by its hash, no inline script. A page may name external scripts the broker
 * serves itself (the connect page's local-time script), each allowed by its exact URL.
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
  "h2{font-size:1.1rem}dt{font-weight:600;margin-top:.6rem}dd{margin:0;overflow-wrap:anywhere}button.deny{background:#cf222e}.actions button{margin:0 .5rem .5rem 0}" +
  // The connect page: the tenant's brand, each provider with its icon and the scopes it asks for.
  ".brand{display:flex;align-items:center;gap:.75rem;margin-bottom:1.5rem}.brand img{max-height:48px;max-width:160px;object-fit:contain}" +
  ".brand-name{font-weight:600;font-size:1.1rem;overflow-wrap:anywhere}.badge{display:inline-flex;align-items:center;justify-content:center;flex:none;" +
  "width:40px;height:40px;border-radius:8px;background:#57606a;color:#fff;font-weight:700;font-size:1.2rem}.badge.small{width:32px;height:32px;font-size:1rem}" +
  ".provider{display:flex;align-items:center;gap:.6rem;font-size:1.05rem}.provider img{width:32px;height:32px;border-radius:6px;flex:none}" +
  "ul.scopes{list-style:disc;padding-left:1.25rem;margin:.25rem 0 .75rem}ul.scopes li{border:0;padding:0;margin:.3rem 0;overflow-wrap:anywhere}" +
  "code{font-size:.8rem;background:#f6f8fa;border-radius:4px;padding:0 .25rem;overflow-wrap:anywhere}h1{overflow-wrap:anywhere}p{overflow-wrap:anywhere}";
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
export function sendPage(reply: FastifyReply, status: number, html: string, formTargets: readonly string[] = [], extras: PageExtras = {}) {
  const formAction = ["'self'", ...new Set(formTargets)].join(" ");
  // data: images only (the tenant's logo, the providers' icons, inside the page): the browser fetches no image from anywhere.
  const images = extras.dataImages ? "; img-src data:" : "";
  const scripts = extras.scripts?.length ? `; script-src ${extras.scripts.join(" ")}` : "";
  return reply
    .code(status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .header("x-frame-options", "DENY")
    .header("x-content-type-options", "nosniff")
    .header("content-security-policy", `default-src 'none'; style-src ${STYLE_HASH}${images}${scripts}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`)
    .send(html);
}

export function connectedPage(what: string, backUrl?: string): string {
  const back = backUrl ? `<p><a href="${escapeHtml(backUrl)}">Connect another account</a></p>` : "";
  return page("Connected", `<h1>Connected</h1><p>${escapeHtml(what)} is connected. You can close this window.</p>${back}`);
}

/** What a page may load besides its stylesheet. */
export type PageExtras = { dataImages?: boolean; scripts?: readonly string[] };

/** An error a page explains in its own words: a heading and what to do (HTML, escaped by the explainer). */
export type ExplainedError = { title: string; body: string };
/** A route's own words for some of its errors (route config `htmlErrors`); undefined: the plain error page. */
export type HtmlErrorExplainer = (error: { status: number; code: string; message: string }) => ExplainedError | undefined;

export function errorPage(status: number, message: string, explained?: ExplainedError): string {
  if (explained) return page(explained.title, `<h1>${escapeHtml(explained.title)}</h1>${explained.body}<p class="muted">Error ${status}.</p>`);
  return page("Something went wrong", `<h1>Something went wrong</h1><p class="error">${escapeHtml(message)}</p><p class="muted">Error ${status}.</p>`);
}

/** A browser asks for HTML first; API clients and tools send JSON or nothing. */
export const wantsHtml = (request: FastifyRequest) => {
  const htmlErrors = request.routeOptions.config?.htmlErrors;
  return (htmlErrors === true || typeof htmlErrors === "function") && (request.headers.accept ?? "").includes("text/html");
};

/** The page for an error on a browser route: the route's own words when it has some for this error. */
export function errorPageFor(request: FastifyRequest, status: number, code: string, message: string): string {
  const htmlErrors = request.routeOptions.config?.htmlErrors;
  return errorPage(status, message, typeof htmlErrors === "function" ? htmlErrors({ status, code, message }) : undefined);
}
