/**
 * Issue 40: the probes an orchestrator asks. `/health/live` answers while the process runs and
 * asks nothing of the database; `/health/ready` is 200 only while the database answers and holds
 * every migration this build knows, 503 naming the failed check otherwise. Neither takes a
 * credential, and neither says anything about the configuration. (503 from SIGTERM on:
 * hardening-graceful-shutdown.test.ts, against a real process.)
 */
import { renameSync } from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sqliteFileIn } from "../src/store/database.js";
import { LATEST_MIGRATION } from "../src/store/schema-version.js";
import { startBroker, type TestBroker } from "./support/broker.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "./support/databases.js";
import { call } from "./support/http.js";
import { startTcpForwarder, throughForwarder, type TcpForwarder } from "./support/tcp-forwarder.js";

const READY = { status: "ready", checks: { shutdown: "ok", database: "ok", migrations: "ok" } };

describeEachDatabase("health probes", (kind) => {
  let database: TestDatabase;
  let forwarder: TcpForwarder | undefined;
  let broker: TestBroker;
  const brokers: TestBroker[] = [];

  /** A broker whose PostgreSQL connections go through a forwarder the test can stop (SQLite: its file can be moved). */
  async function startReachableBroker(): Promise<TestBroker> {
    const started = await startBroker(kind, {
      database: forwarder ? { ...database, databaseUrl: throughForwarder(database.databaseUrl!, forwarder) } : database,
    });
    brokers.push(started);
    return started;
  }

  /** Makes the database unreachable for `work`: the SQLite file moved away, or the forwarder refusing connections. */
  async function whileUnreachable(target: TestBroker, work: () => Promise<void>) {
    const file = sqliteFileIn(target.config.dataDir);
    if (forwarder) await forwarder.stop();
    else renameSync(file, `${file}.moved`);
    try {
      await work();
    } finally {
      if (forwarder) await forwarder.restore();
      else renameSync(`${file}.moved`, file);
    }
  }

  /** Runs `statement` on the broker's own database (not through the forwarder). */
  const onDatabase = (target: TestBroker, statement: ReturnType<typeof sql.raw>) => statement.execute(target.runtime.store.db);

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    if (database.databaseUrl) {
      const direct = new URL(database.databaseUrl);
      forwarder = await startTcpForwarder({ host: direct.hostname, port: Number(direct.port || 5432) });
    }
    broker = await startReachableBroker();
  });
  afterAll(async () => {
    for (const started of brokers) await started.close();
    await forwarder?.close();
    await database?.drop();
  });

  it("answers /health/live with 200 and /health/ready with 200 and every check ok, without a credential", async () => {
    const live = await call(broker, "GET", "/health/live");
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: "ok" });
    const ready = await call(broker, "GET", "/health/ready");
    expect(ready.status).toBe(200);
    // Exactly these fields: no database kind, environment, version or provider list.
    expect(ready.body).toEqual(READY);
    expect(ready.headers.get("x-request-id")).toBeTruthy();
  });

  it("ignores a credential it does not need, even a forged one", async () => {
    expect((await call(broker, "GET", "/health/ready", { token: "bk_test_forged" })).status).toBe(200);
    expect((await call(broker, "GET", "/health/live", { token: "not-a-token" })).status).toBe(200);
  });

  it("is not ready (503, database unreachable) while the database does not answer, stays live, and is ready again once it does", async () => {
    await whileUnreachable(broker, async () => {
      const ready = await call(broker, "GET", "/health/ready");
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: "not_ready", checks: { shutdown: "ok", database: "unreachable", migrations: "not_checked" } });
      const live = await call(broker, "GET", "/health/live");
      expect(live.status).toBe(200);
      // /health is unchanged: it reports the same outage its own way.
      expect((await call(broker, "GET", "/health")).status).toBe(503);
    });
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && (status = (await call(broker, "GET", "/health/ready")).status) !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(status).toBe(200);
  });

  it("is not ready (503, migrations behind) on a database that lacks this build's latest migration, and ready once it is recorded", async () => {
    // A broker that has not yet found its schema current: a fresh one on the same database.
    const fresh = await startReachableBroker();
    const recorded = await sql<{ name: string; timestamp: string }>`select name, timestamp from schema_migrations where name = ${LATEST_MIGRATION}`.execute(fresh.runtime.store.db);
    expect(recorded.rows).toHaveLength(1);
    await sql`delete from schema_migrations where name = ${LATEST_MIGRATION}`.execute(fresh.runtime.store.db);
    try {
      const behind = await call(fresh, "GET", "/health/ready");
      expect(behind.status).toBe(503);
      expect(behind.body).toEqual({ status: "not_ready", checks: { shutdown: "ok", database: "ok", migrations: "behind" } });
      expect(fresh.logs.some((line) => line.includes("readiness: the database schema lacks this build's migrations") && line.includes(LATEST_MIGRATION))).toBe(true);
      expect((await call(fresh, "GET", "/health/live")).status).toBe(200);
      expect((await call(fresh, "GET", "/health")).status).toBe(200);
    } finally {
      const { name, timestamp } = recorded.rows[0]!;
      await sql`insert into schema_migrations (name, timestamp) values (${name}, ${timestamp})`.execute(fresh.runtime.store.db);
    }
    expect((await call(fresh, "GET", "/health/ready")).body).toEqual(READY);
  });

  it("is not ready (migrations behind) on a database that was never migrated: no migration table at all", async () => {
    const fresh = await startReachableBroker();
    await onDatabase(fresh, sql.raw("alter table schema_migrations rename to schema_migrations_hidden"));
    const behind = await call(fresh, "GET", "/health/ready");
    await onDatabase(fresh, sql.raw("alter table schema_migrations_hidden rename to schema_migrations"));
    expect(behind.status).toBe(503);
    expect(behind.body.checks).toEqual({ shutdown: "ok", database: "ok", migrations: "behind" });
  });

  it("looks the schema up only until it is found current (the broker never undoes a migration)", async () => {
    // `broker` found its schema current in the first test; hiding the table now changes nothing.
    await onDatabase(broker, sql.raw("alter table schema_migrations rename to schema_migrations_hidden"));
    const ready = await call(broker, "GET", "/health/ready");
    await onDatabase(broker, sql.raw("alter table schema_migrations_hidden rename to schema_migrations"));
    expect(ready.body).toEqual(READY);
  });
});
