/**
 * Issue 3, vault: a broker restarted on the same database with a master key that cannot open the
 * stored keys (the right kid with the wrong bytes, or a kid that is not there) answers 503
 * vault_unavailable wherever it needs a secret, reports the vault degraded on /health, and
 * overwrites nothing: restarted with the right key, everything works again.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBroker, testMasterKey, type TestBroker, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";

describeEachDatabase("a broker with the wrong master key", (kind) => {
  const rightKeys = testMasterKey("main");
  let database: TestDatabase;
  let world: ConnectionsWorld;
  let tenant: TestTenant;
  let connectionId: string;
  let secretItemId: string;
  let before: unknown;

  /** Every stored secret and key, to prove a misconfigured broker changed none of them. */
  async function vaultSnapshot(broker: TestBroker) {
    const db = broker.services.store.db;
    return {
      dataKeys: await db.selectFrom("tenant_data_keys").selectAll().orderBy("id").execute(),
      signingKeys: await db.selectFrom("signing_keys").selectAll().orderBy("kid").execute(),
      connections: await db.selectFrom("connections").select(["id", "status", "credential_sealed", "revoked_at"]).orderBy("id").execute(),
      secretItems: await db.selectFrom("secret_items").select(["id", "value_sealed"]).orderBy("id").execute(),
    };
  }

  const restart = (masterKeys: string) => startBroker(kind, { database, env: { ...world.fakes.github.env, ...world.fakes.linear.env, BROKER_MASTER_KEYS: masterKeys } });

  const calls = (broker: TestBroker) => ({
    getUser: () =>
      call(broker, "POST", "/v1/tools/execute", {
        token: tenant.testKey,
        body: { agent_app_id: tenant.agentAppId, tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: connectionId },
      }),
    listIssues: () =>
      call(broker, "POST", "/v1/tools/execute", {
        token: tenant.testKey,
        body: { agent_app_id: tenant.agentAppId, tool_name: "tracker.list_issues", arguments: {}, secret_item_id: secretItemId },
      }),
    mint: () => call(broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test" } }),
  });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    world = await startConnectionsWorld(kind, { database, env: { BROKER_MASTER_KEYS: rightKeys } });
    tenant = world.tenant;
    connectionId = await connectAccount(world.broker, tenant, "scm");
    const created = await call(world.broker, "POST", "/v1/secrets", { ...asOperator(tenant), body: { provider: "tracker", env: "test", name: "linear", value: world.fakes.linear.addApiKey() } });
    secretItemId = created.body.secret_item_id;
    expect((await calls(world.broker).mint()).status).toBe(200);
    before = await vaultSnapshot(world.broker);
    await world.broker.close();
  });
  afterAll(async () => {
    await world.fakes.close();
    await database.drop();
  });

  const WRONG = [
    ["the right kid with the wrong bytes", () => testMasterKey("main")],
    ["a kid the stored keys were not wrapped with", () => testMasterKey("other")],
  ] as const;

  for (const [what, keys] of WRONG) {
    it(`answers 503 vault_unavailable everywhere a secret is needed, with ${what}`, async () => {
      const broker = await restart(keys());
      try {
        const health = await call(broker, "GET", "/health");
        expect(health.status).toBe(200);
        expect(health.body.status).toBe("degraded");
        expect(health.body.vault.status).toBe("degraded");
        expect(health.body.vault.reason).toEqual(expect.any(String));

        const { getUser, listIssues, mint } = calls(broker);
        expectError(await getUser(), 503, "vault_unavailable");
        expectError(await listIssues(), 503, "vault_unavailable");
        expectError(await mint(), 503, "vault_unavailable");
        expectError(await call(broker, "GET", "/v1/connections", asOperator(tenant)), 503, "vault_unavailable");
        expectError(await call(broker, "GET", `/v1/connections/${connectionId}`, asOperator(tenant)), 503, "vault_unavailable");
        expectError(await call(broker, "POST", "/v1/connections/oauth/start", { ...asOperator(tenant), body: { provider: "scm" } }), 503, "vault_unavailable");
        expectError(
          await call(broker, "POST", "/v1/secrets", { ...asOperator(tenant), body: { provider: "tracker", env: "test", name: "another", value: "lin_api_new" } }),
          503,
          "vault_unavailable",
        );
        expect(await vaultSnapshot(broker)).toEqual(before);
      } finally {
        await broker.close();
      }
    });

    it(`refuses to revoke a connection it cannot open with ${what}, keeping its tokens for a later revocation`, async () => {
      const broker = await restart(keys());
      const revocations = world.fakes.github.stats.revocations;
      try {
        expectError(await call(broker, "DELETE", `/v1/connections/${connectionId}`, asOperator(tenant)), 503, "vault_unavailable");
        expect(await vaultSnapshot(broker)).toEqual(before);
        expect(world.fakes.github.stats.revocations).toBe(revocations);
      } finally {
        await broker.close();
      }
    });
  }

  it("works again, with every secret intact, once restarted with the right key", async () => {
    const broker = await restart(rightKeys);
    try {
      const health = await call(broker, "GET", "/health");
      expect(health.body.vault).toEqual({ status: "ok" });
      const { getUser, listIssues, mint } = calls(broker);
      const user = await getUser();
      expect(user.status, user.text).toBe(200);
      expect(user.body.result.login).toBe("octocat");
      expect((await listIssues()).status).toBe(200);
      expect((await mint()).status).toBe(200);
      expect((await call(broker, "GET", `/v1/connections/${connectionId}`, asOperator(tenant))).body.status).toBe("active");
    } finally {
      await broker.close();
    }
  });
});
