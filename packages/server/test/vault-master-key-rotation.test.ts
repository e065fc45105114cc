/**
 * Issue 3 and DESIGN §5: `toolbroker rotate-master-key` re-wraps every data key (and the broker's
 * signing key) under the first key of BROKER_MASTER_KEYS, in batches, and can be run again after
 * an interruption. Afterwards the old key can be dropped from the list and every stored secret
 * still opens. The ciphertexts themselves are not rewritten: only the wrapped keys change.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, testMasterKey, type TestBroker, type TestTenant } from "./support/broker.js";
import { runToolbroker } from "./support/cli.js";
import { connectAccount } from "./support/connect.js";
import { createTestDatabase, describeEachDatabase, type DbKind, type TestDatabase } from "./support/databases.js";
import { startFakeUpstreams, type FakeUpstreams } from "./support/fake-upstreams/index.js";
import { asOperator, call } from "./support/http.js";

// The CLI is a fresh Node process; leave a loaded machine room.
const SLOW = { timeout: 120_000 };

type Fixture = { tenant: TestTenant; connectionId: string; secretItemId: string };

function rotationSession(kind: DbKind) {
  const session = {} as { database: TestDatabase; fakes: FakeUpstreams };
  beforeAll(async () => {
    session.database = await createTestDatabase(kind);
    session.fakes = await startFakeUpstreams();
  });
  afterAll(async () => {
    await session.fakes.close();
    await session.database.drop();
  });
  const start = (masterKeys: string) =>
    startBroker(kind, { database: session.database, env: { ...session.fakes.github.env, ...session.fakes.linear.env, BROKER_MASTER_KEYS: masterKeys } });

  /** A tenant with a GitHub connection and a Linear API key in the vault. */
  async function seed(broker: TestBroker, name: string): Promise<Fixture> {
    const tenant = await createTenant(broker, name);
    const connectionId = await connectAccount(broker, tenant, "scm");
    const created = await call(broker, "POST", "/v1/secrets", { ...asOperator(tenant), body: { provider: "tracker", env: "test", name: "linear", value: session.fakes.linear.addApiKey() } });
    expect(created.status, created.text).toBe(201);
    return { tenant, connectionId, secretItemId: created.body.secret_item_id };
  }

  /** Every secret of the fixture opens: both tools run, the listing shows scopes, tokens mint. */
  async function expectAllOpen(broker: TestBroker, fixtures: Fixture[]) {
    expect((await call(broker, "GET", "/health")).body.vault).toEqual({ status: "ok" });
    for (const { tenant, connectionId, secretItemId } of fixtures) {
      const execute = (body: Record<string, unknown>) =>
        call(broker, "POST", "/v1/tools/execute", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, arguments: {}, ...body } });
      const user = await execute({ tool_name: "scm.get_authenticated_user", connected_account_id: connectionId });
      expect(user.status, user.text).toBe(200);
      const issues = await execute({ tool_name: "tracker.list_issues", secret_item_id: secretItemId });
      expect(issues.status, issues.text).toBe(200);
      const listed = await call(broker, "GET", "/v1/connections", asOperator(tenant));
      expect(listed.body.data[0].scopes).toEqual(["repo", "read:user"]);
      expect((await call(broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test" } })).status).toBe(200);
    }
  }

  async function wrappingKids(broker: TestBroker) {
    const db = broker.services.store.db;
    const dataKeys = await db.selectFrom("tenant_data_keys").select("master_kid").execute();
    const signingKeys = await db.selectFrom("signing_keys").select("private_key_sealed").execute();
    return { dataKeys: dataKeys.map((k) => k.master_kid), signingKeys: signingKeys.map((k) => k.private_key_sealed.split(".")[1]) };
  }

  const sealedValues = async (broker: TestBroker) => ({
    connections: await broker.services.store.db.selectFrom("connections").select(["id", "credential_sealed"]).orderBy("id").execute(),
    secretItems: await broker.services.store.db.selectFrom("secret_items").select(["id", "value_sealed"]).orderBy("id").execute(),
  });

  return { session, start, seed, expectAllOpen, wrappingKids, sealedValues };
}

describeEachDatabase("rotate-master-key through the CLI", (kind) => {
  const { session, start, seed, expectAllOpen, wrappingKids, sealedValues } = rotationSession(kind);
  const [oldKey, newKey] = [testMasterKey("old"), testMasterKey("new")];
  const cli = (masterKeys: string) =>
    runToolbroker(["rotate-master-key"], {
      BROKER_ENV: "test",
      BROKER_DATA_DIR: session.database.dataDir,
      BROKER_MASTER_KEYS: masterKeys,
      ...(session.database.databaseUrl ? { DATABASE_URL: session.database.databaseUrl } : {}),
    });

  it("re-wraps every key under the new key, after which the old key can be dropped", SLOW, async () => {
    const before = await start(oldKey);
    const fixtures = [await seed(before, "Acme"), await seed(before, "Globex")];
    const sealed = await sealedValues(before);
    expect(await wrappingKids(before)).toEqual({ dataKeys: ["old", "old"], signingKeys: ["old"] });
    await before.close();

    const rotated = await cli(`${newKey},${oldKey}`);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain('re-wrapped 2 data keys and 1 signing keys under "new"');
    // Run again: nothing is left under the old key.
    const again = await cli(`${newKey},${oldKey}`);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('re-wrapped 0 data keys and 0 signing keys under "new"');

    const after = await start(newKey);
    try {
      expect(await wrappingKids(after)).toEqual({ dataKeys: ["new", "new"], signingKeys: ["new"] });
      expect(await sealedValues(after)).toEqual(sealed);
      await expectAllOpen(after, fixtures);
      // New secrets are sealed under the new key as well.
      fixtures.push(await seed(after, "Initech"));
      await expectAllOpen(after, fixtures);
    } finally {
      await after.close();
    }

    // And the old key alone no longer opens anything.
    const stale = await start(oldKey);
    try {
      expect((await call(stale, "GET", "/health")).body.vault.status).toBe("degraded");
    } finally {
      await stale.close();
    }
  });
});

describeEachDatabase("rotateMasterKey in batches, resumed after an interruption", (kind) => {
  const { start, seed, expectAllOpen, wrappingKids } = rotationSession(kind);
  const [a, b, c] = [testMasterKey("a"), testMasterKey("b"), testMasterKey("c")];

  it("finishes on a second run what a failed run left, and redoes nothing", async () => {
    const first = await start(a);
    const fixtures = [await seed(first, "One"), await seed(first, "Two"), await seed(first, "Three")];
    await first.close();
    // An instance that ran with another key wrapped one more tenant's data key under "c".
    const stray = await start(c);
    fixtures.push(await seed(stray, "Four"));
    await stray.close();

    // Without "c" in the ring the rotation stops at that key, keeping what it finished.
    const withoutC = await start(`${b},${a}`);
    await expect(withoutC.services.vault.rotateMasterKey(1)).rejects.toMatchObject({ code: "vault_unavailable" });
    const doneBeforeFailure = (await wrappingKids(withoutC)).dataKeys.filter((kid) => kid === "b").length;
    await withoutC.close();

    const complete = await start(`${b},${a},${c}`);
    try {
      const result = await complete.services.vault.rotateMasterKey(1);
      expect(result).toEqual({ dataKeys: 4 - doneBeforeFailure, signingKeys: 1 });
      expect(await complete.services.vault.rotateMasterKey(1)).toEqual({ dataKeys: 0, signingKeys: 0 });
    } finally {
      await complete.close();
    }

    const onlyB = await start(b);
    try {
      expect(await wrappingKids(onlyB)).toEqual({ dataKeys: ["b", "b", "b", "b"], signingKeys: ["b"] });
      await expectAllOpen(onlyB, fixtures);
    } finally {
      await onlyB.close();
    }
  });
});
