/**
 * Issue 41: secret items as the console manages them. Each item shows a hint (the value's last
 * four characters, never the value); `POST /v1/secrets/{id}/rotate` replaces the value in place
 * (same id, so agents go on naming it); an operator may store a key for one end user; the list
 * filters by provider, env and end user. No value ever comes back, in any answer or log line.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, type TestTenant } from "./support/broker.js";
import { executeTool, startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, findSecret, mintBrokerToken } from "./support/http.js";

describeEachDatabase("rotating, filtering and hinting secret items", (kind) => {
  let world: ConnectionsWorld;
  let other: TestTenant;

  beforeAll(async () => {
    world = await startConnectionsWorld(kind);
    other = await createTenant(world.broker, "Other Corp");
  });
  afterAll(() => world.close());

  const create = (body: Record<string, unknown>, tenant: TestTenant = world.tenant) => call(world.broker, "POST", "/v1/secrets", { ...asOperator(tenant), body });
  const rotate = (id: string, body: Record<string, unknown>, auth: { token?: string; tenant?: string } = asOperator(world.tenant)) =>
    call(world.broker, "POST", `/v1/secrets/${id}/rotate`, { ...auth, body });
  const list = (query = "", tenant: TestTenant = world.tenant) => call(world.broker, "GET", `/v1/secrets${query}`, asOperator(tenant));
  const listIssues = (secretItemId: string, token?: string) => executeTool(world.broker, world.tenant, { tool_name: "tracker.list_issues", arguments: { first: 5 }, secret_item_id: secretItemId }, token);
  async function endUserToken(endUserId: string): Promise<string> {
    const minted = await call(world.broker, "POST", "/v1/broker/token", { token: world.tenant.testKey, body: { agent_app_id: world.tenant.agentAppId, env: "test", end_user_id: endUserId } });
    expect(minted.status, minted.text).toBe(200);
    return minted.body.access_token as string;
  }

  it("answers 401 to rotate without an operator session, also to a control key or an agent's broker JWT", async () => {
    const jwt = await mintBrokerToken(world.broker, world.tenant);
    for (const token of [undefined, jwt, world.tenant.testKey]) {
      expectError(await rotate(randomUUID(), { value: "lin_api_x" }, token ? { token, tenant: world.tenant.tenantId } : {}), 401, "unauthorized");
    }
  });

  it("shows the last four characters of a value of 16 or more as value_hint, and no hint for a shorter one", async () => {
    const long = world.fakes.linear.addApiKey();
    const created = await create({ provider: "tracker", env: "test", name: "hinted", value: long });
    expect(created.status, created.text).toBe(201);
    expect(created.body.value_hint).toBe(long.slice(-4));
    const short = await create({ provider: "tracker", env: "test", name: "short", value: "lin_api_short" });
    expect(short.body.value_hint).toBeNull();
    const row = await world.broker.services.store.db.selectFrom("secret_items").select("value_hint").where("id", "=", created.body.secret_item_id).executeTakeFirstOrThrow();
    expect(row.value_hint).toBe(long.slice(-4));
    expect(created.text).not.toContain(long);
  });

  it("rotates a value in place: same id, a new hint, the next call sends the new key, and neither key comes back", async () => {
    const first = world.fakes.linear.addApiKey();
    const created = await create({ provider: "tracker", env: "test", name: "rotated", value: first });
    const id = created.body.secret_item_id as string;
    expect((await listIssues(id)).status).toBe(200);
    expect(world.fakes.linear.stats.apiCalls.at(-1)!.authorization).toBe(first);

    const second = world.fakes.linear.addApiKey();
    const rotated = await rotate(id, { value: second });
    expect(rotated.status, rotated.text).toBe(200);
    // Everything but the hint (and the use just made) is as it was.
    expect(rotated.body).toEqual({ ...created.body, last_used_at: rotated.body.last_used_at, value_hint: second.slice(-4) });
    const called = await listIssues(id);
    expect(called.status, called.text).toBe(200);
    expect(world.fakes.linear.stats.apiCalls.at(-1)!.authorization).toBe(second);

    const listed = await list("?provider=tracker");
    expect(listed.body.data.find((item: { secret_item_id: string }) => item.secret_item_id === id)).toMatchObject({ value_hint: second.slice(-4) });
    const audit = await call(world.broker, "GET", "/v1/audit?action=secret_item.rotated", asOperator(world.tenant));
    expect(audit.body.data[0]).toMatchObject({ action: "secret_item.rotated", target: { type: "secret_item", id }, data: { provider: "tracker", env: "test", name: "rotated" } });
    for (const value of [first, second]) {
      for (const text of [rotated.text, listed.text, called.text, audit.text]) expect(text).not.toContain(value);
      expect(findSecret(world.broker, value)).toEqual([]);
    }
    const stored = await world.broker.services.store.db.selectFrom("secret_items").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(second);
  });

  it("makes an item set aside after its provider moved (origin_changed) usable again", async () => {
    const created = await create({ provider: "tracker", env: "test", name: "moved", value: world.fakes.linear.addApiKey() });
    const id = created.body.secret_item_id as string;
    await world.broker.services.store.db.updateTable("secret_items").set({ reconnect_reason: "origin_changed", api_origin: "https://elsewhere.example" }).where("id", "=", id).execute();
    expectError(await listIssues(id), 422, "connection_unusable");
    const rotated = await rotate(id, { value: world.fakes.linear.addApiKey() });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.reconnect_reason).toBeNull();
    expect((await listIssues(id)).status).toBe(200);
  });

  it("answers 404 to rotating another tenant's item or an unknown one, and changes nothing", async () => {
    const value = world.fakes.linear.addApiKey();
    const theirs = await create({ provider: "tracker", env: "test", name: "theirs", value }, other);
    expectError(await rotate(theirs.body.secret_item_id, { value: "lin_api_intruder_value" }), 404, "not_found");
    expectError(await rotate(randomUUID(), { value: "lin_api_nothing_here" }), 404, "not_found");
    const after = (await list("", other)).body.data.find((item: { secret_item_id: string }) => item.secret_item_id === theirs.body.secret_item_id);
    expect(after.value_hint).toBe(value.slice(-4));
    expect((await call(world.broker, "GET", "/v1/audit?action=secret_item.rotated", asOperator(other))).body.data).toEqual([]);
  });

  it("refuses a malformed rotate body with 400, a viewer with 403, and keeps the old value", async () => {
    const value = world.fakes.linear.addApiKey();
    const id = (await create({ provider: "tracker", env: "test", name: "guarded", value })).body.secret_item_id as string;
    for (const body of [{}, { value: "" }, { value: "x", name: "renamed" }]) expectError(await rotate(id, body), 400, "invalid_request");
    expectError(await call(world.broker, "POST", `/v1/secrets/not-a-uuid/rotate`, { ...asOperator(world.tenant), body: { value: "x" } }), 400, "invalid_request");
    const issuer = world.broker.runtime.developmentIssuer!;
    await world.broker.services.tenants.addMember(world.tenant.tenantId, { issuer: issuer.issuer, subject: "rotate-viewer", role: "viewer" }, "test");
    expectError(await rotate(id, { value: "lin_api_viewer_value" }, { token: await issuer.issue("rotate-viewer"), tenant: world.tenant.tenantId }), 403, "forbidden");
    expect((await listIssues(id)).status).toBe(200);
    expect(world.fakes.linear.stats.apiCalls.at(-1)!.authorization).toBe(value);
  });

  it("stores a key for one end user: only calls acting for that end user may use it", async () => {
    const endUser = `user-${randomUUID()}`;
    const created = await create({ provider: "tracker", env: "test", name: "for-one-user", value: world.fakes.linear.addApiKey(), end_user_id: endUser });
    expect(created.status, created.text).toBe(201);
    expect(created.body.end_user_id).toBe(endUser);
    const id = created.body.secret_item_id as string;
    expect((await listIssues(id, await endUserToken(endUser))).status).toBe(200);
    expectError(await listIssues(id, await endUserToken(`someone-else-${randomUUID()}`)), 404, "not_found");
    const audit = await call(world.broker, "GET", "/v1/audit?action=secret_item.created", asOperator(world.tenant));
    expect(audit.body.data.find((event: { target: { id: string } }) => event.target.id === id)).toMatchObject({ end_user_id: endUser });
    expectError(await create({ provider: "tracker", env: "test", name: "bad-user", value: "lin_api_x", end_user_id: "" }), 400, "invalid_request");
  });

  it("filters the list by provider, env and end user", async () => {
    const endUser = `filter-${randomUUID()}`;
    const mine = await create({ provider: "tracker", env: "live", name: `filtered-${randomUUID()}`, value: "lin_api_filtered", end_user_id: endUser });
    const ids = (response: { body: { data: { secret_item_id: string }[] } }) => response.body.data.map((item) => item.secret_item_id);
    expect(ids(await list(`?end_user_id=${endUser}`))).toEqual([mine.body.secret_item_id]);
    expect(ids(await list(`?end_user_id=${endUser}&env=test`))).toEqual([]);
    expect(ids(await list(`?end_user_id=${endUser}&env=live&provider=tracker`))).toEqual([mine.body.secret_item_id]);
    const live = (await list("?env=live")).body.data as { env: string }[];
    expect(live.length).toBeGreaterThan(0);
    expect(live.every((item) => item.env === "live")).toBe(true);
    expect((await list("?provider=scm")).body.data).toEqual([]);
    expect((await list(`?end_user_id=${endUser}`, other)).body.data).toEqual([]);
    expectError(await list("?provider=NOT%20AN%20ID"), 400, "invalid_request");
    expectError(await list("?owner=me"), 400, "invalid_request");
  });
});
