/**
 * Issue 3, vault: when the vault's storage fails (here: its key table cannot be read), calls that
 * need a secret get 503 vault_unavailable, /health reports the vault degraded and no stored
 * secret is rewritten. Once the storage is back, so is the vault, without a restart.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBroker, testMasterKey, type TestBroker, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { createTestDatabase, describeEachDatabase, type TestDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";

describeEachDatabase("a vault whose storage fails", (kind) => {
  const masterKeys = testMasterKey("main");
  let database: TestDatabase;
  let world: ConnectionsWorld;
  let broker: TestBroker;
  let tenant: TestTenant;
  let connectionId: string;
  let secretItemId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    world = await startConnectionsWorld(kind, { database, env: { BROKER_MASTER_KEYS: masterKeys } });
    tenant = world.tenant;
    connectionId = await connectAccount(world.broker, tenant, "scm");
    const created = await call(world.broker, "POST", "/v1/secrets", { ...asOperator(tenant), body: { provider: "tracker", env: "test", name: "linear", value: world.fakes.linear.addApiKey() } });
    secretItemId = created.body.secret_item_id;
    await world.broker.close();
    // A fresh instance: no data key is cached in memory yet.
    broker = await startBroker(kind, { database, env: { ...world.fakes.github.env, ...world.fakes.linear.env, BROKER_MASTER_KEYS: masterKeys } });
  });
  afterAll(async () => {
    await broker.close();
    await world.fakes.close();
    await database.drop();
  });

  const execute = (body: Record<string, unknown>) =>
    call(broker, "POST", "/v1/tools/execute", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, arguments: {}, ...body } });
  const getUser = () => execute({ tool_name: "scm.get_authenticated_user", connected_account_id: connectionId });
  const listIssues = () => execute({ tool_name: "tracker.list_issues", secret_item_id: secretItemId });
  const sealed = () => broker.services.store.db.selectFrom("connections").select(["id", "status", "credential_sealed"]).orderBy("id").execute();

  it("answers 503 and reports the vault degraded while the key table is unreadable, then recovers", async () => {
    const before = await sealed();
    const db = broker.services.store.db;
    await db.schema.alterTable("tenant_data_keys").renameTo("tenant_data_keys_away").execute();
    try {
      expectError(await getUser(), 503, "vault_unavailable");
      expectError(await listIssues(), 503, "vault_unavailable");
      expectError(await call(broker, "DELETE", `/v1/connections/${connectionId}`, asOperator(tenant)), 503, "vault_unavailable");
      const health = await call(broker, "GET", "/health");
      expect(health.body.status).toBe("degraded");
      expect(health.body.vault.status).toBe("degraded");
      expect(await sealed()).toEqual(before);
    } finally {
      await db.schema.alterTable("tenant_data_keys_away").renameTo("tenant_data_keys").execute();
    }

    const user = await getUser();
    expect(user.status, user.text).toBe(200);
    expect((await listIssues()).status).toBe(200);
    expect((await call(broker, "GET", "/health")).body.vault).toEqual({ status: "ok" });
  });
});
