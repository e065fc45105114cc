/**
 * End to end: an endpoint is registered, an event commits, and a real receiver on loopback gets
 * it signed per Standard Webhooks and verified with the official `standardwebhooks` library.
 */
import { WebhookVerificationError } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { EVENT_TYPES } from "../src/events/event-outbox.js";
import { startBroker, createTenant, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "./support/webhook-receiver.js";
import { emitEvent, listDeliveries, registerEndpoint } from "./support/webhooks.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDatabase("webhook delivery", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    broker = await startBroker(kind);
  });
  afterAll(() => broker.close());
  beforeEach(async () => {
    // A fresh tenant per test: its events reach only the endpoints the test registers.
    tenant = await createTenant(broker);
    receiver = await startWebhookReceiver();
    return () => receiver.close();
  });

  it("delivers a verified connection.revoked soon after the commit (the worker polls every 200 ms)", async () => {
    const endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
    const data = { connected_account_id: "7b0c1c0e-3f7a-4d0b-9d3e-1f2a3b4c5d6e", provider: "scm" };
    const eventId = await emitEvent(broker, tenant.tenantId, "connection.revoked", data);
    // A generous wait: speed is measured, never asserted, so a loaded CI machine cannot flake this.
    const [delivery] = await receiver.waitFor(1, 10_000);
    const payload = verifyWebhook(endpoint.secret, delivery!) as { type: string; timestamp: string; data: unknown };
    expect(payload).toEqual({ type: "connection.revoked", timestamp: expect.any(String), data });
    expect(delivery!.headers["webhook-id"]).toBe(eventId);
    expect(delivery!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(delivery!.headers["content-type"]).toBe("application/json");
    expect(delivery!.body).not.toContain(endpoint.secret.slice(6));
  });

  it("fails verification with the official library when the body, id or timestamp is tampered with", async () => {
    const endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
    await emitEvent(broker, tenant.tenantId, "approval.requested", { approval_id: "a1" });
    const [delivery] = await receiver.waitFor(1);
    expect(() => verifyWebhook(endpoint.secret, delivery!)).not.toThrow();
    const tamperedBody = { ...delivery!, body: delivery!.body.replace("a1", "a2") };
    expect(() => verifyWebhook(endpoint.secret, tamperedBody)).toThrow(WebhookVerificationError);
    const tamperedId = { ...delivery!, headers: { ...delivery!.headers, "webhook-id": "another-id" } };
    expect(() => verifyWebhook(endpoint.secret, tamperedId)).toThrow(WebhookVerificationError);
    const shifted = { ...delivery!, headers: { ...delivery!.headers, "webhook-timestamp": String(Number(delivery!.headers["webhook-timestamp"]) - 1) } };
    expect(() => verifyWebhook(endpoint.secret, shifted)).toThrow(WebhookVerificationError);
    const otherSecret = (await registerEndpoint(broker, tenant, { url: "http://127.0.0.1:9/x" })).secret;
    expect(() => verifyWebhook(otherSecret, delivery!)).toThrow(WebhookVerificationError);
  });

  it("sends every event kind as {type, timestamp, data}", async () => {
    const endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
    const kinds = EVENT_TYPES.filter((type) => type !== "webhook.test");
    for (const type of kinds) await emitEvent(broker, tenant.tenantId, type, { kind: type });
    const received = await receiver.waitFor(kinds.length);
    const payloads = received.map((d) => verifyWebhook(endpoint.secret, d) as { type: string; data: { kind: string } });
    expect(payloads.map((p) => p.type).sort()).toEqual([...kinds].sort());
    for (const payload of payloads) expect(payload.data.kind).toBe(payload.type);
  });

  it("sends only the kinds an endpoint subscribed to", async () => {
    await registerEndpoint(broker, tenant, { url: receiver.url, events: ["approval.decided"] });
    await emitEvent(broker, tenant.tenantId, "connection.revoked", {});
    await emitEvent(broker, tenant.tenantId, "approval.decided", { decision: "approve" });
    const [only] = await receiver.waitFor(1);
    expect(JSON.parse(only!.body).type).toBe("approval.decided");
    await sleep(400);
    expect(receiver.received).toHaveLength(1);
  });

  it("never sends an event whose transaction rolled back", async () => {
    await registerEndpoint(broker, tenant, { url: receiver.url });
    await expect(
      broker.services.store.db.transaction().execute(async (trx) => {
        await broker.services.events.emitIn({ tenantId: tenant.tenantId, type: "connection.revoked", data: { rolled: "back" } }, trx);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    await emitEvent(broker, tenant.tenantId, "connection.expired", {});
    const [delivery] = await receiver.waitFor(1);
    expect(JSON.parse(delivery!.body).type).toBe("connection.expired");
    await sleep(400);
    expect(receiver.received).toHaveLength(1);
  });

  it("POST /test delivers a verified webhook.test now and reports status and latency", async () => {
    const endpoint = await registerEndpoint(broker, tenant, { url: receiver.url, events: ["connection.revoked"] });
    const result = await call(broker, "POST", `/v1/webhooks/${endpoint.id}/test`, asOperator(tenant));
    expect(result.status, result.text).toBe(200);
    expect(result.body).toMatchObject({ success: true, http_status: 200, error: null });
    expect(result.body.latency_ms).toBeGreaterThanOrEqual(0);
    expect(receiver.received).toHaveLength(1);
    const payload = verifyWebhook(endpoint.secret, receiver.received[0]!) as { type: string; data: { endpoint_id: string } };
    expect(payload.type).toBe("webhook.test");
    expect(payload.data.endpoint_id).toBe(endpoint.id);
    expect(receiver.received[0]!.headers["webhook-id"]).toBe(result.body.event_id);
    const shown = await call(broker, "GET", `/v1/webhooks/${endpoint.id}`, asOperator(tenant));
    expect(shown.body.last_delivery).toMatchObject({ outcome: "succeeded", http_status: 200, error: null });
  });

  it("POST /test reports a non-2xx answer and a network error without retrying them", async () => {
    receiver.respond(() => ({ status: 503 }));
    const endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
    const failed = await call(broker, "POST", `/v1/webhooks/${endpoint.id}/test`, asOperator(tenant));
    expect(failed.body).toMatchObject({ success: false, http_status: 503, error: null });
    const closedPort = await registerEndpoint(broker, tenant, { url: "http://127.0.0.1:9/hooks" });
    const refused = await call(broker, "POST", `/v1/webhooks/${closedPort.id}/test`, asOperator(tenant));
    expect(refused.body).toMatchObject({ success: false, http_status: null, error: "connection failed (ECONNREFUSED)" });
    const [delivery] = await listDeliveries(broker, tenant, endpoint.id);
    expect(delivery).toMatchObject({ event_type: "webhook.test", status: "failed", attempt_count: 1, next_attempt_at: null });
    expect(delivery.attempts).toEqual([expect.objectContaining({ attempt_number: 1, triggered_by: "test", outcome: "failed", http_status: 503 })]);
  });

  it("never follows a redirect: a 3xx fails the message and the target receives nothing", async () => {
    const target = await startWebhookReceiver();
    try {
      receiver.respond(() => ({ status: 307, headers: { location: target.url } }));
      const endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
      await emitEvent(broker, tenant.tenantId, "connection.revoked", {});
      await receiver.waitFor(1);
      await sleep(400);
      expect(target.received).toHaveLength(0);
      const [delivery] = await listDeliveries(broker, tenant, endpoint.id);
      expect(delivery).toMatchObject({ status: "failed", attempt_count: 1 });
    } finally {
      await target.close();
    }
  });

  it("queues nothing for a disabled endpoint; once re-enabled it gets the events that follow", async () => {
    const endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
    await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...asOperator(tenant), body: { enabled: false } });
    await emitEvent(broker, tenant.tenantId, "connection.revoked", { while: "disabled" });
    await sleep(400);
    expect(receiver.received).toHaveLength(0);
    expect(await listDeliveries(broker, tenant, endpoint.id)).toEqual([]);
    await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...asOperator(tenant), body: { enabled: true } });
    await emitEvent(broker, tenant.tenantId, "connection.revoked", { while: "enabled" });
    const [delivery] = await receiver.waitFor(1, 10_000);
    expect((verifyWebhook(endpoint.secret, delivery!) as { data: unknown }).data).toEqual({ while: "enabled" });
    await sleep(300);
    expect(receiver.received).toHaveLength(1);
  });

  it("a dead endpoint blocks neither API requests nor another tenant's deliveries", async () => {
    const stuck = await startWebhookReceiver();
    try {
      stuck.respond(() => ({ hang: true }));
      await registerEndpoint(broker, tenant, { url: stuck.url });
      for (let i = 0; i < 30; i += 1) await emitEvent(broker, tenant.tenantId, "connection.revoked", { i });
      await stuck.waitFor(1);
      const healthy = await createTenant(broker, "Healthy");
      const endpoint = await registerEndpoint(broker, healthy, { url: receiver.url });
      // The stuck endpoint never answers: had it blocked the worker, this wait would run out.
      await emitEvent(broker, healthy.tenantId, "connection.revoked", { healthy: true });
      const [delivery] = await receiver.waitFor(1, 10_000);
      expect((verifyWebhook(endpoint.secret, delivery!) as { data: unknown }).data).toEqual({ healthy: true });
      expect((await call(broker, "GET", "/v1/webhooks", asOperator(tenant))).status).toBe(200);
      // Per-endpoint cap: the dead endpoint holds at most 4 connections, not every slot.
      expect(stuck.received.length).toBeLessThanOrEqual(4);
    } finally {
      await stuck.close();
    }
  });

  it("lists deliveries newest first with their attempts, through an opaque cursor", async () => {
    const endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
    for (let i = 0; i < 5; i += 1) await emitEvent(broker, tenant.tenantId, "approval.requested", { i });
    await receiver.waitFor(5);
    await sleep(200);
    const op = asOperator(tenant);
    const first = await call(broker, "GET", `/v1/webhooks/${endpoint.id}/deliveries?limit=3`, op);
    expect(first.body.data).toHaveLength(3);
    expect(first.body.next_cursor).toEqual(expect.any(String));
    const second = await call(broker, "GET", `/v1/webhooks/${endpoint.id}/deliveries?limit=3&cursor=${first.body.next_cursor}`, op);
    expect(second.body.data).toHaveLength(2);
    expect(second.body.next_cursor).toBeNull();
    const all = [...first.body.data, ...second.body.data];
    expect(new Set(all.map((d: { id: string }) => d.id)).size).toBe(5);
    for (const delivery of all) {
      expect(delivery).toMatchObject({ status: "succeeded", attempt_count: 1, event_type: "approval.requested" });
      expect(delivery.attempts).toEqual([expect.objectContaining({ attempt_number: 1, outcome: "succeeded", http_status: 200, triggered_by: "automatic" })]);
    }
    const succeeded = await call(broker, "GET", `/v1/webhooks/${endpoint.id}/deliveries?status=failed`, op);
    expect(succeeded.body.data).toEqual([]);
    const bad = await call(broker, "GET", `/v1/webhooks/${endpoint.id}/deliveries?cursor=not-a-cursor`, op);
    expect(bad.status).toBe(400);
  });
});
