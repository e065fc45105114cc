/**
 * SPEC §1.1, §5.7 and DESIGN §1: no response body and no log line ever carries an upstream
 * access or refresh token, an OAuth client secret, a PKCE code verifier or a secret item's value
 * — through connecting, calling tools (with fakes that echo the credential back), refreshing,
 * failing, listing, auditing and revoking. The broker logs at trace level so every line it could
 * write is searched.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { connectThroughBrowser } from "./support/connect.js";
import { codeVerifierOf, executeTool, startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { completeAuthorization } from "./support/fake-upstreams/index.js";
import { asOperator, call, findSecret, mintBrokerToken } from "./support/http.js";

const TOOLS = { scm: "scm.get_authenticated_user", chat: "chat.list_channels", tracker: "tracker.list_issues" } as const;
type Provider = keyof typeof TOOLS;

describeEachDatabase("no secret in any response or log line", (kind) => {
  const clock = manualClock();
  let world: ConnectionsWorld;
  const verifiers: string[] = [];
  const secretValues: string[] = [];
  const connections = {} as Record<Provider, string>;
  const invocations: string[] = [];

  const fakes = () => [world.fakes.github, world.fakes.slack, world.fakes.linear];
  const operator = () => asOperator(world.tenant);

  async function execute(body: Record<string, unknown>) {
    const result = await executeTool(world.broker, world.tenant, body, await mintBrokerToken(world.broker, world.tenant));
    if (result.body?.invocation_id) invocations.push(result.body.invocation_id);
    if (result.body?.error?.details?.invocation_id) invocations.push(result.body.error.details.invocation_id);
    return result;
  }
  const useAll = () => Promise.all((Object.keys(TOOLS) as Provider[]).map((p) => execute({ tool_name: TOOLS[p], connected_account_id: connections[p] })));

  beforeAll(async () => {
    world = await startConnectionsWorld(kind, { clock, env: { BROKER_LOG_LEVEL: "trace" } });
    for (const fake of fakes()) fake.echoCredentials(true);

    // Connect all three, keeping each start's code verifier to search for.
    for (const provider of Object.keys(TOOLS) as Provider[]) {
      const { start, callback } = await connectThroughBrowser(world.broker, world.tenant, provider);
      expect(callback.status, callback.text).toBe(200);
      connections[provider] = callback.body.connected_account_id;
      verifiers.push(await codeVerifierOf(world.broker, world.tenant.tenantId, start.body.state));
    }
    // A connect whose code exchange fails, and a replay of a successful callback.
    const failing = await call(world.broker, "POST", "/v1/connections/oauth/start", { ...operator(), body: { provider: "tracker" } });
    verifiers.push(await codeVerifierOf(world.broker, world.tenant.tenantId, failing.body.state));
    const authorization = await completeAuthorization(failing.body.authorize_url);
    world.fakes.linear.failNextTokenRequest(1, { status: 400, body: { error: "invalid_grant", error_description: "no" } });
    expect((await call(world.broker, "GET", `${authorization.location!.pathname}${authorization.location!.search}`)).status).toBe(400);

    // Tool calls whose upstream answers echo the credential in bodies and headers.
    expect((await useAll()).map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await execute({ tool_name: "chat.post_message", arguments: { channel: "#general", text: "hello" }, connected_account_id: connections.chat })).status).toBe(200);

    // Refresh ahead of expiry, and after an upstream 401 on a token that looked valid.
    clock.advance(2 * 3600_000);
    expect((await useAll()).map((r) => r.status)).toEqual([200, 200, 200]);
    for (const fake of fakes()) fake.expireAllAccessTokens();
    expect((await useAll()).map((r) => r.status)).toEqual([200, 200, 200]);

    // An upstream error message that quotes the current token.
    const current = world.fakes.github.issuedSecrets().at(-2)!;
    world.fakes.github.failNext(1, { status: 422, body: { message: `Validation Failed for token ${current}` } });
    expect((await execute({ tool_name: TOOLS.scm, connected_account_id: connections.scm })).status).toBe(502);

    // Secret items: create, list, use (the Linear fake echoes the key), delete.
    for (const name of ["kept", "deleted"]) {
      const value = world.fakes.linear.addApiKey();
      secretValues.push(value);
      const created = await call(world.broker, "POST", "/v1/secrets", { ...operator(), body: { provider: "tracker", env: "test", name, value } });
      expect(created.status).toBe(201);
      expect((await execute({ tool_name: TOOLS.tracker, secret_item_id: created.body.secret_item_id })).status).toBe(200);
      if (name === "deleted") await call(world.broker, "DELETE", `/v1/secrets/${created.body.secret_item_id}`, operator());
    }
    const refusedValue = "ghp_refusedBecauseGitHubTakesNoApiKeys0123";
    secretValues.push(refusedValue);
    expect((await call(world.broker, "POST", "/v1/secrets", { ...operator(), body: { provider: "scm", env: "test", name: "x", value: refusedValue } })).status).toBe(422);
    await call(world.broker, "GET", "/v1/secrets", operator());

    // A dead refresh token expires one connection.
    world.fakes.linear.revokeAllRefreshTokens();
    clock.advance(2 * 3600_000);
    expect((await execute({ tool_name: TOOLS.tracker, connected_account_id: connections.tracker })).status).toBe(422);

    // Everything an operator can read, then revocation.
    await call(world.broker, "GET", "/v1/connections", operator());
    for (const id of Object.values(connections)) await call(world.broker, "GET", `/v1/connections/${id}`, operator());
    for (const id of invocations) await call(world.broker, "GET", `/v1/tools/invocations/${id}`, { token: world.tenant.testKey });
    await call(world.broker, "GET", "/v1/audit?limit=200", operator());
    await call(world.broker, "GET", "/health");
    for (const id of Object.values(connections)) expect((await call(world.broker, "DELETE", `/v1/connections/${id}`, operator())).status).toBe(200);
  }, 60_000);
  afterAll(() => world.close());

  it("exercised what it claims: logs written, credentials echoed upstream, invocations readable", () => {
    // At least one line per request (the broker logs each request once, when it completes).
    expect(world.broker.responses.length).toBeGreaterThan(50);
    expect(world.broker.logs.length).toBeGreaterThanOrEqual(world.broker.responses.length);
    expect(invocations.length).toBeGreaterThan(10);
    for (const fake of fakes()) expect(fake.stats.apiCalls.some((c) => c.authorization)).toBe(true);
    expect(world.fakes.github.stats.refreshGrants + world.fakes.slack.stats.refreshGrants + world.fakes.linear.stats.refreshGrants).toBeGreaterThanOrEqual(6);
    expect(verifiers).toHaveLength(4);
  });

  it("never shows an upstream access or refresh token", () => {
    const tokens = fakes().flatMap((fake) => fake.issuedSecrets()).filter((s) => !secretValues.includes(s));
    expect(tokens.length).toBeGreaterThanOrEqual(18);
    for (const token of tokens) expect(findSecret(world.broker, token), token.slice(0, 8)).toEqual([]);
  });

  it("never shows an OAuth client secret", () => {
    for (const fake of fakes()) expect(findSecret(world.broker, fake.clientSecret)).toEqual([]);
  });

  it("never shows a PKCE code verifier", () => {
    for (const verifier of verifiers) expect(findSecret(world.broker, verifier)).toEqual([]);
  });

  it("never shows a secret item's value, used, deleted or refused", () => {
    for (const value of secretValues) expect(findSecret(world.broker, value)).toEqual([]);
  });
});
