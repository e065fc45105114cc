/** A small HTTP client for tests that records every response body for secret searches. */
import type { TestBroker, TestTenant } from "./broker.js";

export type CallOptions = {
  token?: string;
  tenant?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
};

export type CallResult<T = any> = { status: number; headers: Headers; body: T; text: string };

export async function call<T = any>(broker: TestBroker, method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.tenant) headers["x-broker-tenant-id"] = options.tenant;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await fetch(`${broker.url}${path}`, { method, headers, body, redirect: "manual" });
  const text = await response.text();
  broker.responses.push(text);
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // leave as text
  }
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}

/** Shorthand for an operator call in a tenant. */
export const asOperator = (tenant: TestTenant) => ({ token: tenant.operatorToken, tenant: tenant.tenantId });

export async function mintBrokerToken(broker: TestBroker, tenant: TestTenant, env: "test" | "live" = "test"): Promise<string> {
  const key = env === "test" ? tenant.testKey : tenant.liveKey;
  const result = await call(broker, "POST", "/v1/broker/token", { token: key, body: { agent_app_id: tenant.agentAppId, env } });
  if (result.status !== 200) throw new Error(`mint failed: ${result.status} ${result.text}`);
  return result.body.access_token as string;
}

/** Fails with the places a secret shows up in responses or logs. */
export function findSecret(broker: TestBroker, secret: string): string[] {
  return [...broker.responses, ...broker.logs].filter((line) => line.includes(secret)).map((line) => line.slice(0, 200));
}
