/** Drives the browser side of the OAuth connect flow against a fake provider. */
import type { TestBroker, TestTenant } from "./broker.js";
import { completeAuthorization } from "./fake-upstreams/index.js";
import { asOperator, call, type CallResult } from "./http.js";

export type ConnectOptions = {
  env?: "test" | "live";
  scopes?: string[];
  redirect_after?: string;
  /** The provider's typed-in connection values (a Zendesk subdomain). */
  connection_values?: Record<string, string>;
  operator?: { token: string; tenant: string };
};

/** start → provider authorize (auto-approves) → broker callback; returns the callback's response. */
export async function connectThroughBrowser(broker: TestBroker, tenant: TestTenant, provider: string, options: ConnectOptions = {}) {
  const { operator, ...body } = options;
  const start = await call(broker, "POST", "/v1/connections/oauth/start", { ...(operator ?? asOperator(tenant)), body: { provider, ...body } });
  if (start.status !== 200) throw new Error(`oauth/start failed: ${start.status} ${start.text}`);
  const authorization = await completeAuthorization(start.body.authorize_url);
  if (!authorization.location) throw new Error(`authorize did not redirect (${authorization.status})`);
  const callbackPath = `${authorization.location.pathname}${authorization.location.search}`;
  const callback = await call(broker, "GET", callbackPath);
  return { start, authorization, callback, callbackPath };
}

export async function connectAccount(broker: TestBroker, tenant: TestTenant, provider: string, options: ConnectOptions = {}): Promise<string> {
  const { callback } = await connectThroughBrowser(broker, tenant, provider, options);
  if (callback.status !== 200) throw new Error(`callback failed: ${callback.status} ${callback.text}`);
  return (callback as CallResult<{ connected_account_id: string }>).body.connected_account_id;
}

const HTML = { accept: "text/html,application/xhtml+xml" };
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;
const firstPair = (setCookie: string | null) => setCookie?.split(";")[0] ?? "";

/** What a browser holds after opening a hosted connect page: the page's cookie and its forms' hidden token. */
export type ConnectPageView = { cookie: string; pageToken: string; html: string };

export async function openConnectPage(broker: TestBroker, connectUrl: string, cookie?: string): Promise<ConnectPageView> {
  const page = await call(broker, "GET", pathOf(connectUrl), { headers: { ...HTML, ...(cookie ? { cookie } : {}) } });
  if (page.status !== 200) throw new Error(`connect page: ${page.status} ${page.text.slice(0, 200)}`);
  const pageToken = /name="page_token" value="([^"]+)"/.exec(page.text)?.[1];
  if (!pageToken) throw new Error("the connect page has no page_token field");
  return { cookie: firstPair(page.headers.get("set-cookie")), pageToken, html: page.text };
}

/** Posts one of the page's forms as the browser that opened it would (same origin, its cookie, its token). */
export function postConnectForm(broker: TestBroker, view: ConnectPageView, actionPath: string, fields: Record<string, string> = {}, headers: Record<string, string> = {}) {
  return call(broker, "POST", actionPath, {
    rawBody: new URLSearchParams({ page_token: view.pageToken, ...fields }).toString(),
    headers: { ...HTML, "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin", cookie: view.cookie, ...headers },
  });
}

/**
 * An end user on the hosted page presses a provider's button: the broker answers 303 to the
 * provider and binds the flow to this browser (a cookie); the fake provider approves. Returns the
 * callback path and the browser's cookies for it.
 */
export async function startOnConnectPage(broker: TestBroker, connectUrl: string, provider: string) {
  const view = await openConnectPage(broker, connectUrl);
  const start = await postConnectForm(broker, view, `${pathOf(connectUrl)}/${provider}`);
  if (start.status !== 303) throw new Error(`connect start: ${start.status} ${start.text.slice(0, 200)}`);
  const authorization = await completeAuthorization(start.headers.get("location")!);
  if (!authorization.location) throw new Error(`authorize did not redirect (${authorization.status})`);
  return { callbackPath: pathOf(authorization.location.toString()), cookie: firstPair(start.headers.get("set-cookie")) };
}

/** The whole hosted-page connect as one browser: page, button, provider, callback. Returns the callback's answer. */
export async function connectOnHostedPage(broker: TestBroker, connectUrl: string, provider: string): Promise<CallResult> {
  const { callbackPath, cookie } = await startOnConnectPage(broker, connectUrl, provider);
  return call(broker, "GET", callbackPath, { headers: { ...HTML, cookie } });
}
