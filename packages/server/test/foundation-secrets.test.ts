/**
 * DESIGN §1: nothing a caller receives, and nothing the broker logs, contains a control key
 * other than in the response that created it, however the key is used, misused or refused.
 * The broker logs at trace level here so that every line it could ever write is searched.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call, findSecret } from "./support/http.js";

describeEachDatabase("secrets in responses and logs", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let key: string;

  beforeAll(async () => {
    broker = await startBroker(kind, { env: { BROKER_LOG_LEVEL: "trace" } });
    tenant = await createTenant(broker);
    const created = await call(broker, "POST", "/v1/keys", { ...asOperator(tenant), body: { env: "test", name: "watched" } });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    key = created.body.key;
    // The creation response is the one place the key may appear: take it out of the record.
    expect(broker.responses.pop()).toContain(key);
  });
  afterAll(() => broker.close());

  const mint = (body: unknown, token = key) => call(broker, "POST", "/v1/broker/token", { token, body });

  it("records the broker's log lines at all (the search below is not vacuous)", async () => {
    await mint({ agent_app_id: tenant.agentAppId, env: "test" });
    expect(broker.logs.length).toBeGreaterThan(0);
    expect(broker.logs.some((line) => line.includes("/v1/broker/token"))).toBe(true);
  });

  it("never shows the key after creation, after it authenticated many calls", async () => {
    for (let i = 0; i < 25; i++) expect((await mint({ agent_app_id: tenant.agentAppId, env: "test" })).status).toBe(200);
    expect(findSecret(broker, key)).toEqual([]);
  });

  it("never shows the key after failing calls made with it", async () => {
    const failures = [
      await mint({ agent_app_id: tenant.agentAppId, env: "live" }),
      await mint({ agent_app_id: tenant.agentAppId, env: "prod", extra: key }),
      await mint({ agent_app_id: key, env: "test" }),
      await call(broker, "POST", "/v1/broker/token", { token: key, rawBody: `{"agent_app_id": "${key}"`, headers: { "content-type": "application/json" } }),
      await call(broker, "POST", "/v1/broker/token", { token: key, rawBody: key, headers: { "content-type": "text/plain" } }),
      await call(broker, "GET", "/v1/keys", { token: key, tenant: tenant.tenantId }),
      await call(broker, "GET", "/v1/nope", { token: key }),
      await call(broker, "GET", "/v1/keys", { token: tenant.operatorToken, headers: { "x-broker-tenant-id": key } }),
    ];
    expect(failures.map((f) => f.status)).toEqual([403, 400, 400, 400, 415, 401, 404, 401]);
    expect(findSecret(broker, key)).toEqual([]);
  });

  it("never shows a mistyped or legacy variant of the key", async () => {
    const mistyped = key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");
    const legacy = `sk_${key.slice(3)}`;
    expect((await mint({ agent_app_id: tenant.agentAppId, env: "test" }, mistyped)).status).toBe(401);
    expect((await mint({ agent_app_id: tenant.agentAppId, env: "test" }, legacy)).status).toBe(401);
    expect(findSecret(broker, mistyped)).toEqual([]);
    expect(findSecret(broker, legacy)).toEqual([]);
  });

  it("never shows the key in listings or the audit log", async () => {
    await call(broker, "GET", "/v1/keys", asOperator(tenant));
    await call(broker, "GET", "/v1/audit?limit=200", asOperator(tenant));
    expect(findSecret(broker, key)).toEqual([]);
  });

  it("never shows the key after it was revoked and then refused", async () => {
    const id = (await call(broker, "GET", "/v1/keys", asOperator(tenant))).body.data.find((k: { name: string }) => k.name === "watched").id;
    expect((await call(broker, "DELETE", `/v1/keys/${id}`, asOperator(tenant))).status).toBe(200);
    expect((await mint({ agent_app_id: tenant.agentAppId, env: "test" })).status).toBe(401);
    expect(findSecret(broker, key)).toEqual([]);
  });

  it("never shows the bootstrap keys, which no response ever carried", async () => {
    await mint({ agent_app_id: tenant.agentAppId, env: "test" }, tenant.testKey);
    await mint({ agent_app_id: tenant.agentAppId, env: "live" }, tenant.liveKey);
    await mint({ agent_app_id: tenant.agentAppId, env: "test" }, tenant.liveKey);
    expect(findSecret(broker, tenant.testKey)).toEqual([]);
    expect(findSecret(broker, tenant.liveKey)).toEqual([]);
  });

  it("never logs an operator token or a broker JWT", async () => {
    const minted = await mint({ agent_app_id: tenant.agentAppId, env: "test" }, tenant.testKey);
    await call(broker, "GET", "/v1/keys", { token: minted.body.access_token, tenant: tenant.tenantId });
    await call(broker, "GET", "/v1/keys", asOperator(tenant));
    expect(broker.logs.filter((line) => line.includes(tenant.operatorToken) || line.includes(minted.body.access_token))).toEqual([]);
    // Signatures alone are enough to replay a token: search for them too.
    for (const token of [tenant.operatorToken, minted.body.access_token as string]) {
      expect(broker.logs.filter((line) => line.includes(token.split(".")[2]!))).toEqual([]);
    }
  });
});
