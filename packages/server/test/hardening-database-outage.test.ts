/**
 * Issue 12, item 1: PostgreSQL going away is a dependency failing, never a crash. The broker runs
 * as a real child process (`toolbroker serve`) whose database connections pass through a loopback
 * TCP forwarder. Cutting every forwarded connection 10 times while executes run leaves the process
 * running; while the forwarder refuses connections every request that needs the database gets 503
 * service_unavailable and /health answers 503 with the database unreachable; once it accepts
 * again the broker serves requests within seconds, without a restart.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testMasterKey, type TestBroker, type TestTenant } from "./support/broker.js";
import { asTestBroker, bootstrapThroughCli, startBrokerProcess, type BrokerProcess } from "./support/broker-process.js";
import { connectAccount } from "./support/connect.js";
import { createTestDatabase, POSTGRES_URL, type TestDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { startFakeUpstreams, type FakeUpstreams } from "./support/fake-upstreams/index.js";
import { asOperator, call, mintBrokerToken, type CallResult } from "./support/http.js";
import { startTcpForwarder, throughForwarder, type TcpForwarder } from "./support/tcp-forwarder.js";
import { execute } from "./support/tool-execution.js";

const CUTS = 10;
const WORKERS = 8;

/** A request that needed the database while it was away: 503 with the envelope, never 500. */
export function expectDatabaseUnavailable(result: CallResult) {
  expectError(result, 503, "service_unavailable");
  expect(result.body.error.message).toMatch(/database is unavailable/);
}

(POSTGRES_URL ? describe : describe.skip)("PostgreSQL going away under load (broker as a child process)", () => {
  let database: TestDatabase;
  let forwarder: TcpForwarder;
  let fakes: FakeUpstreams;
  let process_: BrokerProcess;
  let broker: TestBroker;
  let tenant: TestTenant;
  let jwt: string;
  let connectionId: string;

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const direct = new URL(database.databaseUrl!);
    forwarder = await startTcpForwarder({ host: direct.hostname, port: Number(direct.port || 5432) });
    fakes = await startFakeUpstreams();
    const env = {
      BROKER_DATA_DIR: database.dataDir,
      BROKER_MASTER_KEYS: testMasterKey(),
      DATABASE_URL: throughForwarder(database.databaseUrl!, forwarder),
      BROKER_LOG_LEVEL: "warn",
      BROKER_RATE_LIMIT_EXECUTE: "100000",
      ...fakes.github.env,
    };
    tenant = await bootstrapThroughCli(env);
    process_ = await startBrokerProcess(env);
    broker = asTestBroker(process_);
    connectionId = await connectAccount(broker, tenant, "scm");
    jwt = await mintBrokerToken(broker, tenant);
  });
  afterAll(async () => {
    await process_?.stop();
    await forwarder?.close();
    await fakes?.close();
    await database?.drop();
  });

  const listRepositories = () => execute(broker, jwt, { tool_name: "scm.list_repositories", connected_account_id: connectionId });
  const createIssue = () =>
    execute(broker, jwt, {
      tool_name: "scm.create_issue",
      connected_account_id: connectionId,
      arguments: { owner: "octocat", repo: "hello-world", title: `outage ${randomUUID()}` },
      idempotency_key: randomUUID(),
    });

  async function succeedsAgainWithin(ms: number) {
    const deadline = Date.now() + ms;
    for (;;) {
      const result = await listRepositories();
      if (result.status === 200) return;
      if (Date.now() > deadline) throw new Error(`no recovery within ${ms} ms: ${result.status} ${result.text}`);
      await sleep(200);
    }
  }

  it(`survives ${CUTS} resets of every database connection while executes run`, { timeout: 60_000 }, async () => {
    expect((await listRepositories()).status).toBe(200);
    fakes.github.setApiDelay(20);
    const results: CallResult[] = [];
    const failures: string[] = [];
    let running = true;
    const worker = async (n: number) => {
      while (running) {
        // A request the broker never answers (the process died) is a failure, not a crash of the test.
        const result = await (n % 2 ? createIssue() : listRepositories()).catch((error: Error) => void failures.push(String(error.cause ?? error)));
        if (result) results.push(result);
      }
    };
    const load = Promise.all(Array.from({ length: WORKERS }, (_, n) => worker(n)));
    let resets = 0;
    for (let cut = 0; cut < CUTS; cut += 1) {
      await sleep(250);
      resets += forwarder.cut();
      expect(process_.alive(), process_.output()).toBe(true);
    }
    await sleep(250);
    running = false;
    await load;
    fakes.github.setApiDelay(0);

    expect(process_.alive(), process_.output()).toBe(true);
    expect(failures).toEqual([]);
    expect(resets).toBeGreaterThanOrEqual(CUTS);
    for (const result of results) if (result.status !== 200) expectDatabaseUnavailable(result);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThan(0);
    await succeedsAgainWithin(5000);
  });

  it("answers 503 service_unavailable while the database is unreachable, and recovers by itself", { timeout: 60_000 }, async () => {
    await forwarder.stop();
    try {
      expectDatabaseUnavailable(await listRepositories());
      expectDatabaseUnavailable(await createIssue());
      expectDatabaseUnavailable(await call(broker, "GET", "/v1/agent-apps", asOperator(tenant)));
      expectDatabaseUnavailable(await call(broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test" } }));

      const health = await call(broker, "GET", "/health");
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: "degraded", database: { kind: "postgres", status: "unreachable" } });
      expect(health.headers.get("x-request-id")).toBeTruthy();
      expect(process_.alive(), process_.output()).toBe(true);
    } finally {
      await forwarder.restore();
    }

    await succeedsAgainWithin(5000);
    const health = await call(broker, "GET", "/health");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "ok", database: { kind: "postgres", status: "ok" } });
    expect((await createIssue()).status).toBe(200);
    expect(process_.alive()).toBe(true);
  });

  it("never logs the database password or connection string", () => {
    const password = new URL(POSTGRES_URL!).password;
    const output = process_.output();
    expect(output).not.toContain(throughForwarder(database.databaseUrl!, forwarder));
    if (password) expect(output).not.toContain(password);
    expect(output).toContain("the database is unavailable");
  });
});
