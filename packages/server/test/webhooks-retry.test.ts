/**
 * Retries under an injected clock: the schedule and its jitter, what is retried and what is not,
 * Retry-After, 410 and the long-failure rule disabling an endpoint, and manual retries. The
 * in-process worker is off; each step runs the worker until no due work is left.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { manualClock, type ManualClock } from "../src/clock.js";
import { startBroker, createTenant, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { signedWith, startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";
import { emitEvent, listDeliveries, registerEndpoint, type CreatedEndpoint } from "./support/webhooks.js";

const SECOND = 1000;
const HOUR = 3600 * SECOND;
/** The documented delays after attempts 1..7. */
const SCHEDULE = [5 * SECOND, 5 * 60 * SECOND, 30 * 60 * SECOND, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

describeEachDatabase("webhook retries", (kind) => {
  let broker: TestBroker;
  let clock: ManualClock;
  let tenant: TestTenant;
  let receiver: WebhookReceiver;
  let endpoint: CreatedEndpoint;

  beforeAll(async () => {
    clock = manualClock(new Date());
    broker = await startBroker(kind, { clock, env: { BROKER_WEBHOOK_WORKER: "false", BROKER_WEBHOOK_TIMEOUT_MS: "500" } });
  });
  afterAll(() => broker.close());
  beforeEach(async () => {
    tenant = await createTenant(broker);
    // The broker checks token expiry against its (moved) clock: this token outlives the suite.
    tenant.operatorToken = await broker.runtime.developmentIssuer!.issue(tenant.operatorSubject, 90 * 24 * 3600);
    receiver = await startWebhookReceiver();
    endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
  });
  afterEach(async () => {
    // Nothing of this test may fire later, when another test moves the clock.
    for (const e of (await call(broker, "GET", "/v1/webhooks", asOperator(tenant))).body.data) {
      await call(broker, "DELETE", `/v1/webhooks/${e.id}`, asOperator(tenant));
    }
    await receiver.close();
  });

  const deliverDue = async () => {
    const { errors } = await broker.services.webhooks.worker.drain();
    expect(errors, "errors caught by the delivery worker").toBe(0);
    return { errors };
  };
  const onlyDelivery = async (endpointId = endpoint.id) => {
    const deliveries = await listDeliveries(broker, tenant, endpointId);
    expect(deliveries).toHaveLength(1);
    return deliveries[0];
  };
  const getEndpoint = async (id = endpoint.id) => (await call(broker, "GET", `/v1/webhooks/${id}`, asOperator(tenant))).body;

  it("retries a 500 on the schedule 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (±10% jitter), then marks it failed", async () => {
    receiver.respond(() => ({ status: 500 }));
    const eventId = await emitEvent(broker, tenant.tenantId, "connection.revoked", { n: 1 });
    await deliverDue();
    expect(receiver.received).toHaveLength(1);
    for (const [index, base] of SCHEDULE.entries()) {
      const delivery = await onlyDelivery();
      expect(delivery).toMatchObject({ status: "pending", attempt_count: index + 1 });
      const due = Date.parse(delivery.next_attempt_at);
      const delay = due - clock.now().getTime();
      expect(delay).toBeGreaterThanOrEqual(base * 0.9);
      expect(delay).toBeLessThanOrEqual(base * 1.1);
      clock.set(new Date(due - 1));
      await deliverDue();
      expect(receiver.received).toHaveLength(index + 1);
      clock.set(new Date(due));
      await deliverDue();
      expect(receiver.received).toHaveLength(index + 2);
    }
    const failed = await onlyDelivery();
    expect(failed).toMatchObject({ status: "failed", attempt_count: 8, next_attempt_at: null });
    expect(failed.attempts.map((a: { outcome: string }) => a.outcome)).toEqual([...Array(7).fill("retrying"), "failed"]);
    clock.advance(48 * HOUR);
    await deliverDue();
    expect(receiver.received).toHaveLength(8);
    for (const attempt of receiver.received) {
      expect(attempt.headers["webhook-id"]).toBe(eventId);
      expect(signedWith(endpoint.secret, attempt)).toBe(true);
    }
    const timestamps = receiver.received.map((r) => Number(r.headers["webhook-timestamp"]));
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
    const total = SCHEDULE.reduce((sum, delay) => sum + delay, 0) / 1000;
    expect(timestamps[7]! - timestamps[0]!).toBeGreaterThanOrEqual(Math.floor(total * 0.9));
    expect(timestamps[7]! - timestamps[0]!).toBeLessThanOrEqual(Math.ceil(total * 1.1));
  });

  describe("what is retried", () => {
    it.each([408, 429, 500, 502, 503, 504])("retries HTTP %i", async (status) => {
      receiver.respond(() => ({ status }));
      await emitEvent(broker, tenant.tenantId, "approval.requested", {});
      await deliverDue();
      expect(await onlyDelivery()).toMatchObject({ status: "pending", attempt_count: 1, attempts: [expect.objectContaining({ outcome: "retrying", http_status: status })] });
    });

    it.each([400, 401, 403, 404, 422])("fails HTTP %i at once, without retrying", async (status) => {
      receiver.respond(() => ({ status }));
      await emitEvent(broker, tenant.tenantId, "approval.requested", {});
      await deliverDue();
      expect(await onlyDelivery()).toMatchObject({ status: "failed", attempt_count: 1, next_attempt_at: null });
      clock.advance(HOUR);
      await deliverDue();
      expect(receiver.received).toHaveLength(1);
      expect((await getEndpoint()).status).toBe("enabled");
    });

    it("retries a connection failure", async () => {
      const closed = await registerEndpoint(broker, tenant, { url: "http://127.0.0.1:9/hooks" });
      await emitEvent(broker, tenant.tenantId, "approval.requested", {});
      await deliverDue();
      const delivery = await onlyDelivery(closed.id);
      expect(delivery).toMatchObject({ status: "pending", attempts: [expect.objectContaining({ outcome: "retrying", http_status: null, error: "connection failed (ECONNREFUSED)" })] });
      expect((await getEndpoint(closed.id)).last_delivery).toMatchObject({ outcome: "failed", error: "connection failed (ECONNREFUSED)" });
    });

    it("retries an answer slower than BROKER_WEBHOOK_TIMEOUT_MS as a timeout", async () => {
      receiver.respond(() => ({ status: 200, delayMs: 2000 }));
      await emitEvent(broker, tenant.tenantId, "approval.requested", {});
      await deliverDue();
      const delivery = await onlyDelivery();
      expect(delivery).toMatchObject({ status: "pending", attempts: [expect.objectContaining({ outcome: "retrying", error: "timed out after 500 ms" })] });
    });
  });

  describe("Retry-After", () => {
    const delayAfterFirstAttempt = async () => Date.parse((await onlyDelivery()).next_attempt_at) - clock.now().getTime();

    it("waits as long as a 429's Retry-After in seconds when that is longer than the schedule", async () => {
      receiver.respond((_request, index) => (index === 0 ? { status: 429, headers: { "retry-after": "120" } } : { status: 200 }));
      await emitEvent(broker, tenant.tenantId, "approval.requested", {});
      await deliverDue();
      expect(await delayAfterFirstAttempt()).toBe(120 * SECOND);
      clock.advance(119 * SECOND);
      await deliverDue();
      expect(receiver.received).toHaveLength(1);
      clock.advance(SECOND);
      await deliverDue();
      expect(receiver.received).toHaveLength(2);
      expect(await onlyDelivery()).toMatchObject({ status: "succeeded", attempt_count: 2 });
    });

    it("accepts an HTTP date, and never retries sooner than the schedule", async () => {
      const inAnHour = new Date(clock.now().getTime() + HOUR).toUTCString();
      receiver.respond((_request, index) => (index === 0 ? { status: 503, headers: { "retry-after": inAnHour } } : { status: 503, headers: { "retry-after": "0" } }));
      await emitEvent(broker, tenant.tenantId, "approval.requested", {});
      await deliverDue();
      const delay = await delayAfterFirstAttempt();
      expect(delay).toBeGreaterThan(HOUR - 2 * SECOND);
      expect(delay).toBeLessThanOrEqual(HOUR);
      clock.advance(HOUR);
      await deliverDue();
      const next = Date.parse((await onlyDelivery()).next_attempt_at) - clock.now().getTime();
      expect(next).toBeGreaterThanOrEqual(SCHEDULE[1]! * 0.9);
    });

    it("caps a Retry-After at 24 hours", async () => {
      receiver.respond(() => ({ status: 429, headers: { "retry-after": String(7 * 24 * 3600) } }));
      await emitEvent(broker, tenant.tenantId, "approval.requested", {});
      await deliverDue();
      expect(await delayAfterFirstAttempt()).toBe(24 * HOUR);
    });
  });

  describe("disabling", () => {
    it("fails the message on 410 Gone and disables the endpoint, saying why", async () => {
      receiver.respond(() => ({ status: 410 }));
      await emitEvent(broker, tenant.tenantId, "connection.revoked", {});
      await deliverDue();
      expect(await onlyDelivery()).toMatchObject({ status: "failed", attempt_count: 1 });
      const shown = await getEndpoint();
      expect(shown).toMatchObject({ status: "disabled", disabled: { reason: "endpoint_gone", message: expect.stringContaining("410") } });
      expect(shown.last_delivery).toMatchObject({ outcome: "failed", http_status: 410 });
      await emitEvent(broker, tenant.tenantId, "connection.revoked", {});
      clock.advance(HOUR);
      await deliverDue();
      expect(receiver.received).toHaveLength(1);
      const audit = await call(broker, "GET", "/v1/audit?action=webhook.disabled", asOperator(tenant));
      expect(audit.body.data[0]).toMatchObject({ actor: { type: "system", id: "webhook-delivery" }, target: { id: endpoint.id }, data: { reason: "endpoint_gone" } });
    });

    it("disables an endpoint when nothing has succeeded for 5 days and 10 attempts in a row failed", async () => {
      receiver.respond(() => ({ status: 500 }));
      const started = clock.now().getTime();
      await emitEvent(broker, tenant.tenantId, "connection.revoked", { n: 1 });
      for (let attempt = 0; attempt < 8; attempt += 1) {
        await deliverDue();
        clock.advance(11 * HOUR);
      }
      expect(receiver.received).toHaveLength(8);
      expect((await getEndpoint()).status).toBe("enabled");
      clock.set(new Date(started + 5 * 24 * HOUR));
      await emitEvent(broker, tenant.tenantId, "connection.revoked", { n: 2 });
      await deliverDue();
      expect(receiver.received).toHaveLength(9);
      expect((await getEndpoint()).status).toBe("enabled");
      clock.advance(6 * SECOND);
      await deliverDue();
      expect(receiver.received).toHaveLength(10);
      const shown = await getEndpoint();
      expect(shown).toMatchObject({ status: "disabled", disabled: { reason: "failing", message: expect.stringContaining("10 consecutive failures") } });
      // The held message resumes once an operator re-enables the endpoint.
      receiver.respond(() => ({ status: 204 }));
      clock.advance(HOUR);
      await deliverDue();
      expect(receiver.received).toHaveLength(10);
      await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...asOperator(tenant), body: { enabled: true } });
      await deliverDue();
      expect(receiver.received).toHaveLength(11);
      expect(JSON.parse(receiver.received[10]!.body).data).toEqual({ n: 2 });
      expect(await getEndpoint()).toMatchObject({ status: "enabled", disabled: null, last_delivery: { outcome: "succeeded", http_status: 204 } });
    });

    it("starts the failure streak again after any success", async () => {
      receiver.respond((_request, index) => (index === 20 ? { status: 200 } : { status: 500 }));
      for (let n = 0; n < 3; n += 1) await emitEvent(broker, tenant.tenantId, "approval.requested", { n });
      for (let step = 0; step < 8; step += 1) {
        await deliverDue();
        clock.advance(11 * HOUR);
      }
      expect(receiver.received.length).toBeGreaterThanOrEqual(21);
      clock.advance(6 * 24 * HOUR);
      await emitEvent(broker, tenant.tenantId, "approval.requested", { n: 4 });
      await deliverDue();
      expect((await getEndpoint()).status).toBe("enabled");
    });
  });

  it("deletes an endpoint during an attempt without failing the worker", async () => {
    receiver.respond(() => ({ hang: true }));
    await emitEvent(broker, tenant.tenantId, "approval.decided", {});
    const draining = deliverDue();
    await receiver.waitFor(1);
    expect((await call(broker, "DELETE", `/v1/webhooks/${endpoint.id}`, asOperator(tenant))).status).toBe(200);
    expect(await draining).toEqual({ errors: 0 });
    const rows = await broker.services.store.db.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", endpoint.id).execute();
    expect(rows).toEqual([]);
  });

  describe("manual retry", () => {
    it("gives a failed delivery one more attempt with the same webhook-id (202)", async () => {
      receiver.respond((_request, index) => (index === 0 ? { status: 400 } : { status: 200 }));
      const eventId = await emitEvent(broker, tenant.tenantId, "approval.decided", {});
      await deliverDue();
      const failed = await onlyDelivery();
      expect(failed.status).toBe("failed");
      const retried = await call(broker, "POST", `/v1/webhooks/${endpoint.id}/deliveries/${failed.id}/retry`, asOperator(tenant));
      expect(retried.status, retried.text).toBe(202);
      expect(retried.body).toMatchObject({ id: failed.id, status: "pending", next_attempt_at: clock.now().toISOString() });
      await deliverDue();
      expect(receiver.received.map((r) => r.headers["webhook-id"])).toEqual([eventId, eventId]);
      const done = await onlyDelivery();
      expect(done).toMatchObject({ status: "succeeded", attempt_count: 2 });
      expect(done.attempts[1]).toMatchObject({ attempt_number: 2, triggered_by: "manual", outcome: "succeeded" });
      const audit = await call(broker, "GET", "/v1/audit?action=webhook.delivery_retried", asOperator(tenant));
      expect(audit.body.data[0].data).toMatchObject({ delivery_id: failed.id, event_id: eventId });
    });

    it("refuses while an attempt is in flight (409), on a disabled endpoint (409) and for an unknown delivery (404)", async () => {
      receiver.respond(() => ({ hang: true }));
      await emitEvent(broker, tenant.tenantId, "approval.decided", {});
      const draining = deliverDue();
      await receiver.waitFor(1);
      const delivery = await onlyDelivery();
      const op = asOperator(tenant);
      expectError(await call(broker, "POST", `/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry`, op), 409, "webhook_delivery_in_progress");
      await draining;
      await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...op, body: { enabled: false } });
      expectError(await call(broker, "POST", `/v1/webhooks/${endpoint.id}/deliveries/${delivery.id}/retry`, op), 409, "webhook_endpoint_disabled");
      await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...op, body: { enabled: true } });
      const unknown = "00000000-0000-4000-8000-000000000000";
      expectError(await call(broker, "POST", `/v1/webhooks/${endpoint.id}/deliveries/${unknown}/retry`, op), 404, "not_found");
    });
  });
});
