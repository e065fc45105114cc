/**
 * Issue 3, vault: every ciphertext names the data key that sealed it, and is bound by AAD to its
 * tenant, table, row and field. A ciphertext copied to another row fails to open: the call that
 * needs it gets 503 vault_unavailable, nothing is sent upstream and nothing is overwritten.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { connectionRow, executeTool, startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import type { Sealed } from "../src/shared/sealed.js";

describeEachDatabase("ciphertext binding", (kind) => {
  let world: ConnectionsWorld;

  beforeAll(async () => {
    world = await startConnectionsWorld(kind);
  });
  afterAll(() => world.close());

  const db = () => world.broker.services.store.db;
  /** Writes the row behind the broker's back, as another instance would, and drops its cached copy. */
  const setCredential = async (id: string, sealed: Sealed | null) => {
    await db().updateTable("connections").set({ credential_sealed: sealed }).where("id", "=", id).execute();
    world.broker.services.connectionCache.invalidate(id);
  };
  const getUser = (id: string, tenant: TestTenant = world.tenant) => executeTool(world.broker, tenant, { tool_name: "scm.get_authenticated_user", connected_account_id: id });

  it("seals under the tenant's data key, which is wrapped by the active master key", async () => {
    const id = await connectAccount(world.broker, world.tenant, "scm");
    const sealed = (await connectionRow(world.broker, id))!.credential_sealed!;
    const [scheme, dataKeyId] = sealed.split(".");
    expect(scheme).toBe("dk1");
    const dataKey = await db().selectFrom("tenant_data_keys").selectAll().where("id", "=", dataKeyId!).executeTakeFirstOrThrow();
    expect(dataKey).toMatchObject({ tenant_id: world.tenant.tenantId, master_kid: world.broker.runtime.ring.activeKid });
    expect(dataKey.wrapped_key.split(".").slice(0, 2)).toEqual(["mk1", world.broker.runtime.ring.activeKid]);
  });

  it("refuses to open a ciphertext under any other tenant, table, row or field", async () => {
    const { vault } = world.broker.services;
    const context = { tenantId: world.tenant.tenantId, table: "connections", rowId: randomUUID(), field: "credential" };
    const sealed = await vault.seal(context, "plaintext");
    expect(await vault.open(context, sealed)).toBe("plaintext");
    const other = await createTenant(world.broker, "Other");
    for (const moved of [
      { ...context, rowId: randomUUID() },
      { ...context, field: "code_verifier" },
      { ...context, table: "secret_items" },
      { ...context, tenantId: other.tenantId },
    ]) {
      await expect(vault.open(moved, sealed)).rejects.toMatchObject({ code: "vault_unavailable", status: 503 });
    }
  });

  it("fails a call whose connection holds another connection's ciphertext with 503, touching nothing", async () => {
    const a = await connectAccount(world.broker, world.tenant, "scm");
    const b = await connectAccount(world.broker, world.tenant, "scm");
    const [rowA, rowB] = [(await connectionRow(world.broker, a))!, (await connectionRow(world.broker, b))!];
    await setCredential(b, rowA.credential_sealed);
    const apiCalls = world.fakes.github.stats.apiCalls.length;
    const tokenRequests = world.fakes.github.stats.tokenRequests;

    const refused = await getUser(b);
    expectError(refused, 503, "vault_unavailable");
    expectError(await call(world.broker, "GET", `/v1/connections/${b}`, asOperator(world.tenant)), 503, "vault_unavailable");
    expect(refused.text).not.toContain(rowA.credential_sealed!.split(".")[3]!);

    // Nothing left the broker with A's token, and neither row was rewritten.
    expect(world.fakes.github.stats.apiCalls.length).toBe(apiCalls);
    expect(world.fakes.github.stats.tokenRequests).toBe(tokenRequests);
    expect(await connectionRow(world.broker, b)).toEqual({ ...rowB, credential_sealed: rowA.credential_sealed });
    expect(await connectionRow(world.broker, a)).toEqual(rowA);

    // A is unaffected, and B works again once its own ciphertext is back.
    expect((await getUser(a)).status).toBe(200);
    await setCredential(b, rowB.credential_sealed);
    expect((await getUser(b)).status).toBe(200);
  });

  it("fails a ciphertext swapped between two connections in both directions", async () => {
    const a = await connectAccount(world.broker, world.tenant, "scm");
    const b = await connectAccount(world.broker, world.tenant, "scm");
    const [sealedA, sealedB] = [(await connectionRow(world.broker, a))!.credential_sealed, (await connectionRow(world.broker, b))!.credential_sealed];
    await setCredential(a, sealedB);
    await setCredential(b, sealedA);
    expectError(await getUser(a), 503, "vault_unavailable");
    expectError(await getUser(b), 503, "vault_unavailable");
    expect((await connectionRow(world.broker, a))!.credential_sealed).toBe(sealedB);
    expect((await connectionRow(world.broker, b))!.credential_sealed).toBe(sealedA);
  });

  it("fails a ciphertext copied into another tenant's connection", async () => {
    const other = await createTenant(world.broker, "Copycat");
    const mine = await connectAccount(world.broker, world.tenant, "scm");
    const theirs = await connectAccount(world.broker, other, "scm");
    await setCredential(theirs, (await connectionRow(world.broker, mine))!.credential_sealed);
    const apiCalls = world.fakes.github.stats.apiCalls.length;
    expectError(await getUser(theirs, other), 503, "vault_unavailable");
    expect(world.fakes.github.stats.apiCalls.length).toBe(apiCalls);
  });

  it("fails a secret item whose value was copied from another item", async () => {
    const create = async (name: string) => {
      const created = await call(world.broker, "POST", "/v1/secrets", { ...asOperator(world.tenant), body: { provider: "tracker", env: "test", name, value: world.fakes.linear.addApiKey() } });
      expect(created.status, created.text).toBe(201);
      return created.body.secret_item_id as string;
    };
    const [first, second] = [await create("first"), await create("second")];
    const sealedFirst = (await db().selectFrom("secret_items").select("value_sealed").where("id", "=", first).executeTakeFirstOrThrow()).value_sealed;
    await db().updateTable("secret_items").set({ value_sealed: sealedFirst }).where("id", "=", second).execute();
    const calls = world.fakes.linear.stats.apiCalls.length;
    expectError(await executeTool(world.broker, world.tenant, { tool_name: "tracker.list_issues", secret_item_id: second }), 503, "vault_unavailable");
    expect(world.fakes.linear.stats.apiCalls.length).toBe(calls);
    expect((await executeTool(world.broker, world.tenant, { tool_name: "tracker.list_issues", secret_item_id: first })).status).toBe(200);
  });
});
