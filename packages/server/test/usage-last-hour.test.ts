/**
 * Issue 40: the console's Usage page shows the last hour's calls and errors per minute, from the
 * public API. GET /v1/usage/last-hour counts every recorded call by the UTC minute it arrived,
 * and the failed, malformed and lost ones among them as errors; exactly 60 minutes, oldest first,
 * the current one last, empty minutes as zero; one tenant's calls never show in another's, and
 * `env` keeps test and live apart.
 */
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { minuteCountsQuery } from "../src/usage/usage-queries.js";
import { createTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { connect, execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

type LastHour = { from: string; to: string; env?: string; calls: number; errors: number; data: { minute: string; calls: number; errors: number }[] };

describeEachDatabase("the last hour's calls and errors per minute", (kind) => {
  // Ten seconds into a minute, so that the calls of one step fall in one minute, and at least a
  // second before now: the operator token is issued on the wall clock for an hour, and the last
  // steps move this clock an hour on (a start ahead of now expired it, in the first ten seconds of a minute).
  const start = new Date(Math.floor((Date.now() - 11_000) / 60_000) * 60_000 + 10_000);
  const clock = manualClock(start);
  let world: ToolWorld;
  let scm: string;
  let liveJwt: string;
  let liveScm: string;

  const lastHour = async (query = "", tenant = world.tenant) => {
    const result = await call<LastHour>(world.broker, "GET", `/v1/usage/last-hour${query}`, asOperator(tenant));
    expect(result.status, result.text).toBe(200);
    return result.body;
  };
  const getUser = (jwt = world.jwt, connection = scm) => execute(world.broker, jwt, { tool_name: "scm.get_authenticated_user", connected_account_id: connection });
  const minuteAt = (offsetMinutes: number) => new Date(Math.floor(start.getTime() / 60_000) * 60_000 + offsetMinutes * 60_000).toISOString();

  beforeAll(async () => {
    world = await startToolWorld(kind, { clock });
    scm = await connect(world, "scm");
    liveScm = await connect(world, "scm", "live");
    liveJwt = await mintBrokerToken(world.broker, world.tenant, "live");
  });
  afterAll(() => world?.close());

  it("answers 60 zero minutes before any call, in UTC ISO, ending with the current minute", async () => {
    const empty = await lastHour();
    expect(empty.data).toHaveLength(60);
    expect(empty.data[59]!.minute).toBe(minuteAt(0));
    expect(empty.data[0]!.minute).toBe(minuteAt(-59));
    expect(empty).toMatchObject({ from: minuteAt(-59), to: minuteAt(1), calls: 0, errors: 0 });
    expect(empty.data.every((row) => row.calls === 0 && row.errors === 0)).toBe(true);
  });

  it("counts calls and errors in the minute they arrived: successes, upstream failures and malformed calls, test and live apart", async () => {
    expect((await getUser()).status).toBe(200);
    expect((await getUser()).status).toBe(200);
    world.fakes.github.failNext(1, { status: 500, body: { message: "Server Error" } });
    expectError(await getUser(), 502, "upstream_error");
    // Malformed arguments: refused before the upstream, recorded as rejected.
    expectError(await execute(world.broker, world.jwt, { tool_name: "scm.create_issue", arguments: { owner: 7 }, connected_account_id: scm }), 422, "invalid_tool_args");
    expect((await getUser(liveJwt, liveScm)).status).toBe(200);

    clock.advance(2 * 60_000);
    expect((await getUser()).status).toBe(200);

    const test = await lastHour("?env=test");
    expect(test.env).toBe("test");
    expect(test.data.find((row) => row.minute === minuteAt(0))).toEqual({ minute: minuteAt(0), calls: 4, errors: 2 });
    expect(test.data.find((row) => row.minute === minuteAt(1))).toEqual({ minute: minuteAt(1), calls: 0, errors: 0 });
    expect(test.data[59]).toEqual({ minute: minuteAt(2), calls: 1, errors: 0 });
    expect(test).toMatchObject({ calls: 5, errors: 2, from: minuteAt(-57), to: minuteAt(3) });

    const live = await lastHour("?env=live");
    expect(live).toMatchObject({ env: "live", calls: 1, errors: 0 });
    const both = await lastHour();
    expect(both).toMatchObject({ calls: 6, errors: 2 });
    expect(both.env).toBeUndefined();
    expect(both.data.find((row) => row.minute === minuteAt(0))).toEqual({ minute: minuteAt(0), calls: 5, errors: 2 });
  });

  it("lets a minute fall out once it is more than an hour old", async () => {
    clock.advance(58 * 60_000);
    const later = await lastHour("?env=test");
    // The calls at minute 0 are now 60 minutes old: gone; the one at minute 2 is the oldest left.
    expect(later.data[0]).toEqual({ minute: minuteAt(1), calls: 0, errors: 0 });
    expect(later.data[1]).toEqual({ minute: minuteAt(2), calls: 1, errors: 0 });
    expect(later).toMatchObject({ calls: 1, errors: 0 });
  });

  it("shows no other tenant's calls", async () => {
    const other = await createTenant(world.broker, "Globex");
    expect(await lastHour("", other)).toMatchObject({ calls: 0, errors: 0 });
  });

  it("reads one range of one index: invocations_tenant_time_state replaced invocations_tenant_time (migration 0020)", async () => {
    const db = world.broker.runtime.store.db;
    const indexes =
      kind === "sqlite"
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'invocations'`.execute(db)
        : await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'invocations'`.execute(db);
    const names = indexes.rows.map((row) => row.name);
    expect(names).toContain("invocations_tenant_time_state");
    expect(names).not.toContain("invocations_tenant_time");
    if (kind === "sqlite") {
      // The broker's own query, as SQLite plans it: the index alone, no table lookups.
      const to = new Date(clock.now().getTime() + 60_000).toISOString();
      const query = minuteCountsQuery(db, world.tenant.tenantId, start.toISOString(), to, "test").compile();
      const plan = await db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]));
      expect(plan.rows.map((row) => row.detail).join("; ")).toMatch(/USING COVERING INDEX invocations_tenant_time_state \(tenant_id=\? AND created_at>\? AND created_at<\?\)/);
    }
  });

  it("refuses what is not an operator of the tenant, and a query it does not know", async () => {
    expectError(await call(world.broker, "GET", "/v1/usage/last-hour", { token: world.jwt }), 401, "unauthorized");
    expectError(await call(world.broker, "GET", "/v1/usage/last-hour", { token: world.tenant.testKey }), 401, "unauthorized");
    expectError(await call(world.broker, "GET", "/v1/usage/last-hour?env=prod", asOperator(world.tenant)), 400, "invalid_request");
    expectError(await call(world.broker, "GET", "/v1/usage/last-hour?minutes=600", asOperator(world.tenant)), 400, "invalid_request");
  });
});
