/**
 * End users, end to end through the real HTTP surface and the fake providers: a connect session
 * made with a control key, its hosted page followed, OAuth completed, the handle bound to the end
 * user; agents acting for one end user use only that end user's accounts (and shared ones);
 * deleting an end user revokes everything they own.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { outboxEvents } from "./support/approvals.js";
import { createTenant, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { connectAccount, connectOnHostedPage, openConnectPage, postConnectForm, startOnConnectPage } from "./support/connect.js";
import { asOperator, call, findSecret, type CallResult } from "./support/http.js";
import { execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

const REDIRECT = "http://127.0.0.1:9/connected";
const HTML = { accept: "text/html,application/xhtml+xml" };

describeEachDatabase("end users and connect sessions", (kind) => {
  const clock = manualClock(new Date("2026-03-02T09:00:00.000Z"));
  let world: ToolWorld;
  let other: TestTenant;
  const sessions: Record<string, string> = {};
  const handles: Record<string, string[]> = { alice: [], bob: [] };

  const path = (url: string) => new URL(url).pathname + new URL(url).search;
  const createSession = (body: Record<string, unknown>, token = world.tenant.testKey) => call(world.broker, "POST", "/v1/connect-sessions", { token, body });
  const tokenFor = async (endUserId: string | undefined, tenant = world.tenant) => {
    const minted = await call(world.broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test", ...(endUserId ? { end_user_id: endUserId } : {}) } });
    expect(minted.status, minted.text).toBe(200);
    return minted.body.access_token as string;
  };
  const getUser = async (endUserId: string | undefined, connectedAccountId?: string) =>
    execute(world.broker, await tokenFor(endUserId), { tool_name: "scm.get_authenticated_user", ...(connectedAccountId ? { connected_account_id: connectedAccountId } : {}) });

  /** Opens the page and presses the provider's button (as a browser: keeping its cookies); approves at the fake provider. */
  const startAtProvider = (connectUrl: string, provider: string) => startOnConnectPage(world.broker, connectUrl, provider);

  async function connectFor(endUserId: string): Promise<string> {
    const callback: CallResult = await connectOnHostedPage(world.broker, sessions[endUserId]!, "scm");
    expect(callback.status, callback.text).toBe(302);
    const target = new URL(callback.headers.get("location")!);
    expect(target.origin + target.pathname).toBe(REDIRECT);
    expect(target.searchParams.get("provider")).toBe("scm");
    const id = target.searchParams.get("connected_account_id")!;
    handles[endUserId]!.push(id);
    return id;
  }

  beforeAll(async () => {
    world = await startToolWorld(kind, { clock });
    other = await createTenant(world.broker, "Globex");
    for (const endUserId of ["alice", "bob"]) {
      const created = await createSession({ end_user_id: endUserId, providers: ["scm", "tracker"], redirect_url: REDIRECT, label: `${endUserId}'s work` });
      expect(created.status, created.text).toBe(201);
      sessions[endUserId] = created.body.connect_url;
    }
  });
  afterAll(() => world.close());

  it("creates a session with a control key: a connect URL under the public URL, for 30 minutes, in the key's env", async () => {
    const created = await createSession({ end_user_id: "carol" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ end_user_id: "carol", env: "test", redirect_url: null, label: null, expires_at: "2026-03-02T09:30:00.000Z" });
    expect(created.body.connect_url).toMatch(new RegExp(`^${world.broker.config.publicUrl}/connect/cs_[A-Za-z0-9_-]{43}$`));
    expect(created.body.providers).toEqual(expect.arrayContaining(["scm", "chat", "tracker"]));
    const rows = await world.broker.services.store.db.selectFrom("connect_sessions").select("token_hash").execute();
    const token = created.body.connect_url.split("/").pop();
    expect(rows.map((row) => row.token_hash)).not.toContain(token);
  });

  it("shows a page without inline scripts listing each provider: a button (form) for OAuth, a form for API keys", async () => {
    const page = await call(world.broker, "GET", path(sessions.alice!), { headers: HTML });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.text).toContain(`<form method="post" action="${sessions.alice}/scm">`);
    expect(page.text).not.toContain(`href="${sessions.alice}/scm"`);
    expect(page.text).toContain(`action="${sessions.alice}/tracker/api-key"`);
    // A post to start a flow is redirected to the provider: the page's form-action allows the offered providers' origins and no other.
    const formAction = /form-action ([^;]+)/.exec(page.headers.get("content-security-policy")!)![1]!.split(" ");
    const origins = [REDIRECT, world.fakes.github.url, world.fakes.linear.url].map((url) => new URL(url).origin);
    expect(formAction.sort()).toEqual(["'self'", ...origins].sort());
    // One script, the broker's own local-time file (its CSP allows that URL and nothing inline).
    expect(page.text.match(/<script[^>]*>[^<]*<\/script>/g)).toEqual([`<script src="${world.broker.config.publicUrl}/connect-assets/local-time.js" defer></script>`]);
    expect(page.text).not.toContain(`/chat"`);
  });

  it("binds a connection made through the page to the session's end user, and emits connection.created", async () => {
    const id = await connectFor("alice");
    const connection = await call(world.broker, "GET", `/v1/connections/${id}`, asOperator(world.tenant));
    expect(connection.body, connection.text).toMatchObject({ connected_account_id: id, provider: "scm", end_user_id: "alice", label: "alice's work", status: "active" });
    const events = await outboxEvents(world.broker, world.tenant.tenantId, "connection.created");
    expect(events.find((event) => event.data.connected_account_id === id)?.data).toMatchObject({ provider: "scm", env: "test", end_user_id: "alice", label: "alice's work" });
  });

  it("lets an agent acting for alice use her account by default, and nobody else use it", async () => {
    const [alices] = handles.alice as [string];
    const bobs = await connectFor("bob");
    const asAlice = await getUser("alice");
    expect(asAlice.status, asAlice.text).toBe(200);
    expect((await getUser("alice", alices)).status).toBe(200);
    expectError(await getUser("alice", bobs), 404, "not_found");
    expectError(await getUser("bob", alices), 404, "not_found");
    expectError(await getUser(undefined, alices), 404, "not_found");
    expectError(await getUser(undefined), 422, "credential_required");
    const invocation = await call(world.broker, "GET", `/v1/tools/invocations/${asAlice.body.invocation_id}`, { token: await tokenFor("alice") });
    expect(invocation.body.end_user_id).toBe("alice");
    expectError(await call(world.broker, "GET", `/v1/tools/invocations/${asAlice.body.invocation_id}`, { token: await tokenFor("bob") }), 404, "not_found");
    // An approval pins the account the call resolved to, even when no handle was named.
    const risky = await execute(world.broker, await tokenFor("alice"), { tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "spoon-knife" } });
    expectError(risky, 409, "approval_required");
    const approval = await call(world.broker, "GET", `/v1/approvals/${risky.body.error.details.approval_id}`, asOperator(world.tenant));
    expect(approval.body).toMatchObject({ connected_account_id: alices, end_user_id: "alice" });
    const audited = await call(world.broker, "GET", "/v1/audit?end_user_id=alice&action=tool.executed", asOperator(world.tenant));
    expect(audited.body.data.length).toBeGreaterThan(0);
    expect(audited.body.data.every((event: { end_user_id: string }) => event.end_user_id === "alice")).toBe(true);
    expect(audited.body.data.map((event: { target: { id: string } }) => event.target.id)).toContain(asAlice.body.invocation_id);
  });

  it("runs an approved call on the account it resolved to when approved, never on another one", async () => {
    const shared = await connectAccount(world.broker, world.tenant, "scm");
    const policy = { env: "test", rules: [{ id: "ask", effect: "require_approval", tools: ["scm.get_authenticated_user"] }] };
    await call(world.broker, "PUT", "/v1/policy", { ...asOperator(world.tenant), body: policy });
    try {
      const asked = await getUser("alice");
      expectError(asked, 409, "approval_required");
      const { approval_id, invocation_id } = asked.body.error.details;
      await call(world.broker, "POST", `/v1/approvals/${approval_id}/decide`, { ...asOperator(world.tenant), body: { decision: "approve" } });
      // Her account goes away after the approval: the shared one must not take its place.
      const frank = await call(world.broker, "POST", "/v1/connect-sessions", { token: world.tenant.testKey, body: { end_user_id: "frank", providers: ["scm"], redirect_url: REDIRECT } });
      sessions.frank = frank.body.connect_url;
      handles.frank = [];
      const franks = await connectFor("frank");
      await call(world.broker, "PUT", "/v1/policy", { ...asOperator(world.tenant), body: { env: "test", rules: [] } });
      const asFrank = await execute(world.broker, await tokenFor("frank"), { tool_name: "scm.get_authenticated_user", connected_account_id: franks });
      expect(asFrank.status).toBe(200);
      const continued = await call(world.broker, "POST", `/v1/tools/invocations/${invocation_id}/continue`, { token: await tokenFor("alice") });
      expect(continued.status, continued.text).toBe(200);
      const invocation = await call(world.broker, "GET", `/v1/tools/invocations/${invocation_id}`, { token: await tokenFor("alice") });
      expect(invocation.body.connected_account_id).toBe(handles.alice![0]);
    } finally {
      await call(world.broker, "PUT", "/v1/policy", { ...asOperator(world.tenant), body: { env: "test", rules: [] } });
      await call(world.broker, "DELETE", `/v1/connections/${shared}`, asOperator(world.tenant));
    }
  });

  it("asks which account when alice has two, until she names one", async () => {
    const second = await connectFor("alice");
    const ambiguous = await getUser("alice");
    expectError(ambiguous, 422, "credential_ambiguous");
    expect(ambiguous.body.error.details.candidates).toHaveLength(2);
    expect(ambiguous.body.error.details.candidates).toContainEqual({ connected_account_id: second, label: "alice's work", display_name: "octocat", owner: "end_user" });
    expect((await getUser("alice", second)).status).toBe(200);
  });

  it("stores an API key from the page's form as alice's own secret item", async () => {
    const value = world.fakes.linear.addApiKey();
    const view = await openConnectPage(world.broker, sessions.alice!);
    const response = await postConnectForm(world.broker, view, `${path(sessions.alice!)}/tracker/api-key`, { api_key: value });
    expect(response.status, response.text).toBe(303);
    const target = new URL(response.headers.get("location")!);
    expect(target.searchParams.get("provider")).toBe("tracker");
    const secretItemId = target.searchParams.get("secret_item_id")!;
    const issues = await execute(world.broker, await tokenFor("alice"), { tool_name: "tracker.list_issues" });
    expect(issues.status, issues.text).toBe(200);
    expectError(await execute(world.broker, await tokenFor("bob"), { tool_name: "tracker.list_issues", secret_item_id: secretItemId }), 404, "not_found");
    const items = await call(world.broker, "GET", "/v1/secrets", asOperator(world.tenant));
    expect(items.body.data.find((item: { secret_item_id: string }) => item.secret_item_id === secretItemId)).toMatchObject({ end_user_id: "alice", label: "alice's work" });
  });

  it("lists connections by end user with cursor pages, sets labels, and lists end users", async () => {
    const alices = await call(world.broker, "GET", "/v1/connections?end_user_id=alice&limit=1", asOperator(world.tenant));
    expect(alices.body.data, alices.text).toHaveLength(1);
    expect(alices.body.next_cursor).toEqual(expect.any(String));
    const rest = await call(world.broker, "GET", `/v1/connections?end_user_id=alice&limit=1&cursor=${alices.body.next_cursor}`, asOperator(world.tenant));
    expect(rest.body.data).toHaveLength(1);
    expect(rest.body.data[0].connected_account_id).not.toBe(alices.body.data[0].connected_account_id);
    expect(rest.body.next_cursor).toBeNull();
    const labelled = await call(world.broker, "PATCH", `/v1/connections/${handles.bob![0]}`, { ...asOperator(world.tenant), body: { label: "Bob's GitHub" } });
    expect(labelled.body.label).toBe("Bob's GitHub");
    expectError(await call(world.broker, "PATCH", `/v1/connections/${handles.bob![0]}`, { ...asOperator(world.tenant), body: { label: "a\u0007" } }), 400, "invalid_request");
    const endUsers = await call(world.broker, "GET", "/v1/end-users", asOperator(world.tenant));
    expect(endUsers.body.data).toEqual([
      expect.objectContaining({ end_user_id: "alice", connection_count: 2, secret_item_count: 1 }),
      expect.objectContaining({ end_user_id: "bob", connection_count: 1, secret_item_count: 0 }),
      expect.objectContaining({ end_user_id: "frank", connection_count: 1, secret_item_count: 0 }),
    ]);
    expect((await call(world.broker, "GET", "/v1/end-users", asOperator(other))).body.data).toEqual([]);
    expect((await call(world.broker, "GET", "/v1/connections", asOperator(other))).body.data).toEqual([]);
    expectError(await call(world.broker, "GET", `/v1/connections/${handles.alice![0]}`, asOperator(other)), 404, "not_found");
    expectError(await call(world.broker, "PATCH", `/v1/connections/${handles.alice![0]}`, { ...asOperator(other), body: { label: "mine now" } }), 404, "not_found");
  });

  it("refuses a provider outside the session's list, unknown links, and replayed callbacks, storing nothing", async () => {
    const view = await openConnectPage(world.broker, sessions.alice!);
    const outside = await postConnectForm(world.broker, view, `${path(sessions.alice!)}/chat`);
    expect(outside.status).toBe(403);
    expect(outside.headers.get("content-type")).toContain("text/html");
    expect(outside.text).toContain("does not allow connecting");
    const unknownPage = await call(world.broker, "GET", "/connect/cs_unknown", { headers: HTML });
    expect(unknownPage.status).toBe(404);
    expect(unknownPage.text).toContain("<h1>");
    expectError(await call(world.broker, "GET", "/connect/cs_unknown"), 404, "not_found");
    const { callbackPath, cookie } = await startAtProvider(sessions.bob!, "scm");
    const count = async () => (await world.broker.services.store.db.selectFrom("connections").select("id").execute()).length;
    const before = await count();
    // Someone else's browser (a victim sent the authorize URL) cannot finish bob's flow.
    const elsewhere = await call(world.broker, "GET", callbackPath, { headers: HTML });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.text).toContain("another browser");
    expect(await count()).toBe(before);
    const finished = await call(world.broker, "GET", callbackPath, { headers: { cookie } });
    expect(finished.status).toBe(302);
    expect(finished.headers.get("set-cookie")).toContain("Max-Age=0");
    handles.bob!.push(new URL(finished.headers.get("location")!).searchParams.get("connected_account_id")!);
    const replay = await call(world.broker, "GET", callbackPath, { headers: { ...HTML, cookie } });
    expect(replay.status).toBe(400);
    expect(replay.headers.get("content-type")).toContain("text/html");
    expectError(await call(world.broker, "GET", callbackPath, { headers: { cookie } }), 400, "oauth_state_invalid");
    expect(await count()).toBe(before + 1);
  });

  it("validates the session request: end user id, redirect URL, providers and env", async () => {
    expectError(await createSession({ end_user_id: "a\u0001b" }), 422, "invalid_request");
    expectError(await createSession({ end_user_id: "x".repeat(256) }), 422, "invalid_request");
    expectError(await createSession({ end_user_id: ".." }), 422, "invalid_request");
    expectError(await createSession({ end_user_id: "alice", redirect_url: "http://app.example/back" }), 422, "invalid_request");
    expectError(await createSession({ end_user_id: "alice", redirect_url: "javascript:alert(1)" }), 422, "invalid_request");
    const unknown = await createSession({ end_user_id: "alice", providers: ["scm", "gitbucket"] });
    expectError(unknown, 422, "invalid_request");
    expect(unknown.body.error.details.fields[0].field).toBe("/providers/1");
    // `github` names `scm` (its vendor's name): accepted, answered under the canonical id.
    const aliased = await createSession({ end_user_id: "alice", providers: ["github"] });
    expect(aliased.status).toBe(201);
    expect(aliased.body.providers).toEqual(["scm"]);
    expectError(await createSession({ end_user_id: "alice", env: "live" }), 403, "environment_mismatch");
    expectError(await call(world.broker, "POST", "/v1/connect-sessions", { token: world.jwt, body: { end_user_id: "alice" } }), 401, "unauthorized");
    const byOperator = await call(world.broker, "POST", "/v1/connect-sessions", { ...asOperator(world.tenant), body: { end_user_id: "dave", env: "live", providers: ["scm"] } });
    expect(byOperator.status).toBe(201);
    expect(byOperator.body.env).toBe("live");
  });

  it("deletes an end user: every connection revoked upstream with connection.revoked, every key deleted", async () => {
    const pending = await startAtProvider(sessions.alice!, "scm");
    const revocationsBefore = world.fakes.github.stats.revocations;
    const deleted = await call(world.broker, "DELETE", "/v1/end-users/alice", asOperator(world.tenant));
    expect(deleted.body).toEqual({ end_user_id: "alice", connections_revoked: 2, secret_items_deleted: 1 });
    expect(world.fakes.github.stats.revocations).toBe(revocationsBefore + 2);
    const revoked = await outboxEvents(world.broker, world.tenant.tenantId, "connection.revoked");
    expect(revoked.filter((event) => event.data.end_user_id === "alice").map((event) => event.data.connected_account_id).sort()).toEqual([...handles.alice!].sort());
    expectError(await getUser("alice"), 422, "credential_required");
    // Her link and the flow she had started die with her.
    expectError(await call(world.broker, "GET", path(sessions.alice!)), 404, "not_found");
    expectError(await call(world.broker, "GET", pending.callbackPath, { headers: { cookie: pending.cookie } }), 400, "oauth_state_invalid");
    expect((await getUser("bob", handles.bob![0])).status).toBe(200);
    const again = await call(world.broker, "DELETE", "/v1/end-users/alice", asOperator(world.tenant));
    expect(again.body).toEqual({ end_user_id: "alice", connections_revoked: 0, secret_items_deleted: 0 });
    const elsewhere = await call(world.broker, "DELETE", "/v1/end-users/bob", asOperator(other));
    expect(elsewhere.body.connections_revoked).toBe(0);
    const unicode = "ü".repeat(255);
    expect((await call(world.broker, "DELETE", `/v1/end-users/${encodeURIComponent(unicode)}`, asOperator(world.tenant))).status).toBe(200);
  });

  it("stops a session's link when the control key that created it is revoked", async () => {
    const key = await call(world.broker, "POST", "/v1/keys", { ...asOperator(world.tenant), body: { env: "test", name: "short-lived" } });
    expect(key.status, key.text).toBe(201);
    const created = await createSession({ end_user_id: "erin" }, key.body.key);
    expect((await call(world.broker, "GET", path(created.body.connect_url))).status).toBe(200);
    await call(world.broker, "DELETE", `/v1/keys/${key.body.id}`, asOperator(world.tenant));
    expectError(await call(world.broker, "GET", path(created.body.connect_url)), 404, "not_found");
  });

  it("lists end users and end users' connections to admins only", async () => {
    const issuer = world.broker.runtime.developmentIssuer!;
    await world.broker.services.tenants.addMember(world.tenant.tenantId, { issuer: issuer.issuer, subject: "viewer", role: "viewer" }, "test");
    const viewer = { token: await issuer.issue("viewer"), tenant: world.tenant.tenantId };
    expectError(await call(world.broker, "GET", "/v1/end-users", viewer), 403, "forbidden");
    expect((await call(world.broker, "GET", "/v1/connections?end_user_id=bob", viewer)).body.data).toEqual([]);
    expectError(await call(world.broker, "GET", `/v1/connections/${handles.bob![0]}`, viewer), 404, "not_found");
  });

  it("never logs a connect link's token", () => {
    const tokens = Object.values(sessions).map((url) => url.split("/").pop()!);
    for (const token of tokens) expect(world.broker.logs.filter((line) => line.includes(token))).toEqual([]);
    expect(world.broker.logs.some((line) => line.includes("/connect/cs_…"))).toBe(true);
  });

  it("never shows a provider token or client secret in a page, redirect, response or log", () => {
    const fakes = [world.fakes.github, world.fakes.slack, world.fakes.linear];
    for (const fake of fakes) {
      for (const secret of fake.issuedSecrets()) expect(findSecret(world.broker, secret), secret.slice(0, 6)).toEqual([]);
      expect(findSecret(world.broker, fake.clientSecret)).toEqual([]);
    }
  });

  it("answers 410 once the session's 30 minutes are over", async () => {
    clock.advance(31 * 60_000);
    const expired = await call(world.broker, "GET", path(sessions.bob!), { headers: HTML });
    expect(expired.status).toBe(410);
    expect(expired.text).toContain("expired");
    expectError(await call(world.broker, "GET", `${path(sessions.bob!)}/scm`), 410, "connect_session_expired");
    const view = { cookie: "", pageToken: "x", html: "" };
    expectError(await postConnectForm(world.broker, view, `${path(sessions.bob!)}/scm`, {}, { accept: "application/json" }), 410, "connect_session_expired");
  });
});
