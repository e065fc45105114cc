/**
 * The credential handle of an execute call must be this tenant's (else 404, indistinguishable
 * from a handle that does not exist), for the tool's provider and the caller's env (else 422
 * credential_mismatch), and usable (else 422 connection_unusable, reconnect required). Policy
 * denials are 403; a stored credential the vault cannot open is 503. None reaches the upstream.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createTenant, type TestTenant } from "./support/broker.js";
import { connectAccount } from "./support/connect.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { connect, execute, startToolWorld, storeLinearKey, type ToolWorld } from "./support/tool-execution.js";

const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

describeEachDatabase("POST /v1/tools/execute: credential handles, policy and vault", (kind) => {
  let world: ToolWorld;
  let scm: string;
  let chat: string;
  let linearKey: string;
  let other: { tenant: TestTenant; jwt: string; scm: string; linearKey: string };
  let upstreamCallsBefore: number;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    scm = await connect(world, "scm");
    chat = await connect(world, "chat");
    linearKey = (await storeLinearKey(world)).secretItemId;
    const tenant = await createTenant(world.broker, "Globex");
    other = {
      tenant,
      jwt: await mintBrokerToken(world.broker, tenant),
      scm: await connectAccount(world.broker, tenant, "scm"),
      linearKey: (await storeLinearKey({ ...world, tenant })).secretItemId,
    };
  });
  afterAll(() => world.close());

  const upstreamCalls = () => world.fakes.github.stats.apiCalls.length + world.fakes.slack.stats.apiCalls.length + world.fakes.linear.stats.apiCalls.length;
  beforeEach(() => {
    upstreamCallsBefore = upstreamCalls();
  });
  const expectNoUpstreamCall = () => expect(upstreamCalls()).toBe(upstreamCallsBefore);
  const getUser = (handle: { connected_account_id?: string; secret_item_id?: string }, token = world.jwt) =>
    execute(world.broker, token, { tool_name: "scm.get_authenticated_user", ...handle });

  it("uses the one usable account when no handle is named, and refuses with 422 credential_required when there is none", async () => {
    const scmResult = await getUser({});
    expect(scmResult.status, JSON.stringify(scmResult.body)).toBe(200);
    expect(scmResult.body.result.login).toBe("octocat");
    const calls = upstreamCalls();
    // Nothing is connected in live: every tool there lacks a credential.
    const live = await mintBrokerToken(world.broker, world.tenant, "live");
    const liveScm = await getUser({}, live);
    expectError(liveScm, 422, "credential_required");
    expect(liveScm.body.error.details.accepts).toEqual(["oauth2"]);
    const tracker = await execute(world.broker, live, { tool_name: "tracker.list_issues", connected_account_id: null, secret_item_id: null });
    expectError(tracker, 422, "credential_required");
    expect(tracker.body.error.details.accepts).toEqual(["oauth2", "api_key"]);
    expect(upstreamCalls()).toBe(calls);
  });

  it("answers 404 for a connected_account_id or secret_item_id that does not exist", async () => {
    expectError(await getUser({ connected_account_id: UNKNOWN_ID }), 404, "not_found");
    expectError(await execute(world.broker, world.jwt, { tool_name: "tracker.list_issues", secret_item_id: UNKNOWN_ID }), 404, "not_found");
    expectNoUpstreamCall();
  });

  it("answers 404, exactly as for a missing handle, when an agent app uses another tenant's connected account", async () => {
    const foreign = await getUser({ connected_account_id: other.scm });
    const missing = await getUser({ connected_account_id: UNKNOWN_ID });
    expectError(foreign, 404, "not_found");
    expect(foreign.body.error.message).toBe(missing.body.error.message);
    expectError(await getUser({ connected_account_id: scm }, other.jwt), 404, "not_found");
    expectNoUpstreamCall();
  });

  it("answers 404 when an agent app uses another tenant's secret item, with a JWT or a control key", async () => {
    expectError(await execute(world.broker, world.jwt, { tool_name: "tracker.list_issues", secret_item_id: other.linearKey }), 404, "not_found");
    const byKey = await execute(world.broker, other.tenant.testKey, { tool_name: "tracker.list_issues", secret_item_id: linearKey, agent_app_id: other.tenant.agentAppId });
    expectError(byKey, 404, "not_found");
    expectNoUpstreamCall();
  });

  it("answers 404 when a control key names another tenant's agent app", async () => {
    const result = await execute(world.broker, world.tenant.testKey, { tool_name: "scm.get_authenticated_user", connected_account_id: scm, agent_app_id: other.tenant.agentAppId });
    expectError(result, 404, "not_found");
    expectNoUpstreamCall();
  });

  it("refuses a connection of another provider with 422 credential_mismatch (reason provider)", async () => {
    const result = await getUser({ connected_account_id: chat });
    expectError(result, 422, "credential_mismatch");
    expect(result.body.error.details.reason).toBe("provider");
    expectNoUpstreamCall();
  });

  it("refuses a test-env connection in a live call with 422 credential_mismatch (reason env), with a JWT or a control key", async () => {
    const liveJwt = await mintBrokerToken(world.broker, world.tenant, "live");
    const byJwt = await getUser({ connected_account_id: scm }, liveJwt);
    expectError(byJwt, 422, "credential_mismatch");
    expect(byJwt.body.error.details.reason).toBe("env");
    const byKey = await execute(world.broker, world.tenant.liveKey, { tool_name: "scm.get_authenticated_user", connected_account_id: scm, agent_app_id: world.tenant.agentAppId });
    expectError(byKey, 422, "credential_mismatch");
    expect(byKey.body.error.details.reason).toBe("env");
    expectNoUpstreamCall();
  });

  it("refuses a live-env secret item in a test call with 422 credential_mismatch (reason env)", async () => {
    const live = await storeLinearKey(world, "live");
    const result = await execute(world.broker, world.jwt, { tool_name: "tracker.list_issues", secret_item_id: live.secretItemId });
    expectError(result, 422, "credential_mismatch");
    expect(result.body.error.details.reason).toBe("env");
    expectNoUpstreamCall();
  });

  it("refuses a secret item for a tool that only takes OAuth with 422 credential_mismatch (reason auth_mode)", async () => {
    const result = await getUser({ secret_item_id: linearKey });
    expectError(result, 422, "credential_mismatch");
    expect(result.body.error.details.reason).toBe("auth_mode");
    expectNoUpstreamCall();
  });

  it("refuses a revoked connection with 422 connection_unusable asking for a reconnect", async () => {
    const revoked = await connect(world, "scm");
    expect((await call(world.broker, "DELETE", `/v1/connections/${revoked}`, asOperator(world.tenant))).status).toBe(200);
    upstreamCallsBefore = upstreamCalls();
    const result = await getUser({ connected_account_id: revoked });
    expectError(result, 422, "connection_unusable");
    expect(result.body.error.details).toMatchObject({ connection_status: "revoked", reconnect_required: true });
    expectNoUpstreamCall();
  });

  it("answers 403 policy_denied, naming the rule, when the tenant's policy denies the call", async () => {
    const rules = [{ id: "no-posts-to-general", effect: "deny", tools: ["chat.*"], conditions: [{ pointer: "/channel", equals: "general" }] }];
    expect((await call(world.broker, "PUT", "/v1/policy", { ...asOperator(world.tenant), body: { env: "test", rules } })).status).toBe(200);
    try {
      const denied = await execute(world.broker, world.jwt, { tool_name: "chat.post_message", arguments: { channel: "general", text: "hi" }, connected_account_id: chat });
      expectError(denied, 403, "policy_denied");
      expect(denied.body.error.details.rule_id).toBe("no-posts-to-general");
      expectNoUpstreamCall();
      const allowed = await execute(world.broker, world.jwt, { tool_name: "chat.post_message", arguments: { channel: "random", text: "hi" }, connected_account_id: chat });
      expect(allowed.status).toBe(200);
    } finally {
      await call(world.broker, "PUT", "/v1/policy", { ...asOperator(world.tenant), body: { env: "test", rules: [] } });
    }
  });

  it("answers 503 vault_unavailable, calling no upstream, when a stored credential cannot be decrypted", async () => {
    const tampered = await connect(world, "chat");
    const db = world.broker.services.store.db;
    // A ciphertext moved from another row fails its AAD check: the vault refuses it.
    const donor = await db.selectFrom("connections").select("credential_sealed").where("id", "=", chat).executeTakeFirstOrThrow();
    await db.updateTable("connections").set({ credential_sealed: donor.credential_sealed }).where("id", "=", tampered).execute();
    world.broker.services.connectionCache.invalidate(tampered);
    upstreamCallsBefore = upstreamCalls();
    const result = await execute(world.broker, world.jwt, { tool_name: "chat.list_channels", connected_account_id: tampered });
    expectError(result, 503, "vault_unavailable");
    expectNoUpstreamCall();
  });

  it("marks a connection whose refresh token is dead expired: 422 connection_unusable now and on later calls", async () => {
    const tracker = await connect(world, "tracker");
    world.fakes.linear.expireAllAccessTokens();
    world.fakes.linear.revokeAllRefreshTokens();
    const first = await execute(world.broker, world.jwt, { tool_name: "tracker.list_issues", connected_account_id: tracker });
    expectError(first, 422, "connection_unusable");
    expect(first.body.error.details).toMatchObject({ connection_status: "expired", reconnect_required: true });
    const callsAfterFirst = world.fakes.linear.stats.apiCalls.length;
    const later = await execute(world.broker, world.jwt, { tool_name: "tracker.list_issues", connected_account_id: tracker });
    expectError(later, 422, "connection_unusable");
    expect(later.body.error.details.connection_status).toBe("expired");
    expect(world.fakes.linear.stats.apiCalls.length).toBe(callsAfterFirst);
    const listed = await call(world.broker, "GET", `/v1/connections/${tracker}`, asOperator(world.tenant));
    expect(listed.body.status).toBe("expired");
  });
});
