/**
 * The described-vendor sandbox on its own: OAuth variants as data, requests routed to the
 * description's operations and validated against them, answers from examples or the schema.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startDescribedSandbox, type DescribedSandbox } from "../src/sandbox/described/described-sandbox.js";
import { DEFAULT_VENDOR, type DescribedVendor } from "../src/sandbox/described/vendor-config.js";
import { completeAuthorization, newPkcePair } from "./support/fake-upstreams/index.js";
import { ACME_DESCRIPTION, acmeProvider } from "./support/described/acme-description.js";

const running: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

const ACME_VENDOR: DescribedVendor = {
  ...DEFAULT_VENDOR,
  oauth: {
    authorizePath: "/oauth/authorize",
    tokenPath: "/oauth/token",
    clientAuth: "client_secret_basic",
    pkce: "optional",
    refresh: "kept",
    refreshTokenOnlyWith: { param: "access_type", value: "offline" },
    extraTokenFields: { instance_url: "{origin}", workspace: { owner: "{user.email}" } },
  },
  errors: {
    unauthorized: { status: 401, body: { error: { code: 401, message: "{message}", status: "UNAUTHENTICATED" } } },
    invalidRequest: { status: 400, body: { error: { code: 400, message: "{message}", status: "INVALID_ARGUMENT" } } },
    notFound: { status: 404, body: { error: { code: 404, message: "{message}" } } },
  },
};

async function start(vendor: DescribedVendor = ACME_VENDOR): Promise<DescribedSandbox> {
  const { provider, server } = await startDescribedSandbox({ provider: acmeProvider, ttlSeconds: 3600, now: Date.now, vendor, description: ACME_DESCRIPTION });
  running.push(server);
  return provider;
}

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

async function token(sandbox: DescribedSandbox, form: Record<string, string>, authorization = basic(sandbox.clientId, sandbox.clientSecret)) {
  const response = await fetch(`${sandbox.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function connect(sandbox: DescribedSandbox, extra: Record<string, string> = { access_type: "offline" }) {
  const pkce = newPkcePair();
  const redirect = "http://127.0.0.1:1/callback";
  const authorize = new URL(`${sandbox.url}/oauth/authorize`);
  for (const [name, value] of Object.entries({ client_id: sandbox.clientId, redirect_uri: redirect, state: "s1", code_challenge: pkce.challenge, code_challenge_method: "S256", scope: "tasks", ...extra })) {
    authorize.searchParams.set(name, value);
  }
  const { code } = await completeAuthorization(authorize);
  return token(sandbox, { grant_type: "authorization_code", code: code!, redirect_uri: redirect, code_verifier: pkce.verifier });
}

const API = "/tasks/v2/workspaces/ws_1/tasks";
const headers = (accessToken: string) => ({ authorization: `Bearer ${accessToken}`, "acme-version": "2024-01-01" });

describe("described sandbox: OAuth variants", () => {
  it("issues tokens with the vendor's extra fields, a refresh token only when asked for offline access, and keeps it on refresh", async () => {
    const sandbox = await start();
    const online = await connect(sandbox, {});
    expect(online.status).toBe(200);
    expect(online.body.refresh_token).toBeUndefined();

    const offline = await connect(sandbox);
    expect(offline.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "tasks", instance_url: sandbox.url, workspace: { owner: "ada@example.com" } });
    const refreshToken = offline.body.refresh_token as string;
    const first = await token(sandbox, { grant_type: "refresh_token", refresh_token: refreshToken });
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).toBeUndefined();
    const second = await token(sandbox, { grant_type: "refresh_token", refresh_token: refreshToken });
    expect(second.status).toBe(200);
  });

  it("refuses client credentials in the body when the vendor takes HTTP Basic", async () => {
    const sandbox = await start();
    const refused = await fetch(`${sandbox.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "x", client_id: sandbox.clientId, client_secret: sandbox.clientSecret }).toString(),
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: "invalid_client" });
  });

  it("rotates refresh tokens when the vendor does, and issues non-expiring tokens without refresh when it does not refresh", async () => {
    const rotating = await start({ ...ACME_VENDOR, oauth: { ...ACME_VENDOR.oauth!, refresh: "rotating", refreshTokenOnlyWith: undefined } });
    const granted = await connect(rotating, {});
    const rotated = await token(rotating, { grant_type: "refresh_token", refresh_token: granted.body.refresh_token });
    expect(rotated.body.refresh_token).toMatch(/\S/);
    expect(rotated.body.refresh_token).not.toBe(granted.body.refresh_token);
    expect((await token(rotating, { grant_type: "refresh_token", refresh_token: granted.body.refresh_token })).body.error).toBe("invalid_grant");

    const lasting = await start({ ...ACME_VENDOR, oauth: { ...ACME_VENDOR.oauth!, refresh: "none", refreshTokenOnlyWith: undefined } });
    const forever = await connect(lasting, {});
    expect(forever.body.refresh_token).toBeUndefined();
    expect(forever.body.expires_in).toBeUndefined();
  });

  it("redirects back with invalid_request when an authorize parameter the vendor requires is missing", async () => {
    const sandbox = await start({ ...ACME_VENDOR, oauth: { ...ACME_VENDOR.oauth!, requiredAuthorizeParams: { audience: "api.acme.test" } } });
    const authorize = new URL(`${sandbox.url}/oauth/authorize`);
    for (const [name, value] of Object.entries({ client_id: sandbox.clientId, redirect_uri: "http://127.0.0.1:1/cb", state: "s" })) authorize.searchParams.set(name, value);
    expect((await completeAuthorization(authorize)).error).toBe("invalid_request");
  });
});

describe("described sandbox: the API from the description", () => {
  it("answers a valid call with data generated from the response schema and records it as valid", async () => {
    const sandbox = await start();
    const { body } = await connect(sandbox);
    const response = await fetch(`${sandbox.url}${API}?q=open&limit=5`, { headers: headers(body.access_token) });
    expect(response.status).toBe(200);
    const listed = (await response.json()) as { tasks: { id: string; title: string; due: string; owner: { email: string } }[] };
    expect(listed.tasks[0]).toMatchObject({ id: "task_1", title: "title-sample", due: "2026-11-29", owner: { email: "ada@example.com" } });
    expect(sandbox.stats.apiCalls).toHaveLength(1);
    expect(sandbox.stats.apiCalls[0]).toMatchObject({ operationId: "listTasks", authorized: true, problems: [] });
    expect(sandbox.invalidCalls()).toEqual([]);
  });

  it("answers with the description's example when it fits the schema", async () => {
    const sandbox = await start();
    const { body } = await connect(sandbox);
    const response = await fetch(`${sandbox.url}${API}`, { method: "POST", headers: { ...headers(body.access_token), "content-type": "application/json" }, body: JSON.stringify({ title: "Write tests" }) });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ id: "task_42", title: "From the example" });
  });

  it("refuses an invalid request with the vendor's 400 and records what was wrong", async () => {
    const sandbox = await start();
    const { body } = await connect(sandbox);
    const missing = await fetch(`${sandbox.url}${API}?limit=500&colour=red`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(missing.status).toBe(400);
    const refusal = (await missing.json()) as { error: { message: string; status: string } };
    expect(refusal.error.status).toBe("INVALID_ARGUMENT");
    expect(refusal.error.message).toContain('"colour"');
    const wrongBody = await fetch(`${sandbox.url}/tasks/v2/workspaces/WS/tasks`, {
      method: "POST",
      headers: { ...headers(body.access_token), "content-type": "application/json" },
      body: JSON.stringify({ title: "", done: "yes", colour: "red" }),
    });
    expect(wrongBody.status).toBe(400);
    const problems = sandbox.invalidCalls().map((call) => call.problems);
    expect(problems).toHaveLength(2);
    expect(problems[0]!.join("\n")).toMatch(/limit[\s\S]*q[\s\S]*Acme-Version|Acme-Version|must have required property/);
    expect(problems[1]!.join("\n")).toMatch(/path parameters\/workspace must match pattern[\s\S]*body\/title[\s\S]*body\/done must be boolean[\s\S]*"colour"/);
  });

  it("accepts nested form fields and a path template with a literal suffix, answering 204", async () => {
    const sandbox = await start();
    const { body } = await connect(sandbox);
    const response = await fetch(`${sandbox.url}/tasks/v2/workspaces/ws_1/tasks/task%201:archive`, {
      method: "POST",
      headers: { authorization: `Bearer ${body.access_token}`, "content-type": "application/x-www-form-urlencoded" },
      body: "reason=done&notify=true&metadata[source]=agent",
    });
    expect(response.status).toBe(204);
    expect(sandbox.invalidCalls()).toEqual([]);
    expect(sandbox.stats.apiCalls[0]!.operationId).toBe("archiveTask");
  });

  it("refuses tokens it did not issue, expired ones, and unknown routes, in the vendor's words", async () => {
    const sandbox = await start();
    const forged = await fetch(`${sandbox.url}${API}?q=x`, { headers: headers("not-a-token") });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: { code: 401, message: "the credentials are invalid", status: "UNAUTHENTICATED" } });
    const { body } = await connect(sandbox);
    sandbox.expireAllAccessTokens();
    const expired = await fetch(`${sandbox.url}${API}?q=x`, { headers: headers(body.access_token) });
    expect(((await expired.json()) as any).error.message).toBe("the access token has expired");
    const key = sandbox.issueApiKey();
    const unknown = await fetch(`${sandbox.url}/tasks/v2/nowhere`, { headers: { authorization: `Bearer ${key}` } });
    expect(unknown.status).toBe(404);
    expect(sandbox.invalidCalls().map((call) => call.problems![0])).toEqual(["no operation of the description matches GET /tasks/v2/nowhere"]);
  });

  it("keeps the fakes' controls: failNext and credential echo", async () => {
    const sandbox = await start();
    const key = sandbox.issueApiKey();
    sandbox.failNext(1, { status: 429, body: { error: "slow down" }, headers: { "retry-after": "1" } });
    const limited = await fetch(`${sandbox.url}${API}?q=x`, { headers: headers(key) });
    expect(limited.status).toBe(429);
    sandbox.echoCredentials(true);
    const echoed = await fetch(`${sandbox.url}${API}?q=x`, { headers: headers(key) });
    expect(echoed.headers.get("x-echoed-authorization")).toBe(`Bearer ${key}`);
    expect(((await echoed.json()) as any).token).toBe(`Bearer ${key}`);
  });
});
