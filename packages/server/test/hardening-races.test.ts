/**
 * Races between operator actions and the work they touch: each pair is run many times with
 * jittered starts, and every answer must be a success or a 404/409 envelope, never a 500, with no
 * row left pointing at something that is gone.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { continueInvocation, createScmTenant, decide, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { auditOf, connectionRow, executeTool, startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call, mintBrokerToken, type CallResult } from "./support/http.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";
import { emitEvent, registerEndpoint } from "./support/webhooks.js";
import { expectRaceOutcome, race, sleep, TRIES } from "./support/races.js";

describeEachDatabase("races: webhook test vs delete", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    broker = await startBroker(kind);
    tenant = await createTenant(broker, "Acme");
  });
  afterAll(async () => {
    await broker?.close();
    await receiver?.close();
  });

  it("answers 200/404/409 envelopes and leaves no delivery of a deleted endpoint", async () => {
    const operator = asOperator(tenant);
    const seen: CallResult[] = [];
    for (let i = 0; i < TRIES; i += 1) {
      // Slow answers some of the time, so the delete also lands while the attempt is being recorded.
      receiver.respond(() => ({ status: 200, delayMs: i % 3 === 0 ? 0 : i % 7 }));
      const endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
      const [tested, deleted] = await race(i, [
        () => call(broker, "POST", `/v1/webhooks/${endpoint.id}/test`, operator),
        () => call(broker, "DELETE", `/v1/webhooks/${endpoint.id}`, operator),
      ]);
      expectRaceOutcome(tested!, [200, 404, 409], broker);
      expectRaceOutcome(deleted!, [200, 404, 409], broker);
      seen.push(tested!, deleted!);
      expect((await call(broker, "GET", `/v1/webhooks/${endpoint.id}`, operator)).status).toBe(404);
    }
    await expectNoOrphanDeliveries(broker);
    expect(await broker.services.store.db.selectFrom("webhook_attempts").select("id").execute()).toEqual([]);
    expect((await broker.services.audit.verify(tenant.tenantId)).ok).toBe(true);
    expect(seen.filter((r) => r.status >= 500)).toEqual([]);
    expect(errorLogs(broker)).toEqual([]);
  });

  it("fans out, attempts and records deliveries of an endpoint deleted meanwhile without an error", async () => {
    const operator = asOperator(tenant);
    const keeper = await registerEndpoint(broker, tenant, { url: receiver.url });
    for (let i = 0; i < TRIES; i += 1) {
      receiver.respond(() => ({ status: i % 2 === 0 ? 200 : 503, delayMs: i % 5 }));
      const endpoint = await registerEndpoint(broker, tenant, { url: receiver.url });
      const [deleted] = await race(i, [
        () => call(broker, "DELETE", `/v1/webhooks/${endpoint.id}`, operator),
        async () => {
          for (let n = 0; n < 3; n += 1) await emitEvent(broker, tenant.tenantId, "connection.revoked", { n });
          broker.services.webhooks.worker.nudge();
          return undefined;
        },
      ]);
      expectRaceOutcome(deleted!, [200], broker);
    }
    const { errors } = await broker.services.webhooks.worker.drain();
    expect(errors).toBe(0);
    expect(errorLogs(broker)).toEqual([]);
    await expectNoOrphanDeliveries(broker);
    const kept = await broker.services.store.db.selectFrom("webhook_deliveries").select("id").where("endpoint_id", "=", keeper.id).execute();
    expect(kept.length).toBe(3 * TRIES);
  });
});

/** Error lines the broker logged (a request's unhandled error, or the delivery worker's). */
const errorLogs = (broker: TestBroker) => broker.logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);

async function expectNoOrphanDeliveries(broker: TestBroker) {
  const db = broker.services.store.db;
  const orphans = await db
    .selectFrom("webhook_deliveries")
    .leftJoin("webhook_endpoints", "webhook_endpoints.id", "webhook_deliveries.endpoint_id")
    .select("webhook_deliveries.id")
    .where("webhook_endpoints.id", "is", null)
    .execute();
  expect(orphans).toEqual([]);
  const orphanAttempts = await db
    .selectFrom("webhook_attempts")
    .leftJoin("webhook_deliveries", "webhook_deliveries.id", "webhook_attempts.delivery_id")
    .select("webhook_attempts.id")
    .where("webhook_deliveries.id", "is", null)
    .execute();
  expect(orphanAttempts).toEqual([]);
}

const APPROVAL_TTL_SECONDS = 60;

describeEachDatabase("races: approval decide vs expiry vs continue", (kind) => {
  // Starts an hour before real time: operator tokens carry real-time expiries, and the tries move this clock on by half an hour.
  const clock = manualClock(new Date(Date.now() - 3600_000));
  let world: ScmWorld;
  let tenant: ScmTenant;

  beforeAll(async () => {
    world = await startScmWorld(kind, { clock, env: { BROKER_APPROVAL_TTL_SECONDS: String(APPROVAL_TTL_SECONDS) } });
    tenant = await createScmTenant(world, "Approvals");
    await putPolicy(world.broker, tenant, [{ id: "ask", effect: "require_approval", tools: ["scm.create_issue"] }]);
  });
  afterAll(() => world?.close());

  it("decides, expires and runs each approval at most once, answering 2xx/403/404/409 envelopes", async () => {
    const { broker } = world;
    const issuePosts = () => world.github.stats.apiCalls.filter((c) => c.method === "POST" && c.path === `/repos/${tenant.owner}/hello-world/issues`).length;
    const postsBefore = issuePosts();
    for (let i = 0; i < TRIES; i += 1) {
      const token = await mintBrokerToken(broker, tenant);
      const pending = await requestApproval(broker, { token, tool: "scm.create_issue", args: { owner: tenant.owner, repo: "hello-world", title: `race ${i}` }, connectionId: tenant.connectionId });
      const resume = async () => {
        await sleep((i % 4) * 3);
        return continueInvocation(broker, token, pending.invocation_id);
      };
      const actions: Array<() => Promise<CallResult | undefined>> = [
        () => decide(broker, tenant, pending.approval_id, "approve"),
        resume,
        resume,
        async () => {
          // The approval's expiry arrives at a different moment of the others on each try.
          await sleep((i % 10) * 4);
          clock.advance((APPROVAL_TTL_SECONDS + 1) * 1000);
          return undefined;
        },
      ];
      if (i % 3 === 0) actions.push(() => decide(broker, tenant, pending.approval_id, "deny"));
      const results = await race(i, actions);
      for (const result of results) if (result) expectRaceOutcome(result, [200, 403, 409], broker);
      expectRaceOutcome(await resume(), [200, 403, 409], broker);
    }
    const approvals = await broker.services.store.db.selectFrom("approvals").selectAll().where("tenant_id", "=", tenant.tenantId).execute();
    for (const approval of approvals) {
      // Nothing is decided or used at or after the moment it expired.
      if (approval.decided_at) expect(approval.decided_at < approval.expires_at, JSON.stringify(approval)).toBe(true);
      if (approval.consumed_at) expect(approval.consumed_at < approval.expires_at, JSON.stringify(approval)).toBe(true);
    }
    // Exactly one send per approval that was used, none for the others.
    expect(issuePosts() - postsBefore).toBe(approvals.filter((a) => a.status === "consumed").length);
    expect(errorLogs(broker)).toEqual([]);
  });

  it("does not use an approval that expired between a continue's check and its use: 409 approval_expired", async () => {
    const { broker } = world;
    const token = await mintBrokerToken(broker, tenant);
    const pending = await requestApproval(broker, { token, tool: "scm.create_issue", args: { owner: tenant.owner, repo: "hello-world", title: "late" }, connectionId: tenant.connectionId });
    expect((await decide(broker, tenant, pending.approval_id, "approve")).status).toBe(200);
    // What a continue that checked the approval just before its expiry does next.
    clock.advance(APPROVAL_TTL_SECONDS * 1000);
    expect(await broker.services.approvals.consume(pending.approval_id, broker.services.store.db)).toBe(false);
    expect(await broker.services.approvals.whyNotConsumed(pending.approval_id)).toMatchObject({ code: "approval_expired" });
    const approval = await broker.services.approvals.get(tenant.tenantId, pending.approval_id);
    expect({ status: approval.status, consumed_at: approval.consumedAt }).toEqual({ status: "approved", consumed_at: null });
  });
});

describeEachDatabase("races: connection revoke vs refresh vs execute", (kind) => {
  let world: ConnectionsWorld;

  beforeAll(async () => {
    // Every token is inside the refresh margin from the moment it is issued: each execute refreshes.
    world = await startConnectionsWorld(kind, { accessTokenTtlSeconds: 30 });
  });
  afterAll(() => world?.close());

  it("revokes once, leaves no usable credential behind, and answers execute with 200 or 422 connection_unusable", async () => {
    const { broker, tenant, fakes } = world;
    const operator = asOperator(tenant);
    const ids: string[] = [];
    for (let i = 0; i < TRIES; i += 1) {
      const id = await connectAccount(broker, tenant, "scm");
      ids.push(id);
      const token = await mintBrokerToken(broker, tenant);
      const run = () => executeTool(broker, tenant, { tool_name: "scm.get_authenticated_user", connected_account_id: id }, token);
      const revoke = () => call(broker, "DELETE", `/v1/connections/${id}`, operator);
      const results = await race(i, i % 2 === 0 ? [run, revoke, run] : [run, revoke, revoke]);
      for (const result of results) {
        if (result.status === 422) expect(result.body.error.code, result.text).toBe("connection_unusable");
        expectRaceOutcome(result, [200, 404, 409, 422], broker);
      }
    }
    for (const id of ids) {
      const row = await connectionRow(broker, id);
      expect({ status: row?.status, sealed: row?.credential_sealed }).toEqual({ status: "revoked", sealed: null });
      expect((await auditOf(broker, tenant.tenantId, "connection.revoked")).filter((a) => a.target_id === id)).toHaveLength(1);
    }
    // Not one token the provider issued still opens the account: the grant was revoked upstream each time.
    const stillLive = [];
    for (const secret of fakes.github.issuedSecrets()) {
      const response = await fetch(`${fakes.github.url}/user`, { headers: { authorization: `Bearer ${secret}` } });
      if (response.status === 200) stillLive.push(secret.slice(0, 8));
    }
    expect(stillLive).toEqual([]);
    expect(errorLogs(broker)).toEqual([]);
  });
});
