/**
 * Issue 36, item 9: an end user deleted while their OAuth callback is exchanging the code never
 * gains the connection. The fake provider holds its token answer until the delete has answered;
 * the callback then stores nothing, revokes the grant it just obtained, and says why.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { outboxEvents } from "./support/approvals.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { completeAuthorization } from "./support/fake-upstreams/index.js";
import { asOperator, call } from "./support/http.js";
import { startToolWorld, type ToolWorld } from "./support/tool-execution.js";

const HTML = { accept: "text/html,application/xhtml+xml" };
const path = (url: string) => new URL(url).pathname + new URL(url).search;

describeEachDatabase("deleting an end user during their OAuth callback", (kind) => {
  let world: ToolWorld;

  beforeAll(async () => {
    world = await startToolWorld(kind);
  });
  afterAll(() => world.close());

  /** A connect session for the end user, followed as a browser up to the provider's redirect back. */
  async function approvedAtProvider(endUserId: string) {
    const session = await call(world.broker, "POST", "/v1/connect-sessions", { token: world.tenant.testKey, body: { end_user_id: endUserId, providers: ["scm"] } });
    expect(session.status, session.text).toBe(201);
    const start = await call(world.broker, "GET", `${path(session.body.connect_url)}/scm`, { headers: HTML });
    expect(start.status, start.text).toBe(302);
    const authorization = await completeAuthorization(start.headers.get("location")!);
    return { callbackPath: path(authorization.location!.toString()), cookie: start.headers.get("set-cookie")!.split(";")[0]! };
  }

  const connectionsOf = async (endUserId: string) =>
    (await call(world.broker, "GET", `/v1/connections?end_user_id=${endUserId}`, asOperator(world.tenant))).body.data as { status: string }[];

  it("stores nothing for a callback whose token answer arrives after the delete, revokes that grant and answers oauth_state_invalid", async () => {
    const { callbackPath, cookie } = await approvedAtProvider("erin");
    const held = world.fakes.github.holdNextTokenRequest();
    const callback = call(world.broker, "GET", callbackPath, { headers: { cookie } });
    await held.arrived;

    const deleted = await call(world.broker, "DELETE", "/v1/end-users/erin", asOperator(world.tenant));
    expect(deleted.body).toEqual({ end_user_id: "erin", connections_revoked: 0, secret_items_deleted: 0 });
    const revocationsBefore = world.fakes.github.stats.revocations;
    held.release();

    const answer = await callback;
    expectError(answer, 400, "oauth_state_invalid");
    expect(answer.body.error).toMatchObject({ message: "the end user was deleted while this connection was being made; nothing was stored", details: { reason: "end_user_deleted" } });
    expect(await connectionsOf("erin")).toEqual([]);
    expect(world.fakes.github.stats.revocations).toBe(revocationsBefore + 1);
    const created = await outboxEvents(world.broker, world.tenant.tenantId, "connection.created");
    expect(created.filter((event) => event.data.end_user_id === "erin")).toEqual([]);
  });

  it("counts and revokes a connection whose callback stored it before the delete", async () => {
    const { callbackPath, cookie } = await approvedAtProvider("frank");
    const stored = await call(world.broker, "GET", callbackPath, { headers: { cookie } });
    expect(stored.status, stored.text).toBe(200);
    const deleted = await call(world.broker, "DELETE", "/v1/end-users/frank", asOperator(world.tenant));
    expect(deleted.body).toEqual({ end_user_id: "frank", connections_revoked: 1, secret_items_deleted: 0 });
    expect((await connectionsOf("frank")).map((connection) => connection.status)).toEqual(["revoked"]);
  });
});
