/**
 * Several broker instances on one PostgreSQL database: each attempt is leased by exactly one
 * worker (`FOR UPDATE SKIP LOCKED`), so no message is sent twice although both workers run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBroker, createTenant, testMasterKey, type TestBroker, type TestTenant } from "./support/broker.js";
import { POSTGRES_URL } from "./support/databases.js";
import { startWebhookReceiver, verifyWebhook, type WebhookReceiver } from "./support/webhook-receiver.js";
import { listDeliveries, registerEndpoint } from "./support/webhooks.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

(POSTGRES_URL ? describe : describe.skip)(`two workers on one PostgreSQL database${POSTGRES_URL ? "" : " (skipped: BROKER_TEST_POSTGRES_URL not set)"}`, () => {
  let first: TestBroker;
  let second: TestBroker;
  let tenant: TestTenant;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    const masterKeys = testMasterKey();
    first = await startBroker("postgres", { env: { BROKER_MASTER_KEYS: masterKeys } });
    second = await startBroker("postgres", { database: first.database, env: { BROKER_MASTER_KEYS: masterKeys } });
    tenant = await createTenant(first);
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await second.close();
    await first.close();
    await receiver.close();
  });

  it("never sends one attempt twice while both workers deliver", async () => {
    const EVENTS = 60;
    receiver.respond(() => ({ status: 200, delayMs: 60 }));
    const endpoints = [
      await registerEndpoint(first, tenant, { url: `${receiver.url}/a` }),
      await registerEndpoint(first, tenant, { url: `${receiver.url}/b` }),
    ];
    await first.services.store.db.transaction().execute(async (trx) => {
      for (let n = 0; n < EVENTS; n += 1) {
        await first.services.events.emitIn({ tenantId: tenant.tenantId, type: "approval.requested", data: { n } }, trx);
      }
    });
    await receiver.waitFor(EVENTS * endpoints.length, 20_000);
    await sleep(500);

    expect(receiver.received).toHaveLength(EVENTS * endpoints.length);
    const keys = receiver.received.map((r) => `${r.path} ${r.headers["webhook-id"]}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [index, endpoint] of endpoints.entries()) {
      const path = `/hooks/${"ab"[index]}`;
      for (const delivery of receiver.received.filter((r) => r.path === path)) expect(verifyWebhook(endpoint.secret, delivery)).toBeTruthy();
    }
    // One worker holds at most 4 attempts per endpoint at a time; more at once means both were sending.
    expect(receiver.maxConcurrent).toBeGreaterThan(8);
    const attempts = await first.services.store.db.selectFrom("webhook_attempts").select(["delivery_id"]).execute();
    expect(attempts).toHaveLength(EVENTS * endpoints.length);
    expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(attempts.length);
    for (const endpoint of endpoints) {
      const page = await listDeliveries(first, tenant, endpoint.id, "?limit=100");
      expect(page.every((d) => d.status === "succeeded" && d.attempt_count === 1)).toBe(true);
    }
  });
});
