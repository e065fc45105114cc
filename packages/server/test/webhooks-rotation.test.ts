/**
 * Secret rotation: the new secret is shown once, and for 24 hours every delivery carries one
 * `v1,` signature per secret (Standard Webhooks allows several), so receivers can switch over.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
import { manualClock, type ManualClock } from "../src/clock.js";
import { startBroker, createTenant, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";
import { signedWith, startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "./support/webhook-receiver.js";
import { emitEvent, registerEndpoint, type CreatedEndpoint } from "./support/webhooks.js";

const HOUR = 3600 * 1000;

describeEachDatabase("webhook secret rotation", (kind) => {
  let broker: TestBroker;
  let clock: ManualClock;
  let tenant: TestTenant;
  let receiver: WebhookReceiver;
  let endpoint: CreatedEndpoint;

  beforeAll(async () => {
    clock = manualClock(new Date());
    broker = await startBroker(kind, { clock, env: { BROKER_WEBHOOK_WORKER: "false" } });
  });
  afterAll(() => broker.close());
  beforeEach(async () => {
    clock.set(new Date());
    tenant = await createTenant(broker);
    tenant.operatorToken = await broker.runtime.developmentIssuer!.issue(tenant.operatorSubject, 7 * 24 * 3600);
    receiver = await startWebhookReceiver();
    endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
  });
  afterEach(async () => {
    await call(broker, "DELETE", `/v1/webhooks/${endpoint.id}`, asOperator(tenant));
    await receiver.close();
  });

  const rotate = async () => {
    const result = await call(broker, "POST", `/v1/webhooks/${endpoint.id}/rotate-secret`, asOperator(tenant));
    expect(result.status, result.text).toBe(200);
    return result;
  };
  const deliverOne = async () => {
    await emitEvent(broker, tenant.tenantId, "connection.revoked", {});
    await broker.services.webhooks.worker.drain();
    return receiver.received[receiver.received.length - 1]!;
  };

  it("returns the new secret once, with its prefix and when the old one stops signing", async () => {
    const result = await rotate();
    expect(result.headers.get("cache-control")).toBe("no-store");
    expect(result.body.secret).toMatch(/^whsec_/);
    expect(result.body.secret).not.toBe(endpoint.secret);
    expect(result.body.secret_prefix).toBe(result.body.secret.slice(0, 10));
    expect(result.body.previous_secret_expires_at).toBe(new Date(clock.now().getTime() + 24 * HOUR).toISOString());
    const later = await call(broker, "GET", `/v1/webhooks/${endpoint.id}`, asOperator(tenant));
    expect(later.body).not.toHaveProperty("secret");
    expect(later.body.secret_prefix).toBe(result.body.secret_prefix);
    const secretBody = result.body.secret.slice(6);
    expect(broker.responses.filter((text) => text.includes(secretBody))).toHaveLength(1);
    expect(broker.logs.filter((line) => line.includes(secretBody))).toEqual([]);
  });

  it("signs with both secrets for 24 hours: receivers verify with either", async () => {
    const next = (await rotate()).body.secret as string;
    const during = await deliverOne();
    expect(during.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(verifyWebhook(next, during)).toMatchObject({ type: "connection.revoked" });
    expect(verifyWebhook(endpoint.secret, during)).toMatchObject({ type: "connection.revoked" });
    const test = await call(broker, "POST", `/v1/webhooks/${endpoint.id}/test`, asOperator(tenant));
    expect(test.body.success).toBe(true);
    expect(signedWith(endpoint.secret, receiver.received[receiver.received.length - 1]!)).toBe(true);
  });

  it("signs with the new secret alone once the overlap is over", async () => {
    const next = (await rotate()).body.secret as string;
    clock.advance(24 * HOUR + 1000);
    const after = await deliverOne();
    expect(after.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
    expect(signedWith(next, after)).toBe(true);
    expect(signedWith(endpoint.secret, after)).toBe(false);
    const shown = await call(broker, "GET", `/v1/webhooks/${endpoint.id}`, asOperator(tenant));
    expect(shown.body.previous_secret_expires_at).toBe(new Date(clock.now().getTime() - 1000).toISOString());
  });

  it("keeps only the secret just replaced when rotating again within the overlap", async () => {
    const second = (await rotate()).body.secret as string;
    const third = (await rotate()).body.secret as string;
    const delivered = await deliverOne();
    expect(verifyWebhook(third, delivered)).toBeTruthy();
    expect(verifyWebhook(second, delivered)).toBeTruthy();
    expect(() => verifyWebhook(endpoint.secret, delivered)).toThrow();
  });
});
