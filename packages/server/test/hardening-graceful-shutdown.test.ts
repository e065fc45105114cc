/**
 * Issue 12, item 1: SIGTERM is a graceful shutdown. `toolbroker serve` runs as a child process; a
 * SIGTERM while an execute waits on its upstream stops new connections, lets that execute finish
 * (200, its invocation recorded), closes the store and exits 0 with a line saying so. A request
 * that outlasts the grace period (BROKER_SHUTDOWN_GRACE_MS, 2 s here) has its connection closed; the process still exits 0.
 * With BROKER_SHUTDOWN_DELAY_MS, /health/ready answers 503 from the signal on while connections are
 * still taken, and the drain begins only after the delay.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openStore } from "../src/store/database.js";
import { testMasterKey, type TestBroker, type TestTenant } from "./support/broker.js";
import { asTestBroker, bootstrapThroughCli, startBrokerProcess, type BrokerProcess } from "./support/broker-process.js";
import { connectAccount } from "./support/connect.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "./support/databases.js";
import { startFakeUpstreams, type FakeUpstreams } from "./support/fake-upstreams/index.js";
import { mintBrokerToken } from "./support/http.js";
import { execute } from "./support/tool-execution.js";

describeEachDatabase("SIGTERM during a request", (kind) => {
  let database: TestDatabase;
  let fakes: FakeUpstreams;
  let env: Record<string, string>;
  let tenant: TestTenant;
  const processes: BrokerProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    fakes = await startFakeUpstreams();
    env = {
      BROKER_DATA_DIR: database.dataDir,
      BROKER_MASTER_KEYS: testMasterKey(),
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      BROKER_LOG_LEVEL: "info",
      ...fakes.github.env,
    };
    tenant = await bootstrapThroughCli(env);
  });
  afterAll(async () => {
    for (const started of processes) await started.stop();
    await fakes?.close();
    await database?.drop();
  });

  /** A broker process with an execute of scm.create_issue waiting `upstreamDelayMs` on the fake GitHub. */
  async function startWithRequestInFlight(upstreamDelayMs: number, extraEnv: Record<string, string> = {}) {
    const process_ = await startBrokerProcess({ ...env, ...extraEnv });
    processes.push(process_);
    const broker: TestBroker = asTestBroker(process_);
    const connectionId = await connectAccount(broker, tenant, "scm");
    const jwt = await mintBrokerToken(broker, tenant);
    const callsBefore = fakes.github.stats.apiCalls.length;
    fakes.github.setApiDelay(upstreamDelayMs);
    const inFlight = execute(broker, jwt, {
      tool_name: "scm.create_issue",
      connected_account_id: connectionId,
      arguments: { owner: "octocat", repo: "hello-world", title: "sent before SIGTERM" },
      idempotency_key: randomUUID(),
    });
    while (fakes.github.stats.apiCalls.length === callsBefore) await sleep(20);
    return { process_, inFlight };
  }

  it("lets the request in flight finish, records it, refuses new connections and exits 0", { timeout: 60_000 }, async () => {
    const { process_, inFlight } = await startWithRequestInFlight(1500);

    process_.child.kill("SIGTERM");
    await sleep(200);
    const during = await fetch(`${process_.url}/health`).then((r) => r.status, () => "refused");
    expect(during).toBe("refused");

    const finished = await inFlight;
    expect(finished.status, finished.text).toBe(200);
    expect(await process_.exited).toBe(0);
    expect(process_.output()).toMatch(/graceful shutdown: no new connections/);
    expect(process_.output()).toMatch(/graceful shutdown complete/);

    const store = openStore({ databaseUrl: database.databaseUrl, dataDir: database.dataDir });
    try {
      const row = await store.db.selectFrom("invocations").select(["status"]).where("id", "=", finished.body.invocation_id).executeTakeFirst();
      expect(row).toEqual({ status: "succeeded" });
    } finally {
      await store.close();
    }
  });

  // Issue 40: a load balancer polling /health/ready stops sending before the drain begins.
  it.runIf(kind === "sqlite")(
    "answers /health/ready with 503 from SIGTERM on while the held request is still served, takes connections for BROKER_SHUTDOWN_DELAY_MS, then drains",
    { timeout: 60_000 },
    async () => {
      const { process_, inFlight } = await startWithRequestInFlight(3_500, { BROKER_SHUTDOWN_DELAY_MS: "1500" });
      const probe = (path: string) => fetch(`${process_.url}${path}`).then(async (r) => ({ status: r.status, connection: r.headers.get("connection"), body: await r.json() }), () => "refused" as const);
      expect(await probe("/health/ready")).toMatchObject({ status: 200, body: { status: "ready" } });
      let settled = false;
      void inFlight.finally(() => (settled = true));

      process_.child.kill("SIGTERM");
      await sleep(200);
      const ready = await probe("/health/ready");
      expect(ready).toEqual({
        status: 503,
        // Every answer from SIGTERM on closes its connection, so a kept-alive client comes back on a fresh one.
        connection: "close",
        body: { status: "not_ready", checks: { shutdown: "shutting_down", database: "not_checked", migrations: "not_checked" } },
      });
      expect(await probe("/health/live")).toMatchObject({ status: 200, body: { status: "ok" } });
      // /health itself is unchanged: the database still answers.
      expect(await probe("/health")).toMatchObject({ status: 200 });
      expect(settled).toBe(false);

      // Once the delay has passed the drain begins: no new connections, the held request still runs.
      await sleep(1_800);
      expect(await probe("/health/ready")).toBe("refused");
      expect(settled).toBe(false);

      const finished = await inFlight;
      expect(finished.status, finished.text).toBe(200);
      expect(await process_.exited).toBe(0);
      const output = process_.output();
      expect(output.indexOf("/health/ready answers 503; still taking connections")).toBeGreaterThan(-1);
      expect(output.indexOf("graceful shutdown: no new connections")).toBeGreaterThan(output.indexOf("/health/ready answers 503"));
      expect(output).toMatch(/graceful shutdown complete/);
    },
  );

  // The bound does not depend on the engine; one run is enough.
  it.runIf(kind === "sqlite")("closes the connection of a request that outlasts BROKER_SHUTDOWN_GRACE_MS and still exits 0", { timeout: 60_000 }, async () => {
    const { process_, inFlight } = await startWithRequestInFlight(8_000, { BROKER_SHUTDOWN_GRACE_MS: "2000" });
    const signalledAt = Date.now();
    process_.child.kill("SIGTERM");
    const finished = await inFlight.then((result) => result.status, () => "connection closed");
    expect(await process_.exited).toBe(0);
    expect(finished).toBe("connection closed");
    expect(Date.now() - signalledAt).toBeLessThan(6_000);
    expect(process_.output()).toMatch(/requests still in flight after the grace period/);
    expect(process_.output()).toMatch(/graceful shutdown complete/);
  });
});
