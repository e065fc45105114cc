/**
 * SPEC §1.1, §4 and issue 3: an operator connects a GitHub, Slack or Linear account through
 * OAuth 2 with PKCE S256. The callback answers only the `connected_account_id`; the tokens are
 * stored sealed and the upstream identity in clear. The fakes check the verifier against the
 * challenge, the redirect URI, the client credentials and single use of codes.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { connectThroughBrowser } from "./support/connect.js";
import { auditOf, connectionRow, executeTool, startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { DEFAULT_GITHUB_USER, DEFAULT_LINEAR_USER, DEFAULT_SLACK_USER, pkceChallengeOf, type FakeProvider } from "./support/fake-upstreams/index.js";
import { asOperator, call } from "./support/http.js";
import { meteredExecutionsOf } from "./support/tool-execution.js";

type ProviderCase = {
  provider: "scm" | "chat" | "tracker";
  vendor: string;
  fake: (world: ConnectionsWorld) => FakeProvider<unknown>;
  displayName: string;
  defaultScopes: string[];
  separator: string;
  tool: string;
};

const PROVIDERS: ProviderCase[] = [
  { provider: "scm", vendor: "GitHub", fake: (w) => w.fakes.github, displayName: DEFAULT_GITHUB_USER.login, defaultScopes: ["repo", "read:user"], separator: " ", tool: "scm.get_authenticated_user" },
  { provider: "chat", vendor: "Slack", fake: (w) => w.fakes.slack, displayName: DEFAULT_SLACK_USER.teamName, defaultScopes: ["channels:read", "chat:write", "channels:history", "users:read", "reactions:write"], separator: ",", tool: "chat.list_channels" },
  { provider: "tracker", vendor: "Linear", fake: (w) => w.fakes.linear, displayName: DEFAULT_LINEAR_USER.email, defaultScopes: ["read", "write"], separator: ",", tool: "tracker.list_issues" },
];

describeEachDatabase("OAuth connect flow", (kind) => {
  const clock = manualClock();
  let world: ConnectionsWorld;

  beforeAll(async () => {
    world = await startConnectionsWorld(kind, { clock });
  });
  afterAll(() => world.close());

  const start = (body: Record<string, unknown>) => call(world.broker, "POST", "/v1/connections/oauth/start", { ...asOperator(world.tenant), body });

  it("starts with a PKCE S256 challenge, a fresh state and verifier per start, and a 10-minute expiry", async () => {
    const first = await start({ provider: "scm" });
    const second = await start({ provider: "scm" });
    expect(first.status, first.text).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(["authorize_url", "expires_at", "state"]);
    expect(first.body.expires_at).toBe(new Date(clock.now().getTime() + 10 * 60_000).toISOString());

    const [a, b] = [new URL(first.body.authorize_url), new URL(second.body.authorize_url)];
    expect(`${a.origin}${a.pathname}`).toBe(`${world.fakes.github.url}/login/oauth/authorize`);
    expect(a.searchParams.get("client_id")).toBe(world.fakes.github.clientId);
    expect(a.searchParams.get("redirect_uri")).toBe(`${world.broker.config.publicUrl}/v1/connections/oauth/callback`);
    expect(a.searchParams.get("response_type")).toBe("code");
    expect(a.searchParams.get("code_challenge_method")).toBe("S256");
    expect(a.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.searchParams.get("state")).toBe(first.body.state);
    expect(first.body.state.length).toBeGreaterThanOrEqual(32);

    expect(second.body.state).not.toBe(first.body.state);
    expect(b.searchParams.get("code_challenge")).not.toBe(a.searchParams.get("code_challenge"));
    // The challenge is never the verifier itself (S256, not plain).
    expect(pkceChallengeOf(a.searchParams.get("code_challenge")!)).not.toBe(a.searchParams.get("code_challenge"));
  });

  for (const p of PROVIDERS) {
    it(`connects a ${p.vendor} account: the callback answers only the handle and the tokens are stored sealed`, async () => {
      const fake = p.fake(world);
      const grantsBefore = fake.stats.authorizationCodeGrants;
      const { start: started, authorization, callback } = await connectThroughBrowser(world.broker, world.tenant, p.provider);

      const authorize = fake.stats.authorizeRequests.at(-1)!;
      expect(authorize.code_challenge_method).toBe("S256");
      expect(authorize.scope).toBe(p.defaultScopes.join(p.separator));
      expect(authorization.state).toBe(started.body.state);

      expect(callback.status, callback.text).toBe(200);
      expect(Object.keys(callback.body)).toEqual(["connected_account_id"]);
      expect(callback.headers.get("cache-control")).toBe("no-store");
      expect(fake.stats.authorizationCodeGrants).toBe(grantsBefore + 1);

      const id = callback.body.connected_account_id as string;
      const row = (await connectionRow(world.broker, id))!;
      expect(row).toMatchObject({ tenant_id: world.tenant.tenantId, provider: p.provider, env: "test", status: "active", display_name: p.displayName });
      expect(row.credential_sealed).toMatch(/^dk1\./);
      const stored = JSON.stringify(row);
      for (const secret of fake.issuedSecrets()) expect(stored).not.toContain(secret);
    });

    it(`shows the ${p.vendor} connection with its identity and scopes, and uses it for ${p.tool}`, async () => {
      const { callback } = await connectThroughBrowser(world.broker, world.tenant, p.provider);
      const id = callback.body.connected_account_id as string;

      const shown = await call(world.broker, "GET", `/v1/connections/${id}`, asOperator(world.tenant));
      expect(shown.status, shown.text).toBe(200);
      expect(shown.body).toEqual({
        connected_account_id: id,
        provider: p.provider,
        env: "test",
        status: "active",
        display_name: p.displayName,
        scopes: p.defaultScopes,
        created_at: clock.now().toISOString(),
        last_used_at: null,
        revoked_at: null,
        upstream_revocation: null,
        end_user_id: null,
        label: null,
        reconnect_reason: null,
        connection_values: {},
      });

      const executed = await executeTool(world.broker, world.tenant, { tool_name: p.tool, connected_account_id: id });
      expect(executed.status, executed.text).toBe(200);
    });
  }

  it("records when a tool call last used the connection", async () => {
    const { callback } = await connectThroughBrowser(world.broker, world.tenant, "scm");
    const id = callback.body.connected_account_id as string;
    clock.advance(5 * 60_000);
    const executed = await executeTool(world.broker, world.tenant, { tool_name: "scm.get_authenticated_user", connected_account_id: id });
    expect(executed.status, executed.text).toBe(200);
    const shown = await call(world.broker, "GET", `/v1/connections/${id}`, asOperator(world.tenant));
    expect(shown.body.last_used_at).toBe(clock.now().toISOString());
  });

  it("asks for the requested scopes and connects in the requested env", async () => {
    const { callback } = await connectThroughBrowser(world.broker, world.tenant, "chat", { env: "live", scopes: ["channels:read"] });
    expect(world.fakes.slack.stats.authorizeRequests.at(-1)!.scope).toBe("channels:read");
    const shown = await call(world.broker, "GET", `/v1/connections/${callback.body.connected_account_id}`, asOperator(world.tenant));
    expect(shown.body).toMatchObject({ env: "live", scopes: ["channels:read"] });

    // A live connection cannot serve a test-mode agent.
    const refused = await executeTool(world.broker, world.tenant, { tool_name: "chat.list_channels", connected_account_id: callback.body.connected_account_id });
    expectError(refused, 422, "credential_mismatch");
  });

  it("records who connected what in the audit log, without tokens", async () => {
    const { callback } = await connectThroughBrowser(world.broker, world.tenant, "scm");
    const id = callback.body.connected_account_id as string;
    const [event] = (await auditOf(world.broker, world.tenant.tenantId, "connection.created")).filter((e) => e.target_id === id);
    expect(event).toMatchObject({ actor_type: "operator", target_type: "connection" });
    expect(JSON.parse(event!.data)).toEqual({ provider: "scm", env: "test", display_name: DEFAULT_GITHUB_USER.login });
  });

  it("records the identity of whoever approved at the provider", async () => {
    world.fakes.github.setUser({ login: "hubot", id: 1 });
    try {
      const { callback } = await connectThroughBrowser(world.broker, world.tenant, "scm");
      const shown = await call(world.broker, "GET", `/v1/connections/${callback.body.connected_account_id}`, asOperator(world.tenant));
      expect(shown.body.display_name).toBe("hubot");
    } finally {
      world.fakes.github.setUser(DEFAULT_GITHUB_USER);
    }
  });

  it("sends a browser that started with redirect_after there, with the handle", async () => {
    const { callback } = await connectThroughBrowser(world.broker, world.tenant, "tracker", { redirect_after: "https://app.example.com/done?tab=integrations" });
    expect(callback.status).toBe(302);
    const location = new URL(callback.headers.get("location")!);
    expect(`${location.origin}${location.pathname}`).toBe("https://app.example.com/done");
    expect(location.searchParams.get("tab")).toBe("integrations");
    const id = location.searchParams.get("connected_account_id")!;
    expect((await connectionRow(world.broker, id))?.status).toBe("active");
  });

  it("refuses a redirect_after that is not an http(s) URL before sending anyone to the provider", async () => {
    for (const target of ["javascript:alert(1)", "/relative/path", "ftp://example.com/x"]) {
      expectError(await start({ provider: "scm", redirect_after: target }), 400, "invalid_request");
    }
  });

  it("answers 404 for an unknown provider and 400 for an unknown env", async () => {
    expectError(await start({ provider: "crm" }), 404, "not_found");
    expect((await start({ provider: "scm", env: "prod" })).status).toBe(400);
  });

  it("lists the operator's connections with handles and identities, never a token", async () => {
    const listed = await call(world.broker, "GET", "/v1/connections", asOperator(world.tenant));
    expect(listed.status).toBe(200);
    expect(listed.body.data.length).toBeGreaterThanOrEqual(PROVIDERS.length * 2);
    expect(new Set(listed.body.data.map((c: { provider: string }) => c.provider))).toEqual(new Set(["scm", "chat", "tracker"]));
    for (const connection of listed.body.data) {
      expect(Object.keys(connection).sort()).toEqual(
        ["connected_account_id", "connection_values", "created_at", "display_name", "end_user_id", "env", "label", "last_used_at", "provider", "reconnect_reason", "revoked_at", "scopes", "status", "upstream_revocation"].sort(),
      );
    }
    for (const fake of [world.fakes.github, world.fakes.slack, world.fakes.linear]) {
      for (const secret of [...fake.issuedSecrets(), fake.clientSecret]) expect(listed.text).not.toContain(secret);
    }
  });

  it("does not meter OAuth connects", async () => {
    const before = await meteredExecutionsOf(world.broker, world.tenant.tenantId);
    await connectThroughBrowser(world.broker, world.tenant, "chat");
    const after = await meteredExecutionsOf(world.broker, world.tenant.tenantId);
    expect(after).toEqual(before);
  });
});
