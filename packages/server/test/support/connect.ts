/** Drives the browser side of the OAuth connect flow against a fake provider. */
import type { TestBroker, TestTenant } from "./broker.js";
import { completeAuthorization } from "./fake-upstreams/index.js";
import { asOperator, call, type CallResult } from "./http.js";

export type ConnectOptions = { env?: "test" | "live"; scopes?: string[]; redirect_after?: string; operator?: { token: string; tenant: string } };

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
