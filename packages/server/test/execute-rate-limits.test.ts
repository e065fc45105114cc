/**
 * Rate limits (BROKER_RATE_LIMIT_EXECUTE / BROKER_RATE_LIMIT_TOKEN, requests per minute): execute
 * and continue share one budget per (tenant, agent app, env); /v1/broker/token has one per
 * control key. Every limited response carries RateLimit-* headers; a 429 rate_limited also
 * carries Retry-After and reaches no upstream. With BROKER_REDIS_URL the budget is shared by
 * every broker instance.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, testMasterKey, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken, type CallResult } from "./support/http.js";
import { connect, execute, secondAgentApp, startToolWorld, tenantRows, type ToolWorld } from "./support/tool-execution.js";

const LIMIT = 3;

function expectRateLimitHeaders(result: CallResult, limit: number, remaining: number) {
  expect(result.headers.get("ratelimit-limit")).toBe(String(limit));
  expect(result.headers.get("ratelimit-remaining")).toBe(String(remaining));
  const reset = Number(result.headers.get("ratelimit-reset"));
  expect(reset).toBeGreaterThanOrEqual(0);
  expect(reset).toBeLessThanOrEqual(60);
}

function expectRateLimited(result: CallResult, limit: number) {
  expectError(result, 429, "rate_limited");
  expectRateLimitHeaders(result, limit, 0);
  const retryAfter = Number(result.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describeEachDatabase("rate limits (in process)", (kind) => {
  let world: ToolWorld;
  let scm: string;

  beforeAll(async () => {
    world = await startToolWorld(kind, { env: { BROKER_RATE_LIMIT_EXECUTE: String(LIMIT), BROKER_RATE_LIMIT_TOKEN: "4" } });
    scm = await connect(world, "scm");
  });
  afterAll(() => world.close());

  const getUser = (token: string, extra: Record<string, unknown> = {}) =>
    execute(world.broker, token, { tool_name: "scm.get_authenticated_user", connected_account_id: scm, ...extra });

  it(`allows ${LIMIT} executions a minute per agent app, then answers 429 with Retry-After and RateLimit-* headers without calling the upstream`, async () => {
    const calls = world.fakes.github.stats.apiCalls.length;
    for (let remaining = LIMIT - 1; remaining >= 0; remaining--) {
      const result = await getUser(world.jwt);
      expect(result.status).toBe(200);
      expectRateLimitHeaders(result, LIMIT, remaining);
    }
    const limited = await getUser(world.jwt);
    expectRateLimited(limited, LIMIT);
    expect(limited.body.error.details).toMatchObject({ limit: LIMIT });
    expect(world.fakes.github.stats.apiCalls.length).toBe(calls + LIMIT);
  });

  it("counts against the agent app whether it calls with its broker JWT or a backend names it with a control key", async () => {
    const limited = await getUser(world.tenant.testKey, { agent_app_id: world.tenant.agentAppId });
    expectRateLimited(limited, LIMIT);
  });

  it("limits continue with the same budget as execute", async () => {
    const result = await call(world.broker, "POST", "/v1/tools/invocations/00000000-0000-4000-8000-000000000000/continue", { token: world.jwt });
    expectRateLimited(result, LIMIT);
  });

  it("counts a control key's continue against the agent app that started the call", async () => {
    const [invocation] = await tenantRows(world.broker, "invocations", world.tenant.tenantId);
    expect(invocation?.agent_app_id).toBe(world.tenant.agentAppId);
    const result = await call(world.broker, "POST", `/v1/tools/invocations/${invocation!.id}/continue`, { token: world.tenant.testKey });
    expectRateLimited(result, LIMIT);
  });

  it("limits even requests that would be refused, so a flood of bad requests is cut off too", async () => {
    const other = await secondAgentApp(world);
    for (let i = 0; i < LIMIT; i++) expectError(await execute(world.broker, other.jwt, { tool_name: "scm.nope" }), 404, "not_found");
    expectRateLimited(await execute(world.broker, other.jwt, { tool_name: "scm.nope" }), LIMIT);
  });

  it("keeps a separate budget for each agent app, each env and each tenant", async () => {
    const other = await secondAgentApp(world);
    expect((await getUser(other.jwt)).status).toBe(200);
    const live = await mintBrokerToken(world.broker, world.tenant, "live");
    expectError(await getUser(live), 422, "credential_mismatch");
    const stranger = await createTenant(world.broker, "Umbrella");
    expectError(await execute(world.broker, await mintBrokerToken(world.broker, stranger), { tool_name: "scm.nope" }), 404, "not_found");
  });

  it("limits /v1/broker/token per control key, with the same headers", async () => {
    const created = await call(world.broker, "POST", "/v1/keys", { ...asOperator(world.tenant), body: { env: "test", name: "limited" } });
    const key = created.body.key as string;
    const mint = () => call(world.broker, "POST", "/v1/broker/token", { token: key, body: { agent_app_id: world.tenant.agentAppId, env: "test" } });
    for (let remaining = 3; remaining >= 0; remaining--) {
      const result = await mint();
      expect(result.status).toBe(200);
      expectRateLimitHeaders(result, 4, remaining);
    }
    expectRateLimited(await mint(), 4);
    // Another control key of the same tenant has its own budget.
    expect((await call(world.broker, "POST", "/v1/broker/token", { token: world.tenant.liveKey, body: { agent_app_id: world.tenant.agentAppId, env: "live" } })).status).toBe(200);
  });
});

describeEachDatabase("rate limits shared through Redis (BROKER_REDIS_URL)", (kind) => {
  // Instances behind one public URL, on one database and one Redis; each tenant is new, so its
  // keys are unique in Redis.
  const env = {
    BROKER_REDIS_URL: "redis://127.0.0.1:6379",
    BROKER_RATE_LIMIT_EXECUTE: String(LIMIT),
    BROKER_MASTER_KEYS: testMasterKey(),
    BROKER_PUBLIC_URL: "http://broker.invalid",
  };
  let first: TestBroker;
  const others: TestBroker[] = [];
  const startAnother = async () => {
    const broker = await startBroker(kind, { env, database: first.database });
    others.push(broker);
    return broker;
  };

  beforeAll(async () => {
    first = await startBroker(kind, { env });
  });
  afterAll(async () => {
    for (const broker of others) await broker.close();
    await first?.close();
  });

  const unknownTool = (broker: TestBroker, jwt: string) => execute(broker, jwt, { tool_name: "scm.nope" });

  it("shares one budget across instances, from an instance's very first request", async () => {
    const tenant = await createTenant(first);
    const jwt = await mintBrokerToken(first, tenant);
    const before = [await unknownTool(first, jwt), await unknownTool(first, jwt)];
    expect(before.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(["2", "1"]);
    const second = await startAnother();
    const third = await unknownTool(second, jwt);
    expect(third.status).toBe(404);
    expect(third.headers.get("ratelimit-remaining")).toBe("0");
    expectRateLimited(await unknownTool(second, jwt), LIMIT);
    expectRateLimited(await unknownTool(first, jwt), LIMIT);
  });

  it("keeps each tenant's budget apart in the shared store", async () => {
    const other = await createTenant(first, "Stark");
    const result = await unknownTool(first, await mintBrokerToken(first, other));
    expect(result.status).toBe(404);
    expect(result.headers.get("ratelimit-remaining")).toBe(String(LIMIT - 1));
  });
});
