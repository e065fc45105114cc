/**
 * Issue 12, item 1, SQLite: the file failing is the database being unavailable, as for PostgreSQL:
 * 503 service_unavailable, never 500, and service resumes when the cause is gone. Provoked here:
 * a full disk (max_page_count), a read-only database (query_only; permissions do not bind root,
 * which CI runs as) and the file being moved away or replaced under the running broker.
 */
import { randomUUID } from "node:crypto";
import { copyFileSync, renameSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteFileIn } from "../src/store/database.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, type CallResult } from "./support/http.js";
import { connect, execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

function expectDatabaseUnavailable(result: CallResult) {
  expectError(result, 503, "service_unavailable");
  expect(result.body.error.message).toMatch(/database is unavailable/);
}

describe("SQLite I/O failures under a running broker", () => {
  let world: ToolWorld;
  let connectionId: string;

  beforeAll(async () => {
    world = await startToolWorld("sqlite");
    connectionId = await connect(world, "scm");
  });
  afterAll(async () => {
    await world?.close();
  });

  const pragma = (text: string) => sql.raw(`pragma ${text}`).execute(world.broker.services.store.db);
  const createIssue = () =>
    execute(world.broker, world.jwt, {
      tool_name: "scm.create_issue",
      connected_account_id: connectionId,
      arguments: { owner: "octocat", repo: "hello-world", title: `io ${randomUUID()}` },
      idempotency_key: randomUUID(),
    });
  const listAgentApps = () => call(world.broker, "GET", "/v1/agent-apps", asOperator(world.tenant));

  it("answers 503 when the disk is full, and serves again once there is room", async () => {
    const { rows } = await pragma("page_count");
    const pages = Number(Object.values(rows[0] as Record<string, unknown>)[0]);
    await pragma(`max_page_count = ${pages}`);
    let refused: CallResult | undefined;
    try {
      // The rows of one execute fit in a page's free space for a while; the file cannot grow.
      for (let attempt = 0; attempt < 100 && !refused; attempt += 1) {
        const result = await createIssue();
        if (result.status !== 200) refused = result;
      }
    } finally {
      await pragma("max_page_count = 1073741823");
    }
    expect(refused, "no execute failed although the database could not grow").toBeDefined();
    expectDatabaseUnavailable(refused!);
    expect((await createIssue()).status).toBe(200);
    expect((await call(world.broker, "GET", "/health")).status).toBe(200);
  });

  it("answers 503 when the database cannot be written, and serves again once it can", async () => {
    await pragma("query_only = 1");
    try {
      expectDatabaseUnavailable(await createIssue());
      expectDatabaseUnavailable(await call(world.broker, "POST", "/v1/agent-apps", { ...asOperator(world.tenant), body: { name: "read-only" } }));
    } finally {
      await pragma("query_only = 0");
    }
    expect((await createIssue()).status).toBe(200);
  });

  it("answers 503 and reports the database unreachable while its file is moved away or replaced", async () => {
    const file = sqliteFileIn(world.broker.config.dataDir);
    const stored = (await listAgentApps()).body;
    renameSync(file, `${file}.moved`);
    try {
      const health = await call(world.broker, "GET", "/health");
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: "degraded", database: { kind: "sqlite", status: "unreachable" } });
      expectDatabaseUnavailable(await createIssue());
      expectDatabaseUnavailable(await listAgentApps());

      // A copy in its place is another file: writing there would split the data in two.
      copyFileSync(`${file}.moved`, file);
      await sleep(1100);
      expectDatabaseUnavailable(await listAgentApps());
      expect((await call(world.broker, "GET", "/health")).status).toBe(503);
    } finally {
      renameSync(`${file}.moved`, file);
    }
    const health = await call(world.broker, "GET", "/health");
    expect(health.status).toBe(200);
    expect(health.body.database).toEqual({ kind: "sqlite", status: "ok" });
    expect((await listAgentApps()).body).toEqual(stored);
    expect((await createIssue()).status).toBe(200);
  });
});
