/** Helpers for the webhooks suites: emitting outbox events, registering endpoints, a production-mode broker. */
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Clock } from "../../src/clock.js";
import type { EventType } from "../../src/events/event-outbox.js";
import type { HostResolver, ResolvedAddress } from "../../src/shared/url-safety.js";
import { startBroker, type TestBroker, type TestTenant } from "./broker.js";
import type { DbKind } from "./databases.js";
import { asOperator, call } from "./http.js";
import { startOidcIssuer } from "./oidc-issuer.js";

/** Raises an event the way other domains do: inside a transaction, through the outbox. */
export function emitEvent(broker: TestBroker, tenantId: string, type: EventType, data: Record<string, unknown> = {}): Promise<string> {
  return broker.services.store.db.transaction().execute((trx) => broker.services.events.emitIn({ tenantId, type, data }, trx));
}

export type CreatedEndpoint = { id: string; secret: string; secret_prefix: string; url: string; [key: string]: unknown };

export async function registerEndpoint(broker: TestBroker, tenant: TestTenant, body: Record<string, unknown>): Promise<CreatedEndpoint> {
  const result = await call(broker, "POST", "/v1/webhooks", { ...asOperator(tenant), body });
  expect(result.status, result.text).toBe(201);
  return result.body as CreatedEndpoint;
}

export async function listDeliveries(broker: TestBroker, tenant: TestTenant, endpointId: string, query = "") {
  const result = await call(broker, "GET", `/v1/webhooks/${endpointId}/deliveries${query}`, asOperator(tenant));
  expect(result.status, result.text).toBe(200);
  return result.body.data as any[];
}

/** A resolver from a fixed table; a function value may answer differently on each call. */
export function tableResolver(table: Record<string, string[] | ((call: number) => string[])>) {
  const calls: string[] = [];
  const resolver: HostResolver = async (hostname) => {
    calls.push(hostname);
    const entry = table[hostname];
    const addresses = typeof entry === "function" ? entry(calls.filter((h) => h === hostname).length) : entry;
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address): ResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { resolver, calls };
}

/**
 * A broker with BROKER_ENV=production: a remote OIDC issuer on loopback for operator sessions,
 * an https public URL, and an injected DNS resolver for webhook hosts.
 */
export async function startProductionBroker(
  kind: DbKind,
  options: { resolver: HostResolver; env?: Record<string, string>; clock?: Clock },
): Promise<{ broker: TestBroker; tenant: TestTenant }> {
  const idp = await startOidcIssuer();
  const started = await startBroker(kind, {
    env: { BROKER_ENV: "production", BROKER_PUBLIC_URL: "https://broker.example.test", ...idp.env, ...options.env },
    webhookResolver: options.resolver,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const broker: TestBroker = {
    ...started,
    async close() {
      await started.close();
      await idp.close();
    },
  };
  const { services } = broker;
  const operatorSubject = `operator-${randomUUID().slice(0, 8)}`;
  const { tenantId } = await services.tenants.create("Production tenant", { issuer: idp.issuer, subject: operatorSubject });
  const tenant: TestTenant = { tenantId, agentAppId: "", testKey: "", liveKey: "", operatorSubject, operatorToken: await idp.issue(operatorSubject) };
  return { broker, tenant };
}
