/**
 * SPEC §5 control keys: only well-formed bk_test_/bk_live_ keys with a valid checksum are looked
 * up; revoked keys stop working; a key mints only for its own env and its own tenant's active
 * agent apps.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { generateControlKey } from "../src/keys/control-key-format.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";

/** Changes one character of the random part, keeping the key well-formed. */
const mistype = (key: string, index: number) => key.slice(0, index) + (key[index] === "A" ? "B" : "A") + key.slice(index + 1);

describeEachDatabase("control keys", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker, "Keys tenant");
    other = await createTenant(broker, "Other tenant");
  });
  afterAll(() => broker.close());
  afterEach(() => vi.restoreAllMocks());

  const mint = (key: string, body: Record<string, unknown> = { agent_app_id: tenant.agentAppId, env: "test" }) =>
    call(broker, "POST", "/v1/broker/token", { token: key, body });

  it("mints with a valid bk_test_ key (the control for the refusals below)", async () => {
    expect((await mint(tenant.testKey)).status).toBe(200);
  });

  it("refuses a legacy sk_ key with 401 before any lookup", async () => {
    const lookup = vi.spyOn(broker.services.controlKeys, "authenticate");
    const result = await mint(`sk_live_${"a".repeat(38)}`);
    expectError(result, 401, "unauthorized");
    expect(result.body.error.message).toMatch(/sk_/);
    expect(lookup).not.toHaveBeenCalled();
    await mint(tenant.testKey);
    expect(lookup).toHaveBeenCalledOnce();
  });

  it("refuses keys with any other prefix with 401 before any lookup", async () => {
    const lookup = vi.spyOn(broker.services.controlKeys, "authenticate");
    const suffix = tenant.testKey.slice("bk_test_".length);
    for (const key of [`pk_test_${suffix}`, `bk_prod_${suffix}`, `rk_live_${suffix}`, `BK_TEST_${suffix}`, `bk_${suffix}`, suffix]) {
      expectError(await mint(key), 401, "unauthorized");
    }
    expect(lookup).not.toHaveBeenCalled();
    await mint(tenant.testKey);
    expect(lookup).toHaveBeenCalledOnce();
  });

  it("refuses a key with a bad checksum with 401 without touching the database", async () => {
    const select = vi.spyOn(broker.services.store.db, "selectFrom");
    // Only the key lookups count: the webhook worker reads its outbox in the background meanwhile.
    const keyLookups = () => select.mock.calls.filter(([from]) => String(from) === "control_keys");
    const lastChar = tenant.testKey.length - 1;
    expectError(await mint(mistype(tenant.testKey, lastChar)), 401, "unauthorized");
    expectError(await mint(mistype(tenant.testKey, "bk_test_".length + 3)), 401, "unauthorized");
    expectError(await mint(tenant.testKey.slice(0, -1)), 401, "unauthorized");
    expect(keyLookups()).toEqual([]);
    // Control: a valid key the broker has not seen yet is looked up (seen keys are cached for 2 s).
    const fresh = await broker.services.controlKeys.create(tenant.tenantId, "test", "fresh", { type: "cli", id: "test" });
    select.mockClear();
    await mint(fresh.key);
    expect(keyLookups()).not.toEqual([]);
  });

  it("refuses a well-formed key with a valid checksum that the broker never issued", async () => {
    expectError(await mint(generateControlKey("test")), 401, "unauthorized");
  });

  it("stops accepting a key once it is revoked with DELETE /v1/keys/{id}", async () => {
    const created = await call(broker, "POST", "/v1/keys", { ...asOperator(tenant), body: { env: "test", name: "short-lived" } });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^bk_test_[0-9A-Za-z]{38}$/);
    expect((await mint(created.body.key)).status).toBe(200);

    const revoked = await call(broker, "DELETE", `/v1/keys/${created.body.id}`, asOperator(tenant));
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: created.body.id, status: "revoked" });
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expect(revoked.body).not.toHaveProperty("key");

    expectError(await mint(created.body.key), 401, "unauthorized");
    const listed = await call(broker, "GET", "/v1/keys", asOperator(tenant));
    expect(listed.body.data.find((k: { id: string }) => k.id === created.body.id).status).toBe("revoked");
    expect((await mint(tenant.testKey)).status).toBe(200);
  });

  it("refuses a bk_test_ key minting env live with 403 environment_mismatch", async () => {
    expectError(await mint(tenant.testKey, { agent_app_id: tenant.agentAppId, env: "live" }), 403, "environment_mismatch");
  });

  it("refuses a bk_live_ key minting env test with 403 environment_mismatch", async () => {
    expectError(await mint(tenant.liveKey, { agent_app_id: tenant.agentAppId, env: "test" }), 403, "environment_mismatch");
    expect((await mint(tenant.liveKey, { agent_app_id: tenant.agentAppId, env: "live" })).status).toBe(200);
  });

  it("answers 404 not_found for an agent app that does not exist", async () => {
    expectError(await mint(tenant.testKey, { agent_app_id: randomUUID(), env: "test" }), 404, "not_found");
  });

  it("answers 404 not_found for another tenant's agent app", async () => {
    expectError(await mint(tenant.testKey, { agent_app_id: other.agentAppId, env: "test" }), 404, "not_found");
    expectError(await mint(other.testKey, { agent_app_id: tenant.agentAppId, env: "test" }), 404, "not_found");
  });

  it("refuses to mint for a disabled agent app with 403", async () => {
    const created = await call(broker, "POST", "/v1/agent-apps", { ...asOperator(tenant), body: { name: "to disable" } });
    expect((await mint(tenant.testKey, { agent_app_id: created.body.id, env: "test" })).status).toBe(200);
    const disabled = await call(broker, "DELETE", `/v1/agent-apps/${created.body.id}`, asOperator(tenant));
    expect(disabled.body).toMatchObject({ id: created.body.id, status: "disabled" });
    expectError(await mint(tenant.testKey, { agent_app_id: created.body.id, env: "test" }), 403, "forbidden");
  });

  it("lists keys by prefix only, never the key itself", async () => {
    const listed = await call(broker, "GET", "/v1/keys", asOperator(tenant));
    expect(listed.status).toBe(200);
    for (const key of listed.body.data) {
      expect(Object.keys(key).sort()).toEqual(["created_at", "env", "id", "last_used_at", "name", "prefix", "revoked_at", "status"]);
      expect(key.prefix).toMatch(/^bk_(test|live)_[0-9A-Za-z]{4}$/);
    }
    expect(listed.text).not.toContain(tenant.testKey);
    expect(listed.text).not.toContain(tenant.liveKey);
  });
});

describeEachDatabase("control key rate limit on /v1/broker/token", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;

  beforeAll(async () => {
    broker = await startBroker(kind, { env: { BROKER_RATE_LIMIT_TOKEN: "3" } });
    tenant = await createTenant(broker);
  });
  afterAll(() => broker.close());

  const mint = (key: string, env: "test" | "live") => call(broker, "POST", "/v1/broker/token", { token: key, body: { agent_app_id: tenant.agentAppId, env } });

  it("answers 429 rate_limited with Retry-After once a key used its requests for the minute", async () => {
    const allowed = [await mint(tenant.testKey, "test"), await mint(tenant.testKey, "test"), await mint(tenant.testKey, "test")];
    expect(allowed.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(allowed.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0"]);
    const limited = await mint(tenant.testKey, "test");
    expectError(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get("ratelimit-limit")).toBe("3");
  });

  it("counts each control key separately", async () => {
    expect((await mint(tenant.liveKey, "live")).status).toBe(200);
  });
});
