/** A browser on the hosted approval page (`/approve/{token}`): what it holds after opening it, and its form's post. */
import type { TestBroker } from "./broker.js";
import { call, type CallResult } from "./http.js";

const HTML = { accept: "text/html,application/xhtml+xml" };
export const pathOf = (url: string) => new URL(url).pathname;

/** `digest` is the form's hidden field naming the version of the call the page showed ("" without a form). */
export type ApprovalPageView = { cookie: string; pageToken: string; digest: string; page: CallResult };

/** Opens the page as a browser does; `pageToken` is empty when the page has no form (nothing left to decide). */
export async function openApprovalPage(broker: TestBroker, url: string, cookie?: string): Promise<ApprovalPageView> {
  const page = await call(broker, "GET", pathOf(url), { headers: { ...HTML, ...(cookie ? { cookie } : {}) } });
  const pageToken = /name="page_token" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
  const digest = /name="digest" value="([^"]+)"/.exec(page.text)?.[1] ?? "";
  return { cookie: cookie ?? page.headers.get("set-cookie")?.split(";")[0] ?? "", pageToken, digest, page };
}

/** Presses a button of the page's form, as the browser that opened it (same origin, its cookie, its token, the digest it showed). */
export function pressOnApprovalPage(broker: TestBroker, view: ApprovalPageView, url: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
  return call(broker, "POST", pathOf(url), {
    rawBody: new URLSearchParams({ page_token: view.pageToken, ...(view.digest ? { digest: view.digest } : {}), ...fields }).toString(),
    headers: { ...HTML, "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin", cookie: view.cookie, ...headers },
  });
}

/** The same link with one character of its signature changed (not the last, whose low bits are padding). */
export function tampered(url: string): string {
  const at = url.length - 10;
  return `${url.slice(0, at)}${url[at] === "A" ? "B" : "A"}${url.slice(at + 1)}`;
}
