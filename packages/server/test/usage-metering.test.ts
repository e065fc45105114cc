/**
 * GET /v1/usage: each execution that reached the upstream counts once toward the tenant's usage
 * for (env, calendar month in UTC), broken down by agent app and tool. Idempotent replays,
 * validation failures, refused handles, denials, approval requests and OAuth connects never count.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { createInvocationQueries } from "../src/invocations/invocation-queries.js";
import { callOf } from "../src/invocations/invocation-lifecycle.js";
import { createTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { connect, execute, secondAgentApp, startToolWorld, type ExecuteRequest, type ToolWorld } from "./support/tool-execution.js";

type Usage = { from: string; to: string; total: number; data: { period: string; env: string; agent_app_id: string; tool_name: string; executions: number }[] };

describeEachDatabase("GET /v1/usage", (kind) => {
  const clock = manualClock(new Date("2026-01-31T22:00:00.000Z"));
  let world: ToolWorld;
  let scm: string;
  let chat: string;

  beforeAll(async () => {
    world = await startToolWorld(kind, { clock });
    [scm, chat] = [await connect(world, "scm"), await connect(world, "chat")];
  });
  afterAll(() => world.close());

  const usage = async (query = "") => {
    const result = await call<Usage>(world.broker, "GET", `/v1/usage${query}`, asOperator(world.tenant));
    expect(result.status, result.text).toBe(200);
    return result.body;
  };
  const run = (request: ExecuteRequest, token = world.jwt) => execute(world.broker, token, request);
  const getUser = (extra: Partial<ExecuteRequest> = {}) => run({ tool_name: "scm.get_authenticated_user", connected_account_id: scm, ...extra });

  it("is for operators only", async () => {
    expectError(await call(world.broker, "GET", "/v1/usage", { token: world.jwt }), 401, "unauthorized");
    expectError(await call(world.broker, "GET", "/v1/usage", { token: world.tenant.testKey }), 401, "unauthorized");
  });

  it("counts nothing for OAuth connects", async () => {
    expect(await usage()).toEqual({ from: "2026-01", to: "2026-01", total: 0, data: [] });
  });

  it("counts each execution that reached the upstream once, by env, agent app and tool", async () => {
    expect((await getUser()).status).toBe(200);
    expect((await getUser()).status).toBe(200);
    expect((await run({ tool_name: "chat.list_channels", connected_account_id: chat })).status).toBe(200);
    const agentAppId = world.tenant.agentAppId;
    expect(await usage()).toEqual({
      from: "2026-01",
      to: "2026-01",
      total: 3,
      data: [
        { period: "2026-01", env: "test", agent_app_id: agentAppId, tool_name: "chat.list_channels", executions: 1 },
        { period: "2026-01", env: "test", agent_app_id: agentAppId, tool_name: "scm.get_authenticated_user", executions: 2 },
      ],
    });
  });

  it("meters a plain call on its invocation row, and never a second time, whatever step of it were recorded again", async () => {
    const before = (await usage()).total;
    const result = await getUser();
    expect(result.status).toBe(200);
    const invocationId = result.body.invocation_id as string;
    const invocation = (await createInvocationQueries(world.broker.services.store).find(world.tenant.tenantId, invocationId))!;
    expect(invocation.meteredPeriod).toBe("2026-01");
    // A finished call never moves on; were a step of it recorded anyway, it would not count again.
    const { tenantId, env, agentAppId, endUserId } = invocation;
    const call = callOf(invocation, { kind: "agent_app", tenantId, env, agentAppId, endUserId });
    await world.broker.services.lifecycle.finish(call, { kind: "succeeded", result: {}, upstreamStatus: 200, latencyMs: 1 });
    expect((await usage()).total).toBe(before + 1);
    const events = await world.broker.services.store.db.selectFrom("usage_events").select("id").where("invocation_id", "=", invocationId).execute();
    expect(events).toEqual([]);
  });

  it("does not count idempotent replays", async () => {
    const before = (await usage()).total;
    const idempotency_key = randomUUID();
    expect((await getUser({ idempotency_key })).status).toBe(200);
    const replay = await getUser({ idempotency_key });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await usage()).total).toBe(before + 1);
  });

  it("does not count validation failures, refused handles, denials or approval requests", async () => {
    const before = await usage();
    expectError(await run({ tool_name: "scm.nope", connected_account_id: scm }), 404, "not_found");
    expectError(await run({ tool_name: "scm.get_repository", arguments: {}, connected_account_id: scm }), 422, "invalid_tool_args");
    expectError(await run({ tool_name: "tracker.list_issues" }), 422, "credential_required");
    expectError(await run({ tool_name: "scm.get_authenticated_user", connected_account_id: chat }), 422, "credential_mismatch");
    expectError(await run({ tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "spoon-knife" }, connected_account_id: scm }), 409, "approval_required");
    await call(world.broker, "PUT", "/v1/policy", { ...asOperator(world.tenant), body: { env: "test", rules: [{ id: "no-scm", effect: "deny", tools: ["scm.*"] }] } });
    expectError(await getUser(), 403, "policy_denied");
    await call(world.broker, "PUT", "/v1/policy", { ...asOperator(world.tenant), body: { env: "test", rules: [] } });
    expect(await usage()).toEqual(before);
  });

  it("counts a call the upstream failed once, and a refresh-and-retry once", async () => {
    const before = (await usage()).total;
    world.fakes.github.failNext(1, { status: 500, body: { message: "boom" } });
    expectError(await getUser(), 502, "upstream_error");
    expect((await usage()).total).toBe(before + 1);
    world.fakes.github.expireAllAccessTokens();
    const calls = world.fakes.github.stats.apiCalls.length;
    expect((await getUser()).status).toBe(200);
    expect(world.fakes.github.stats.apiCalls.length).toBe(calls + 2);
    expect((await usage()).total).toBe(before + 2);
  });

  it("counts executions with a control key toward the named agent app", async () => {
    const before = await usage(`?agent_app_id=${world.tenant.agentAppId}&tool=chat.list_channels`);
    expect((await run({ tool_name: "chat.list_channels", connected_account_id: chat, agent_app_id: world.tenant.agentAppId }, world.tenant.testKey)).status).toBe(200);
    expect((await usage(`?agent_app_id=${world.tenant.agentAppId}&tool=chat.list_channels`)).total).toBe(before.total + 1);
  });

  it("separates envs and agent apps, and filters by env, agent app and tool", async () => {
    const other = await secondAgentApp(world);
    expect((await run({ tool_name: "chat.list_channels", connected_account_id: chat }, other.jwt)).status).toBe(200);
    const liveScm = await connect(world, "scm", "live");
    const liveJwt = await mintBrokerToken(world.broker, world.tenant, "live");
    expect((await run({ tool_name: "scm.list_repositories", connected_account_id: liveScm }, liveJwt)).status).toBe(200);

    expect((await usage("?env=live")).data).toEqual([{ period: "2026-01", env: "live", agent_app_id: world.tenant.agentAppId, tool_name: "scm.list_repositories", executions: 1 }]);
    expect((await usage(`?agent_app_id=${other.agentAppId}`)).data).toEqual([{ period: "2026-01", env: "test", agent_app_id: other.agentAppId, tool_name: "chat.list_channels", executions: 1 }]);
    const tool = await usage("?tool=scm.list_repositories");
    expect(tool.data.map((row) => [row.env, row.executions])).toEqual([["live", 1]]);
    const all = await usage();
    expect(all.total).toBe(all.data.reduce((sum, row) => sum + row.executions, 0));
  });

  it("counts by calendar month in UTC: the current month by default, a range on request", async () => {
    const january = (await usage()).total;
    clock.set(new Date("2026-02-01T00:00:01.000Z"));
    const jwt = await mintBrokerToken(world.broker, world.tenant);
    expect((await run({ tool_name: "scm.get_authenticated_user", connected_account_id: scm }, jwt)).status).toBe(200);

    expect(await usage()).toMatchObject({ from: "2026-02", to: "2026-02", total: 1 });
    const range = await usage("?from=2026-01&to=2026-02");
    expect(range).toMatchObject({ from: "2026-01", to: "2026-02", total: january + 1 });
    expect([...new Set(range.data.map((row) => row.period))]).toEqual(["2026-01", "2026-02"]);
    expect((await usage("?from=2026-01")).total).toBe(january + 1);
    expect((await usage("?to=2026-01")).total).toBe(january);
    expect(await usage("?from=2025-12&to=2025-12")).toMatchObject({ total: 0, data: [] });
  });

  it("refuses a malformed month with 400", async () => {
    expectError(await call(world.broker, "GET", "/v1/usage?from=2026-13", asOperator(world.tenant)), 400, "invalid_request");
    expectError(await call(world.broker, "GET", "/v1/usage?from=January", asOperator(world.tenant)), 400, "invalid_request");
  });

  it("shows a tenant only its own usage", async () => {
    const stranger = await createTenant(world.broker, "Hooli");
    const result = await call<Usage>(world.broker, "GET", "/v1/usage?from=2026-01&to=2026-02", asOperator(stranger));
    expect(result.body).toMatchObject({ total: 0, data: [] });
  });
});
