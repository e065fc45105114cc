/**
 * Issue 3 and SPEC §5: connections are operator resources. Only an operator session reaches
 * them, an operator sees only the connections they made in the tenant they are signed in to,
 * and a handle from another tenant is `not_found` everywhere, including to agents.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { connectionRow, executeTool, startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { completeAuthorization } from "./support/fake-upstreams/index.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";

describeEachDatabase("connection access", (kind) => {
  let world: ConnectionsWorld;
  let other: TestTenant;
  /** A second admin of the first tenant. */
  let colleague: { token: string; tenant: string };
  let mine: string;

  beforeAll(async () => {
    world = await startConnectionsWorld(kind);
    other = await createTenant(world.broker, "Other Corp");
    const issuer = world.broker.runtime.developmentIssuer!;
    await world.broker.services.tenants.addMember(world.tenant.tenantId, { issuer: issuer.issuer, subject: "colleague", role: "viewer" }, "test");
    colleague = { token: await issuer.issue("colleague"), tenant: world.tenant.tenantId };
    mine = await connectAccount(world.broker, world.tenant, "scm");
  });
  afterAll(() => world.close());

  const routes = () => [
    ["POST", "/v1/connections/oauth/start", { provider: "scm" }],
    ["GET", "/v1/connections", undefined],
    ["GET", `/v1/connections/${mine}`, undefined],
    ["DELETE", `/v1/connections/${mine}`, undefined],
  ] as const;

  it("answers 401 to every operator route without a credential, and with an agent's or backend's credential", async () => {
    const brokerJwt = await mintBrokerToken(world.broker, world.tenant);
    for (const [method, path, body] of routes()) {
      expectError(await call(world.broker, method, path, { body }), 401, "unauthorized");
      expectError(await call(world.broker, method, path, { body, token: brokerJwt, tenant: world.tenant.tenantId }), 401, "unauthorized");
      expectError(await call(world.broker, method, path, { body, token: world.tenant.testKey, tenant: world.tenant.tenantId }), 401, "unauthorized");
    }
    expect((await connectionRow(world.broker, mine))?.status).toBe("active");
  });

  it("answers 404 to another tenant's operator for GET and DELETE, and leaves the connection alone", async () => {
    expectError(await call(world.broker, "GET", `/v1/connections/${mine}`, asOperator(other)), 404, "not_found");
    expectError(await call(world.broker, "DELETE", `/v1/connections/${mine}`, asOperator(other)), 404, "not_found");
    const listed = await call(world.broker, "GET", "/v1/connections", asOperator(other));
    expect(listed.body.data).toEqual([]);
    expect((await connectionRow(world.broker, mine))?.status).toBe("active");
    expect(world.fakes.github.stats.revocations).toBe(0);
  });

  it("answers 401 to an operator of the other tenant who names this tenant in the header", async () => {
    // Not a member here: naming the tenant grants nothing.
    for (const [method, path, body] of routes()) {
      expectError(await call(world.broker, method, path, { body, token: other.operatorToken, tenant: world.tenant.tenantId }), 401, "unauthorized");
    }
    expect((await connectionRow(world.broker, mine))?.status).toBe("active");
  });

  it("hides one operator's connections from a colleague (viewer) in the same tenant", async () => {
    const listed = await call(world.broker, "GET", "/v1/connections", colleague);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
    expectError(await call(world.broker, "GET", `/v1/connections/${mine}`, colleague), 404, "not_found");
    expectError(await call(world.broker, "DELETE", `/v1/connections/${mine}`, colleague), 404, "not_found");
    expect((await connectionRow(world.broker, mine))?.status).toBe("active");
  });

  it("gives a viewer's connection to them, and shows admins every connection of the tenant", async () => {
    const theirs = await connectAccount(world.broker, world.tenant, "chat", { operator: colleague });
    const colleagueList = await call(world.broker, "GET", "/v1/connections", colleague);
    expect(colleagueList.body.data.map((c: { connected_account_id: string }) => c.connected_account_id)).toEqual([theirs]);
    const adminList = await call(world.broker, "GET", "/v1/connections", asOperator(world.tenant));
    expect(adminList.body.data.map((c: { connected_account_id: string }) => c.connected_account_id).sort()).toEqual([mine, theirs].sort());
    expect((await call(world.broker, "GET", `/v1/connections/${theirs}`, asOperator(world.tenant))).status).toBe(200);
  });

  it("lets the tenant's agents use any connection of their tenant, and no other tenant's", async () => {
    const ok = await executeTool(world.broker, world.tenant, { tool_name: "scm.get_authenticated_user", connected_account_id: mine });
    expect(ok.status, ok.text).toBe(200);
    const calls = world.fakes.github.stats.apiCalls.length;
    expectError(await executeTool(world.broker, other, { tool_name: "scm.get_authenticated_user", connected_account_id: mine }), 404, "not_found");
    expect(world.fakes.github.stats.apiCalls.length).toBe(calls);
  });

  it("answers 404 for an unknown id and 400 for a malformed one", async () => {
    expectError(await call(world.broker, "GET", `/v1/connections/${randomUUID()}`, asOperator(world.tenant)), 404, "not_found");
    expectError(await call(world.broker, "DELETE", `/v1/connections/${randomUUID()}`, asOperator(world.tenant)), 404, "not_found");
    expect((await call(world.broker, "GET", "/v1/connections/not-a-uuid", asOperator(world.tenant))).status).toBe(400);
  });

  it("binds a started connection to the starting tenant even if another tenant's operator finishes it", async () => {
    // The callback carries no credential: the state alone says whose connection it is.
    const started = await call(world.broker, "POST", "/v1/connections/oauth/start", { ...asOperator(other), body: { provider: "tracker" } });
    const authorization = await completeAuthorization(started.body.authorize_url);
    const callback = await call(world.broker, "GET", `${authorization.location!.pathname}${authorization.location!.search}`, asOperator(world.tenant));
    expect(callback.status).toBe(200);
    const row = await connectionRow(world.broker, callback.body.connected_account_id);
    expect(row).toMatchObject({ tenant_id: other.tenantId, owner_subject: other.operatorSubject });
  });
});
