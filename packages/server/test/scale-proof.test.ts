/**
 * Issue 18, proof of scale: three broker instances (child processes) behind a round-robin load
 * balancer and one separate webhook worker, on one PostgreSQL database and Redis. A load of
 * executes (with and without idempotency keys), approvals asked on one instance, decided on
 * another and continued on a third, tokens that keep expiring, and webhook events — while one
 * instance is killed with SIGKILL and restarted mid-run. Then every record is checked.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testMasterKey, type TestTenant } from "./support/broker.js";
import { asTestBroker, bootstrapThroughCli, startBrokerProcess, type BrokerProcess } from "./support/broker-process.js";
import { connectAccount } from "./support/connect.js";
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from "./support/databases.js";
import { startFakeUpstreams, type FakeUpstreams } from "./support/fake-upstreams/index.js";
import { asOperator, call, mintBrokerToken, type CallResult } from "./support/http.js";
import { startRoundRobinProxy, type RoundRobinProxy } from "./support/round-robin-proxy.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";

const BIN = fileURLToPath(new URL("../bin/toolbroker.js", import.meta.url));
const LOAD_MS = 10_000;
const TOKEN_LIMIT = 40;
/** Tokens live 62 s at the fake and are refreshed 60 s before expiry: each is usable for 2 s, so they keep expiring during the run. */
const TOKEN_TTL_SECONDS = 62;

(POSTGRES_URL ? describe : describe.skip)("three instances, a worker, PostgreSQL and Redis, with an instance killed mid-run", () => {
  let database: TestDatabase;
  let fakes: FakeUpstreams;
  let proxy: RoundRobinProxy;
  let receiver: WebhookReceiver;
  let env: Record<string, string>;
  const instances: BrokerProcess[] = [];
  let worker: ChildProcess;
  let tenant: TestTenant;
  let owner: string;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    fakes = await startFakeUpstreams({ accessTokenTtlSeconds: TOKEN_TTL_SECONDS });
    proxy = await startRoundRobinProxy();
    receiver = await startWebhookReceiver();
    env = {
      ...fakes.github.env,
      BROKER_DATA_DIR: database.dataDir,
      DATABASE_URL: database.databaseUrl!,
      BROKER_MASTER_KEYS: testMasterKey(),
      BROKER_PUBLIC_URL: proxy.url,
      BROKER_REDIS_URL: "redis://127.0.0.1:6379",
      BROKER_WEBHOOK_WORKER: "false",
      BROKER_RATE_LIMIT_EXECUTE: "100000",
      BROKER_RATE_LIMIT_TOKEN: String(TOKEN_LIMIT),
      BROKER_LOG_LEVEL: "warn",
    };
    tenant = await bootstrapThroughCli(env);
    for (let i = 0; i < 3; i++) instances.push(await startBrokerProcess(env));
    proxy.setBackends(instances.map((instance) => instance.url));
    worker = spawn(process.execPath, [BIN, "worker"], { env: { PATH: process.env.PATH ?? "", BROKER_ENV: "test", ...env, BROKER_LOG_LEVEL: "info" }, stdio: ["ignore", "pipe", "pipe"] });
    owner = fakes.github.currentUser().login;
    await connectAccount(asTestBroker({ url: proxy.url }), tenant, "scm");
  }, 90_000);
  afterAll(async () => {
    worker?.kill("SIGKILL");
    for (const instance of instances) await instance.stop();
    await proxy?.close();
    await receiver?.close();
    await fakes?.close();
    await database?.drop();
  });

  const via = (url: string) => asTestBroker({ url });

  it("keeps every record, every key and every delivery while an instance dies and comes back", { timeout: 120_000 }, async () => {
    const balanced = via(proxy.url);
    const endpoint = await call(balanced, "POST", "/v1/webhooks", { ...asOperator(tenant), body: { url: `${receiver.url}/hooks` } });
    expect(endpoint.status, endpoint.text).toBe(201);
    const jwt = await mintBrokerToken(balanced, tenant);

    const succeeded: string[] = [];
    const keyed = new Map<string, string>();
    const outcomes = new Map<number, number>();
    const note = (result: CallResult) => outcomes.set(result.status, (outcomes.get(result.status) ?? 0) + 1);
    const send = (body: Record<string, unknown>) => call(balanced, "POST", "/v1/tools/execute", { token: jwt, body }).catch(() => undefined);

    let running = true;
    const reader = async () => {
      while (running) {
        const result = await send({ tool_name: "scm.list_repositories", arguments: {} });
        if (!result) continue;
        note(result);
        if (result.status === 200) succeeded.push(result.body.invocation_id);
      }
    };
    const writer = async () => {
      while (running) {
        const key = randomUUID();
        keyed.set(key, `scale ${key}`);
        const body = { tool_name: "scm.create_issue", arguments: { owner, repo: "hello-world", title: `scale ${key}` }, idempotency_key: key };
        // The same key twice, as a client retrying would: at most one issue may be created.
        for (const result of [await send(body), await send(body)]) {
          if (!result) continue;
          note(result);
          if (result.status === 200 && result.headers.get("idempotent-replayed") !== "true") succeeded.push(result.body.invocation_id);
        }
      }
    };
    const events = async () => {
      while (running) {
        await call(balanced, "POST", `/v1/webhooks/${endpoint.body.id}/test`, asOperator(tenant)).catch(() => undefined);
        await sleep(200);
      }
    };
    const started = Date.now();
    const load = Promise.all([reader(), reader(), reader(), writer(), writer(), events()]);

    // Approvals: asked on the first instance, decided on the second, continued on the third.
    const approvals: string[] = [];
    for (const repo of ["spoon-knife", "private-notes"]) {
      const asked = await call(via(instances[0]!.url), "POST", "/v1/tools/execute", { token: jwt, body: { tool_name: "scm.delete_repository", arguments: { owner, repo } } });
      expect(asked.status, asked.text).toBe(409);
      expect((await call(via(instances[1]!.url), "POST", `/v1/approvals/${asked.body.error.details.approval_id}/decide`, { ...asOperator(tenant), body: { decision: "approve" } })).status).toBe(200);
      const continued = await call(via(instances[2]!.url), "POST", `/v1/tools/invocations/${asked.body.error.details.invocation_id}/continue`, { token: jwt });
      expect(continued.status, continued.text).toBe(200);
      approvals.push(continued.body.invocation_id);
    }

    await sleep(3000);
    instances[1]!.child.kill("SIGKILL");
    await instances[1]!.exited;
    await sleep(1500);
    instances[1] = await startBrokerProcess(env);
    proxy.setBackends(instances.map((instance) => instance.url));
    await sleep(Math.max(0, LOAD_MS - (Date.now() - started)));
    running = false;
    await load;

    // Rate limits are shared (Redis): minting round-robin across the instances stops at the limit.
    const limited = await bootstrapThroughCli({ ...env, BROKER_DATA_DIR: database.dataDir });
    let minted = 0;
    for (let i = 0; i < TOKEN_LIMIT + 5; i++) {
      const result = await call(balanced, "POST", "/v1/broker/token", { token: limited.testKey, body: { agent_app_id: limited.agentAppId, env: "test" } });
      if (result.status === 200) minted += 1;
    }
    expect(minted).toBe(TOKEN_LIMIT);

    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    try {
      const all = [...succeeded, ...approvals];
      const count = async (sql: string) => Number((await client.query(sql, [all])).rows[0].count);
      // Every 200 is recorded: its invocation, its audit event and its usage row.
      expect(await count("select count(*) from invocations where id = any($1) and status = 'succeeded'")).toBe(all.length);
      expect(await count("select count(distinct target_id) from audit_events where target_id = any($1) and action = 'tool.executed'")).toBe(all.length);
      // Metered exactly once each: on its invocation row, or by a usage event (a call whose answer came in a later step).
      const metered = "select id from invocations where id = any($1) and metered_period is not null union all select invocation_id from usage_events where invocation_id = any($1)";
      expect(await count(`select count(*) from (${metered}) m`)).toBe(all.length);
      expect(await count(`select count(distinct id) from (${metered}) m`)).toBe(all.length);

      // No idempotency key created two issues. (The fake's own log also counts POSTs it refused
      // with 401 — a token another instance had just rotated — so the issues are read back.)
      const titles: string[] = [];
      for (let page = 1; ; page += 1) {
        const listed = await call(balanced, "POST", "/v1/tools/execute", { token: jwt, body: { tool_name: "scm.list_issues", arguments: { owner, repo: "hello-world", state: "all", per_page: 100, page } } });
        expect(listed.status, listed.text).toBe(200);
        const issues = listed.body.result.issues as { title: string }[];
        titles.push(...issues.map((issue) => issue.title).filter((title) => title.startsWith("scale ")));
        if (issues.length < 100) break;
      }
      expect(titles.length).toBe(new Set(titles).size);
      expect(titles.length).toBeGreaterThan(0);

      // Each expiry was refreshed once: a second refresh would have spent a rotated refresh token and failed.
      const github = fakes.github.stats;
      expect(github.refreshGrants).toBeGreaterThan(1);
      expect(github.tokenRequests).toBe(github.authorizationCodeGrants + github.refreshGrants);
      expect((await client.query("select status from connections")).rows.every((row) => row.status === "active")).toBe(true);

      // Every event reached the endpoint. The worker sends each once; a test send is made by the
      // instance that was asked, so one cut short by the kill (received, not yet recorded) is sent
      // again by the worker when its lease lapses, under the same webhook-id: at least once.
      const pending = async () => Number((await client.query("select count(*) from webhook_deliveries where status <> 'succeeded'")).rows[0].count);
      await expect.poll(pending, { timeout: 30_000, interval: 250 }).toBe(0);
      const rows = (await client.query("select d.event_id, e.type from webhook_deliveries d join events e on e.id = d.event_id")).rows as { event_id: string; type: string }[];
      const deliveries = rows.length;
      const ids = receiver.received.map((delivery) => delivery.headers["webhook-id"]);
      expect(new Set(ids)).toEqual(new Set(rows.map((row) => row.event_id)));
      const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
      // The events loop sends one test at a time, so at most one was in flight on the killed instance.
      expect(repeated.length).toBeLessThanOrEqual(1);
      for (const id of repeated) expect(rows.find((row) => row.event_id === id)?.type).toBe("webhook.test");

      // The audit chain of every tenant still verifies.
      for (const who of [tenant, limited]) {
        const verified = await call(balanced, "GET", "/v1/audit/verify", asOperator(who));
        expect(verified.body, verified.text).toMatchObject({ intact: true });
      }

      const figures = {
        seconds: (Date.now() - started) / 1000,
        statuses: Object.fromEntries(outcomes),
        recorded_calls: all.length,
        issues_created: titles.length,
        idempotency_keys: keyed.size,
        refreshes: github.refreshGrants,
        webhook_deliveries: deliveries,
        served_by: Object.fromEntries(proxy.counts),
      };
      process.stdout.write(`\n[scale proof] ${JSON.stringify(figures)}\n`);
      expect(outcomes.get(200) ?? 0).toBeGreaterThan(100);
      for (const status of outcomes.keys()) expect([200, 409, 502, 503]).toContain(status);
    } finally {
      await client.end();
    }
  });
});
