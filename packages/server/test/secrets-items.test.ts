/**
 * Issue 3, vault secret items: API keys for `api_key` providers. `POST /v1/secrets` stores the
 * value sealed and answers metadata only; no route ever returns the value; the execute pipeline
 * presents it to the provider when an agent names the item's `secret_item_id`.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { createTenant, type TestTenant } from "./support/broker.js";
import { executeTool, startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";

const METADATA_FIELDS = ["connection_values", "created_at", "end_user_id", "env", "label", "last_used_at", "name", "provider", "reconnect_reason", "secret_item_id", "value_hint"];

describeEachDatabase("vault secret items", (kind) => {
  const clock = manualClock();
  let world: ConnectionsWorld;
  let other: TestTenant;

  beforeAll(async () => {
    world = await startConnectionsWorld(kind, { clock });
    other = await createTenant(world.broker, "Other Corp");
  });
  afterAll(() => world.close());

  const create = (body: Record<string, unknown>, tenant: TestTenant = world.tenant) => call(world.broker, "POST", "/v1/secrets", { ...asOperator(tenant), body });
  const listIssues = (secretItemId: string, tenant: TestTenant = world.tenant, token?: string) =>
    executeTool(world.broker, tenant, { tool_name: "tracker.list_issues", arguments: { first: 5 }, secret_item_id: secretItemId }, token);

  it("answers 401 without an operator session, also to an agent's broker JWT", async () => {
    const jwt = await mintBrokerToken(world.broker, world.tenant);
    const body = { provider: "tracker", env: "test", name: "x", value: "lin_api_x" };
    for (const token of [undefined, jwt, world.tenant.testKey]) {
      const auth = token ? { token, tenant: world.tenant.tenantId } : {};
      expectError(await call(world.broker, "POST", "/v1/secrets", { ...auth, body }), 401, "unauthorized");
      expectError(await call(world.broker, "GET", "/v1/secrets", auth), 401, "unauthorized");
      expectError(await call(world.broker, "DELETE", `/v1/secrets/${randomUUID()}`, auth), 401, "unauthorized");
    }
  });

  it("creates an item with 201 and metadata only: the value never comes back", async () => {
    const value = world.fakes.linear.addApiKey();
    const created = await create({ provider: "tracker", env: "test", name: "linear-prod", value });
    expect(created.status, created.text).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(METADATA_FIELDS);
    expect(created.body).toMatchObject({ provider: "tracker", env: "test", name: "linear-prod", created_at: clock.now().toISOString(), last_used_at: null });
    expect(created.text).not.toContain(value);

    const row = await world.broker.services.store.db.selectFrom("secret_items").selectAll().where("id", "=", created.body.secret_item_id).executeTakeFirstOrThrow();
    expect(row.value_sealed).toMatch(/^dk1\./);
    expect(JSON.stringify(row)).not.toContain(value);
  });

  it("lists the tenant's items as metadata, and nothing of another tenant's", async () => {
    const value = `lin_api_${randomUUID()}`;
    const created = await create({ provider: "tracker", env: "live", name: "listed", value });
    const listed = await call(world.broker, "GET", "/v1/secrets", asOperator(world.tenant));
    expect(listed.status).toBe(200);
    const entry = listed.body.data.find((item: { secret_item_id: string }) => item.secret_item_id === created.body.secret_item_id);
    expect(entry).toEqual(created.body);
    for (const item of listed.body.data) expect(Object.keys(item).sort()).toEqual(METADATA_FIELDS);
    expect(listed.text).not.toContain(value);
    expect((await call(world.broker, "GET", "/v1/secrets", asOperator(other))).body.data).toEqual([]);
  });

  it("refuses a provider that takes no API keys with 422, and an unknown provider with 404", async () => {
    for (const provider of ["scm", "chat"]) {
      const refused = await create({ provider, env: "test", name: "nope", value: "ghp_not_stored" });
      expectError(refused, 422, "unprocessable");
      expect(refused.body.error.message).toContain(provider);
    }
    expectError(await create({ provider: "crm", env: "test", name: "nope", value: "x" }), 404, "not_found");
    const names = (await call(world.broker, "GET", "/v1/secrets", asOperator(world.tenant))).body.data.map((i: { name: string }) => i.name);
    expect(names).not.toContain("nope");
  });

  it("refuses a second item with the same name for the same provider and env with 409", async () => {
    expect((await create({ provider: "tracker", env: "test", name: "twice", value: "lin_api_one" })).status).toBe(201);
    expectError(await create({ provider: "tracker", env: "test", name: "twice", value: "lin_api_two" }), 409, "conflict");
    expect((await create({ provider: "tracker", env: "live", name: "twice", value: "lin_api_three" })).status).toBe(201);
  });

  it("rejects malformed bodies with 400 and stores nothing", async () => {
    for (const body of [
      { provider: "tracker", env: "test", name: "no-value" },
      { provider: "tracker", env: "test", name: "empty", value: "" },
      { provider: "tracker", env: "prod", name: "bad-env", value: "x" },
      { provider: "tracker", env: "test", name: "extra", value: "x", note: "?" },
    ]) {
      expect((await create(body)).status).toBe(400);
    }
  });

  it("lets only admins create and delete items; viewers may list", async () => {
    const issuer = world.broker.runtime.developmentIssuer!;
    await world.broker.services.tenants.addMember(world.tenant.tenantId, { issuer: issuer.issuer, subject: "viewer", role: "viewer" }, "test");
    const viewer = { token: await issuer.issue("viewer"), tenant: world.tenant.tenantId };
    const created = await create({ provider: "tracker", env: "test", name: "guarded", value: "lin_api_guarded" });
    expectError(await call(world.broker, "POST", "/v1/secrets", { ...viewer, body: { provider: "tracker", env: "test", name: "v", value: "x" } }), 403, "forbidden");
    expectError(await call(world.broker, "DELETE", `/v1/secrets/${created.body.secret_item_id}`, viewer), 403, "forbidden");
    expect((await call(world.broker, "GET", "/v1/secrets", viewer)).status).toBe(200);
  });

  it("executes tracker.list_issues with the item's API key, sent bare as Linear expects", async () => {
    const key = world.fakes.linear.addApiKey();
    const created = await create({ provider: "tracker", env: "test", name: "for-agents", value: key });
    clock.advance(60_000);
    const result = await listIssues(created.body.secret_item_id);
    expect(result.status, result.text).toBe(200);
    expect(result.body.result.issues.length).toBeGreaterThan(0);
    expect(world.fakes.linear.stats.apiCalls.at(-1)!.authorization).toBe(key);
    expect(result.text).not.toContain(key);

    const listed = await call(world.broker, "GET", "/v1/secrets", asOperator(world.tenant));
    const entry = listed.body.data.find((item: { secret_item_id: string }) => item.secret_item_id === created.body.secret_item_id);
    expect(entry.last_used_at).toBe(clock.now().toISOString());
  });

  it("refuses an item of the other env, of another tenant, or given to an OAuth-only tool", async () => {
    const live = await create({ provider: "tracker", env: "live", name: "live-only", value: world.fakes.linear.addApiKey() });
    expectError(await listIssues(live.body.secret_item_id), 422, "credential_mismatch");

    const theirs = await create({ provider: "tracker", env: "test", name: "theirs", value: world.fakes.linear.addApiKey() }, other);
    expectError(await listIssues(theirs.body.secret_item_id), 404, "not_found");

    const mine = await create({ provider: "tracker", env: "test", name: "not-for-github", value: "lin_api_mine" });
    const mismatch = await executeTool(world.broker, world.tenant, { tool_name: "scm.get_authenticated_user", secret_item_id: mine.body.secret_item_id });
    expectError(mismatch, 422, "credential_mismatch");
  });

  it("deletes an item: it leaves the list, and agents naming it get 404", async () => {
    const key = world.fakes.linear.addApiKey();
    const created = await create({ provider: "tracker", env: "test", name: "short-lived", value: key });
    const id = created.body.secret_item_id as string;
    expect((await listIssues(id)).status).toBe(200);

    const deleted = await call(world.broker, "DELETE", `/v1/secrets/${id}`, asOperator(world.tenant));
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ secret_item_id: id, deleted: true });
    expect(deleted.text).not.toContain(key);
    const listed = await call(world.broker, "GET", "/v1/secrets", asOperator(world.tenant));
    expect(listed.body.data.map((i: { secret_item_id: string }) => i.secret_item_id)).not.toContain(id);
    expect(await world.broker.services.store.db.selectFrom("secret_items").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
    expectError(await listIssues(id), 404, "not_found");
    expectError(await call(world.broker, "DELETE", `/v1/secrets/${id}`, asOperator(world.tenant)), 404, "not_found");
  });

  it("answers 404 to another tenant deleting an item, and keeps it", async () => {
    const created = await create({ provider: "tracker", env: "test", name: "kept", value: world.fakes.linear.addApiKey() });
    expectError(await call(world.broker, "DELETE", `/v1/secrets/${created.body.secret_item_id}`, asOperator(other)), 404, "not_found");
    expect((await listIssues(created.body.secret_item_id)).status).toBe(200);
  });

  it("records creation and deletion in the audit log without the value", async () => {
    const value = `lin_api_${randomUUID()}`;
    const created = await create({ provider: "tracker", env: "test", name: "audited", value });
    await call(world.broker, "DELETE", `/v1/secrets/${created.body.secret_item_id}`, asOperator(world.tenant));
    const audit = await call(world.broker, "GET", "/v1/audit?limit=200", asOperator(world.tenant));
    const actions = audit.body.data.filter((e: { target: { id: string } | null }) => e.target?.id === created.body.secret_item_id).map((e: { action: string }) => e.action);
    expect(actions.sort()).toEqual(["secret_item.created", "secret_item.deleted"]);
    expect(audit.text).not.toContain(value);
  });
});
