import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeAuthorization, ECHO_HEADER, newPkcePair, startFakeUpstreams, type FakeProvider, type FakeUpstreams } from "./support/fake-upstreams/index.js";

const REDIRECT_URI = "http://127.0.0.1:9/v1/connections/oauth/callback";
const AUTHORIZE_PATH = { github: "/login/oauth/authorize", slack: "/oauth/v2/authorize", linear: "/oauth/authorize" };

type Reply = { status: number; headers: Headers; text: string; body: any };

async function send(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, { redirect: "manual", ...init });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, text, body };
}

const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  send(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields) });

const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  send(url, { method: "POST", headers: { "content-type": "application/json; charset=utf-8", "user-agent": "toolbroker-test", ...headers }, body: JSON.stringify(body) });

function authorizeUrl(provider: FakeProvider<unknown>, path: string, extra: Record<string, string> = {}) {
  const pkce = newPkcePair();
  const url = new URL(path, provider.url);
  url.search = new URLSearchParams({
    client_id: provider.clientId,
    redirect_uri: REDIRECT_URI,
    state: "state-123",
    code_challenge: pkce.challenge,
    code_challenge_method: "S256",
    ...extra,
  }).toString();
  return { url, verifier: pkce.verifier };
}

async function authorizedCode(provider: FakeProvider<unknown>, path: string, extra: Record<string, string> = {}) {
  const { url, verifier } = authorizeUrl(provider, path, extra);
  const result = await completeAuthorization(url);
  expect(result.status).toBe(302);
  expect(result.state).toBe("state-123");
  return { code: result.code!, verifier };
}

const basic = (provider: FakeProvider<unknown>, secret = provider.clientSecret) => `Basic ${Buffer.from(`${provider.clientId}:${secret}`).toString("base64")}`;

let fakes: FakeUpstreams;
beforeAll(async () => {
  fakes = await startFakeUpstreams();
});
afterAll(() => fakes.close());

describe("fake GitHub", () => {
  const github = () => fakes.github;
  const tokenUrl = () => `${github().url}/login/oauth/access_token`;
  const exchange = async (extra: Record<string, string> = {}) => {
    const { code, verifier } = await authorizedCode(github(), AUTHORIZE_PATH.github, { scope: "repo user" });
    return postForm(tokenUrl(), { client_id: github().clientId, client_secret: github().clientSecret, code, redirect_uri: REDIRECT_URI, code_verifier: verifier, ...extra }, { accept: "application/json" });
  };
  const api = (path: string, token: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    send(`${github().url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, "user-agent": "toolbroker-test", accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28", ...init.headers } });

  it("points the broker at itself through BROKER_PROVIDER_SCM_*", () => {
    expect(github().env).toEqual({
      BROKER_PROVIDER_SCM_CLIENT_ID: github().clientId,
      BROKER_PROVIDER_SCM_CLIENT_SECRET: github().clientSecret,
      BROKER_PROVIDER_SCM_AUTHORIZE_URL: `${github().url}/login/oauth/authorize`,
      BROKER_PROVIDER_SCM_TOKEN_URL: `${github().url}/login/oauth/access_token`,
      BROKER_PROVIDER_SCM_API_BASE_URL: github().url,
      BROKER_PROVIDER_SCM_REVOKE_URL: `${github().url}/applications/${github().clientId}/grant`,
    });
  });

  it("refuses an authorize request without an S256 code_challenge through the error callback", async () => {
    const { url } = authorizeUrl(github(), AUTHORIZE_PATH.github, { code_challenge_method: "plain" });
    const result = await completeAuthorization(url);
    expect(result.error).toBe("invalid_request");
    expect(result.state).toBe("state-123");
  });

  it("redirects with error=access_denied after denyNextAuthorization, then approves again", async () => {
    github().denyNextAuthorization();
    const denied = await completeAuthorization(authorizeUrl(github(), AUTHORIZE_PATH.github).url);
    expect(denied.error).toBe("access_denied");
    expect(denied.location?.searchParams.get("error_description")).toBeTruthy();
    expect((await completeAuthorization(authorizeUrl(github(), AUTHORIZE_PATH.github).url)).code).toBeTruthy();
  });

  it("answers HTTP 200 bad_verification_code for a wrong code_verifier, then issues tokens for the right one, once", async () => {
    const { code, verifier } = await authorizedCode(github(), AUTHORIZE_PATH.github);
    const fields = { client_id: github().clientId, client_secret: github().clientSecret, code, redirect_uri: REDIRECT_URI };
    const wrong = await postForm(tokenUrl(), { ...fields, code_verifier: newPkcePair().verifier }, { accept: "application/json" });
    expect(wrong.status).toBe(200);
    expect(wrong.body.error).toBe("bad_verification_code");

    const granted = await postForm(tokenUrl(), { ...fields, code_verifier: verifier }, { accept: "application/json" });
    expect(granted.body).toMatchObject({ token_type: "bearer", expires_in: 3600, refresh_token_expires_in: 15897600 });
    expect(granted.body.access_token).toMatch(/^ghu_[A-Za-z0-9]{36}$/);
    expect(granted.body.refresh_token).toMatch(/^ghr_/);

    const reused = await postForm(tokenUrl(), { ...fields, code_verifier: verifier }, { accept: "application/json" });
    expect(reused.body.error).toBe("bad_verification_code");
  });

  it("answers form-encoded without Accept: application/json and takes client credentials via Basic", async () => {
    const { code, verifier } = await authorizedCode(github(), AUTHORIZE_PATH.github);
    const reply = await postForm(tokenUrl(), { code, redirect_uri: REDIRECT_URI, code_verifier: verifier }, { authorization: basic(github()) });
    expect(reply.headers.get("content-type")).toContain("application/x-www-form-urlencoded");
    expect(new URLSearchParams(reply.text).get("access_token")).toMatch(/^ghu_/);
  });

  it("reports incorrect_client_credentials and redirect_uri_mismatch with HTTP 200", async () => {
    expect((await exchange({ client_secret: "nope" })).body.error).toBe("incorrect_client_credentials");
    const mismatch = await exchange({ redirect_uri: "http://127.0.0.1:9/elsewhere" });
    expect(mismatch.status).toBe(200);
    expect(mismatch.body).toMatchObject({ error: "redirect_uri_mismatch", error_uri: expect.stringContaining("docs.github.com") });
  });

  it("rotates refresh tokens: the old refresh token and the old access token stop working", async () => {
    const first = (await exchange()).body;
    const refreshed = await postForm(tokenUrl(), { client_id: github().clientId, client_secret: github().clientSecret, grant_type: "refresh_token", refresh_token: first.refresh_token }, { accept: "application/json" });
    expect(refreshed.body.access_token).not.toBe(first.access_token);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    const again = await postForm(tokenUrl(), { client_id: github().clientId, client_secret: github().clientSecret, grant_type: "refresh_token", refresh_token: first.refresh_token }, { accept: "application/json" });
    expect(again.body.error).toBe("bad_refresh_token");
    expect((await api("/user", first.access_token)).status).toBe(401);
    expect((await api("/user", refreshed.body.access_token)).body.login).toBe("octocat");
    expect(github().issuedSecrets()).toEqual(expect.arrayContaining([first.access_token, refreshed.body.refresh_token]));
  });

  it("serves the REST API with GitHub's error shapes", async () => {
    const token = (await exchange()).body.access_token as string;
    expect((await api("/user", "ghu_bogus")).body).toEqual({ message: "Bad credentials", documentation_url: "https://docs.github.com/rest", status: "401" });
    const repos = await api("/user/repos?per_page=1&visibility=public", token);
    expect(repos.body).toHaveLength(1);
    expect(repos.body[0]).toMatchObject({ full_name: "octocat/hello-world", owner: { login: "octocat" }, private: false, default_branch: "main" });
    expect(repos.headers.get("link")).toContain('rel="next"');
    expect((await api("/repos/octocat/nope", token)).body.message).toBe("Not Found");

    const created = await api("/repos/octocat/hello-world/issues", token, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "From the broker", labels: ["bug"] }) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "From the broker", state: "open", labels: [{ name: "bug" }] });
    const invalid = await api("/repos/octocat/hello-world/issues", token, { method: "POST", body: JSON.stringify({ body: "no title" }) });
    expect(invalid.status).toBe(422);
    const comment = await api(`/repos/octocat/hello-world/issues/${created.body.number}/comments`, token, { method: "POST", body: JSON.stringify({ body: "hi" }) });
    expect(comment.status).toBe(201);
    const issues = await api("/repos/octocat/hello-world/issues?state=all", token);
    expect(issues.body.map((issue: { title: string }) => issue.title)).toContain("From the broker");
    expect((await api("/repos/octocat/spoon-knife", token, { method: "DELETE" })).status).toBe(204);
    expect(github().stats.apiCalls.at(-1)).toMatchObject({ method: "DELETE", path: "/repos/octocat/spoon-knife", headers: { "x-github-api-version": "2022-11-28" } });
  });

  it("hides a user's private repositories from another user's token", async () => {
    github().setUser({ login: "hubot", id: 7 });
    const hubot = (await exchange()).body.access_token as string;
    github().setUser({ login: "octocat", id: 583231 });
    expect((await api("/user", hubot)).body.login).toBe("hubot");
    expect((await api("/repos/octocat/private-notes", hubot)).status).toBe(404);
  });

  it("refuses a request without User-Agent with 403", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      request(`${github().url}/user`, (response) => resolve(response.statusCode ?? 0)).on("error", reject).end();
    });
    expect(status).toBe(403);
  });

  it("revokes a grant with Basic client credentials, after which the token is Bad credentials", async () => {
    const token = (await exchange()).body.access_token as string;
    const before = github().stats.revocations;
    const revoked = await send(github().env.BROKER_PROVIDER_SCM_REVOKE_URL!, { method: "DELETE", headers: { authorization: basic(github()), "user-agent": "t", "content-type": "application/json" }, body: JSON.stringify({ access_token: token }) });
    expect(revoked.status).toBe(204);
    expect(github().stats.revocations).toBe(before + 1);
    expect((await api("/user", token)).status).toBe(401);
  });

  it("obeys failNext, echoCredentials, expireAllAccessTokens and revokeAllRefreshTokens", async () => {
    const tokens = (await exchange()).body;
    github().failNext(1, { status: 429, body: { message: "API rate limit exceeded" }, headers: { "retry-after": "1" } });
    const limited = await api("/user", tokens.access_token);
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "1"]);

    github().echoCredentials(true);
    const echoed = await api("/user", tokens.access_token);
    github().echoCredentials(false);
    expect(echoed.body).toMatchObject({ bio: `Bearer ${tokens.access_token}`, token: `Bearer ${tokens.access_token}`, nested: { auth: `Bearer ${tokens.access_token}` } });
    expect(echoed.headers.get(ECHO_HEADER)).toBe(`Bearer ${tokens.access_token}`);

    github().expireAllAccessTokens();
    github().revokeAllRefreshTokens();
    expect((await api("/user", tokens.access_token)).status).toBe(401);
    const refresh = await postForm(tokenUrl(), { client_id: github().clientId, client_secret: github().clientSecret, grant_type: "refresh_token", refresh_token: tokens.refresh_token }, { accept: "application/json" });
    expect(refresh.body.error).toBe("bad_refresh_token");
  });

  it("lets exactly one of two concurrent refreshes of the same token win", async () => {
    const tokens = (await exchange()).body;
    github().setTokenEndpointDelay(50);
    const fields = { client_id: github().clientId, client_secret: github().clientSecret, grant_type: "refresh_token", refresh_token: tokens.refresh_token };
    const replies = await Promise.all([postForm(tokenUrl(), fields, { accept: "application/json" }), postForm(tokenUrl(), fields, { accept: "application/json" })]);
    github().setTokenEndpointDelay(0);
    expect(replies.map((reply) => reply.body.error ?? "ok").sort()).toEqual(["bad_refresh_token", "ok"]);
  });
});

describe("fake GitHub with an injected clock", () => {
  it("refuses a code older than ten minutes and expires access tokens after the TTL", async () => {
    let now = Date.parse("2025-01-01T00:00:00Z");
    const clocked = await startFakeUpstreams({ accessTokenTtlSeconds: 60, now: () => now });
    try {
      const github = clocked.github;
      const tokenUrl = `${github.url}/login/oauth/access_token`;
      const stale = await authorizedCode(github, AUTHORIZE_PATH.github);
      now += 11 * 60 * 1000;
      const late = await postForm(tokenUrl, { client_id: github.clientId, client_secret: github.clientSecret, code: stale.code, redirect_uri: REDIRECT_URI, code_verifier: stale.verifier }, { accept: "application/json" });
      expect(late.body.error).toBe("bad_verification_code");

      const fresh = await authorizedCode(github, AUTHORIZE_PATH.github);
      const granted = await postForm(tokenUrl, { client_id: github.clientId, client_secret: github.clientSecret, code: fresh.code, redirect_uri: REDIRECT_URI, code_verifier: fresh.verifier }, { accept: "application/json" });
      expect(granted.body.expires_in).toBe(60);
      now += 61 * 1000;
      const expired = await send(`${github.url}/user`, { headers: { authorization: `Bearer ${granted.body.access_token}`, "user-agent": "t" } });
      expect(expired.status).toBe(401);
    } finally {
      await clocked.close();
    }
  });
});

describe("fake Slack", () => {
  const slack = () => fakes.slack;
  const tokenUrl = () => `${slack().url}/api/oauth.v2.access`;
  const install = async () => {
    const { code, verifier } = await authorizedCode(slack(), AUTHORIZE_PATH.slack, { scope: "channels:read,chat:write" });
    return (await postForm(tokenUrl(), { code, redirect_uri: REDIRECT_URI, code_verifier: verifier }, { authorization: basic(slack()) })).body;
  };
  const call = (method: string, token: string, fields: Record<string, string> = {}) => postForm(`${slack().url}/api/${method}`, fields, { authorization: `Bearer ${token}` });

  it("exchanges a code for a rotating bot token with Slack's oauth.v2.access body", async () => {
    const body = await install();
    expect(body).toMatchObject({ ok: true, token_type: "bot", scope: "channels:read,chat:write", expires_in: 3600, team: { id: "T9TK3CUKW" }, authed_user: { id: "U061F7AUR" } });
    expect(body.access_token).toMatch(/^xoxb-/);
    expect(body.refresh_token).toMatch(/^xoxe-/);
    expect(body.bot_user_id).toBeTruthy();
  });

  it("answers HTTP 200 ok:false for bad verifiers, reused codes and bad client credentials", async () => {
    const { code, verifier } = await authorizedCode(slack(), AUTHORIZE_PATH.slack);
    const fields = { client_id: slack().clientId, client_secret: slack().clientSecret, code, redirect_uri: REDIRECT_URI };
    const wrong = await postForm(tokenUrl(), { ...fields, code_verifier: newPkcePair().verifier });
    expect([wrong.status, wrong.body]).toEqual([200, { ok: false, error: "invalid_code" }]);
    expect((await postForm(tokenUrl(), { ...fields, code_verifier: verifier })).body.ok).toBe(true);
    expect((await postForm(tokenUrl(), { ...fields, code_verifier: verifier })).body.error).toBe("code_already_used");
    expect((await postForm(tokenUrl(), { ...fields, client_secret: "x" })).body.error).toBe("bad_client_secret");
    expect((await postForm(tokenUrl(), { ...fields, client_id: "1.2" })).body.error).toBe("invalid_client_id");
  });

  it("rotates: a used refresh token answers invalid_refresh_token", async () => {
    const first = await install();
    const fields = { client_id: slack().clientId, client_secret: slack().clientSecret, grant_type: "refresh_token", refresh_token: first.refresh_token };
    const second = (await postForm(tokenUrl(), fields)).body;
    expect(second).toMatchObject({ ok: true, token_type: "bot" });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await postForm(tokenUrl(), fields)).body).toEqual({ ok: false, error: "invalid_refresh_token" });
    expect(slack().stats.refreshGrants).toBeGreaterThanOrEqual(1);
  });

  it("paginates conversations.list with response_metadata.next_cursor", async () => {
    const token = (await install()).access_token;
    const first = await call("conversations.list", token, { limit: "2" });
    expect(first.body.channels.map((channel: { name: string }) => channel.name)).toEqual(["general", "random"]);
    const second = await call("conversations.list", token, { limit: "2", cursor: first.body.response_metadata.next_cursor });
    expect(second.body.channels.map((channel: { name: string }) => channel.name)).toEqual(["announcements"]);
    expect(second.body.response_metadata.next_cursor).toBe("");
  });

  it("posts messages and reports Slack's channel errors", async () => {
    const token = (await install()).access_token;
    const posted = await postJson(`${slack().url}/api/chat.postMessage`, { channel: "C024BE91L", text: "hello" }, { authorization: `Bearer ${token}` });
    expect(posted.body).toMatchObject({ ok: true, channel: "C024BE91L", message: { text: "hello", type: "message" } });
    expect(posted.body.ts).toMatch(/^\d+\.\d{6}$/);
    const noCharset = await postJson(`${slack().url}/api/chat.postMessage`, { channel: "general", text: "x" }, { authorization: `Bearer ${token}`, "content-type": "application/json" });
    expect(noCharset.body.warning).toBe("missing_charset");
    expect((await call("chat.postMessage", token, { channel: "C0NOPE", text: "x" })).body.error).toBe("channel_not_found");
    expect((await call("chat.postMessage", token, { channel: "announcements", text: "x" })).body.error).toBe("not_in_channel");
  });

  it("answers auth.test, not_authed, invalid_auth and token_expired", async () => {
    const token = (await install()).access_token;
    expect((await call("auth.test", token)).body).toMatchObject({ ok: true, team_id: "T9TK3CUKW" });
    expect((await postForm(`${slack().url}/api/auth.test`, {})).body.error).toBe("not_authed");
    expect((await call("auth.test", "xoxb-bogus")).body.error).toBe("invalid_auth");
    expect((await postForm(`${slack().url}/api/auth.test`, { token })).body.ok).toBe(true);
    slack().expireAllAccessTokens();
    expect((await call("auth.test", token)).body.error).toBe("token_expired");
  });

  it("revokes with auth.revoke, after which the token is refused", async () => {
    const token = (await install()).access_token;
    expect((await call("auth.revoke", token)).body).toEqual({ ok: true, revoked: true });
    expect((await call("auth.test", token)).body.error).toBe("token_revoked");
  });
});

describe("fake Linear", () => {
  const linear = () => fakes.linear;
  const tokenUrl = () => `${linear().url}/oauth/token`;
  const connect = async () => {
    const { code, verifier } = await authorizedCode(linear(), AUTHORIZE_PATH.linear, { response_type: "code", scope: "read,write" });
    return postForm(tokenUrl(), { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier, client_id: linear().clientId, client_secret: linear().clientSecret });
  };
  const graphql = (authorization: string, query: string, variables?: Record<string, unknown>) =>
    postJson(`${linear().url}/graphql`, { query, variables }, { authorization });

  it("requires response_type=code at the authorize step", async () => {
    expect((await completeAuthorization(authorizeUrl(linear(), AUTHORIZE_PATH.linear).url)).error).toBe("unsupported_response_type");
  });

  it("answers RFC 6749 errors: 400 invalid_grant for a wrong verifier, 401 invalid_client via Basic", async () => {
    const { code } = await authorizedCode(linear(), AUTHORIZE_PATH.linear, { response_type: "code" });
    const wrong = await postForm(tokenUrl(), { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: newPkcePair().verifier }, { authorization: basic(linear()) });
    expect([wrong.status, wrong.body.error]).toEqual([400, "invalid_grant"]);
    const badClient = await postForm(tokenUrl(), { grant_type: "authorization_code", code }, { authorization: basic(linear(), "wrong") });
    expect([badClient.status, badClient.body.error]).toEqual([401, "invalid_client"]);
  });

  it("issues Bearer tokens and rotates refresh tokens", async () => {
    const granted = await connect();
    expect(granted.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read write" });
    const fields = { grant_type: "refresh_token", refresh_token: granted.body.refresh_token, client_id: linear().clientId, client_secret: linear().clientSecret };
    expect((await postForm(tokenUrl(), fields)).status).toBe(200);
    expect((await postForm(tokenUrl(), fields)).body.error).toBe("invalid_grant");
  });

  it("answers viewer, filtered and paginated issues, and issueCreate with variables", async () => {
    const auth = `Bearer ${(await connect()).body.access_token}`;
    expect((await graphql(auth, "{ viewer { id name email } }")).body).toEqual({ data: { viewer: { id: "2e5b6c1a-7f3d-4e2a-9b1c-8d7e6f5a4b3c", name: "Ada Lovelace", email: "ada@example.com" } } });
    const teams = await graphql(auth, "query { teams { nodes { id key } } }");
    const eng = teams.body.data.teams.nodes.find((team: { key: string }) => team.key === "ENG");
    const created = await graphql(auth, "mutation Create($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { id identifier title url } } }", { input: { teamId: eng.id, title: "Broker issue", description: "d" } });
    expect(created.body.data.issueCreate).toMatchObject({ success: true, issue: { title: "Broker issue", identifier: expect.stringMatching(/^ENG-\d+$/) } });
    const page = await graphql(auth, `query Issues($first: Int) { issues(first: $first, filter: { team: { key: { eq: "ENG" } } }) { nodes { identifier title state { name } } pageInfo { hasNextPage endCursor } } }`, { first: 2 });
    expect(page.body.data.issues.nodes).toHaveLength(2);
    expect(page.body.data.issues.nodes[0].title).toBe("Broker issue");
    expect(page.body.data.issues.pageInfo.hasNextPage).toBe(true);
    const unknown = await graphql(auth, "{ nope { id } }");
    expect([unknown.status, unknown.body.errors[0].extensions.code]).toEqual([400, "GRAPHQL_VALIDATION_FAILED"]);
  });

  it("takes a personal API key bare, but not behind Bearer, and refuses bad credentials with AUTHENTICATION_ERROR", async () => {
    const key = linear().addApiKey();
    expect((await graphql(key, "{ viewer { name } }")).body.data.viewer.name).toBe("Ada Lovelace");
    const bearerKey = await graphql(`Bearer ${key}`, "{ viewer { name } }");
    expect([bearerKey.status, bearerKey.body.errors[0].extensions.code]).toEqual([401, "AUTHENTICATION_ERROR"]);
    expect(linear().issuedSecrets()).toContain(key);
  });

  it("revokes with POST /oauth/revoke and a Bearer token", async () => {
    const token = (await connect()).body.access_token as string;
    expect((await send(`${linear().url}/oauth/revoke`, { method: "POST", headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await graphql(`Bearer ${token}`, "{ viewer { id } }")).status).toBe(401);
    expect(linear().stats.revocations).toBe(1);
  });
});
