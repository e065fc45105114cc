import { readFile } from "node:fs/promises";
import { compileErrors, validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { completeAuthorization, newPkcePair } from "../src/sandbox/oauth-test-client.js";
import { FAKE_TASKS_SEED, startFakeTasks, type FakeTasks } from "./support/fake-tasks.js";

const API_KEY = "tasks-key-123";
const CLIENTS = { "app-one": "secret-one", "app-two": "secret-two" };
// Never followed (the authorize step is read with redirect: "manual"); loopback all the same.
const REDIRECT_URI = "http://127.0.0.1:9/oauth/callback";

type Reply = { status: number; headers: Headers; body: any };

async function send(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, { redirect: "manual", ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const json = (method: string, body: unknown, headers: Record<string, string>): RequestInit => ({
  method,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

const postForm = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  send(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields) });

const basic = (clientId: string, secret: string) => `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`;

describe("fake tasks, api_key mode", () => {
  let fake: FakeTasks;
  const auth = { "X-Api-Key": API_KEY };
  beforeAll(async () => {
    fake = await startFakeTasks({ auth: "api_key", apiKey: API_KEY });
  });
  afterAll(() => fake.close());

  it("listens on loopback with the documented URLs", () => {
    expect(fake.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(fake.apiBaseUrl).toBe(`${fake.url}/api`);
  });

  it("refuses a missing or wrong key and records the refused request", async () => {
    const attempts: Record<string, string>[] = [{}, { "X-Api-Key": "wrong" }, { authorization: `Bearer ${API_KEY}` }];
    for (const headers of attempts) {
      const reply = await send(`${fake.apiBaseUrl}/tasks`, { headers });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({ message: "invalid api key" });
    }
    const last = fake.stats.requests.at(-1)!;
    expect(last).toMatchObject({ method: "GET", path: "/api/tasks", query: {} });
    expect(last.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("answers /me and records lower-cased headers", async () => {
    const reply = await send(`${fake.apiBaseUrl}/me`, { headers: { ...auth, "X-Trace": "t-1" } });
    expect(reply).toMatchObject({ status: 200, body: { id: "user-1", name: "Tasks User" } });
    expect(fake.stats.requests.at(-1)!.headers).toMatchObject({ "x-api-key": API_KEY, "x-trace": "t-1" });
  });

  it("lists with status and limit filters", async () => {
    const all = await send(`${fake.apiBaseUrl}/tasks`, { headers: auth });
    expect(all.body).toEqual({ items: FAKE_TASKS_SEED, total: 3 });
    const open = await send(`${fake.apiBaseUrl}/tasks?status=open&limit=1`, { headers: auth });
    expect(open.body).toEqual({ items: [FAKE_TASKS_SEED[0]], total: 2 });
    expect(fake.stats.requests.at(-1)!.query).toEqual({ status: "open", limit: "1" });
    expect((await send(`${fake.apiBaseUrl}/tasks?status=closed`, { headers: auth })).status).toBe(400);
    expect((await send(`${fake.apiBaseUrl}/tasks?limit=0`, { headers: auth })).status).toBe(400);
  });

  it("creates, reads, updates and deletes a task", async () => {
    const created = await send(`${fake.apiBaseUrl}/tasks`, json("POST", { title: "Water the plants" }, auth));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Water the plants", status: "open" });
    expect(Date.parse(created.body.created_at)).not.toBeNaN();
    expect(fake.stats.requests.at(-1)!.body).toEqual({ title: "Water the plants" });
    const url = `${fake.apiBaseUrl}/tasks/${encodeURIComponent(created.body.id)}`;

    expect((await send(url, { headers: auth })).body).toEqual(created.body);
    const updated = await send(url, json("PATCH", { status: "done" }, auth));
    expect(updated).toMatchObject({ status: 200, body: { ...created.body, status: "done" } });
    expect(fake.tasks().find((task) => task.id === created.body.id)?.status).toBe("done");

    expect((await send(url, { method: "DELETE", headers: auth })).status).toBe(204);
    expect(await send(url, { headers: auth })).toMatchObject({ status: 404, body: { message: "task not found" } });
    expect((await send(url, { method: "DELETE", headers: auth })).status).toBe(404);
  });

  it("validates bodies", async () => {
    const tasks = `${fake.apiBaseUrl}/tasks`;
    expect((await send(tasks, json("POST", {}, auth))).status).toBe(400);
    expect((await send(tasks, json("POST", { title: "x", status: "later" }, auth))).status).toBe(400);
    expect((await send(tasks, json("POST", ["x"], auth))).status).toBe(400);
    const form = await send(tasks, { method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: "title=x" });
    expect(form.status).toBe(415);
    expect(fake.stats.requests.at(-1)!.body).toEqual({ title: "x" });
    expect((await send(`${tasks}/task-1`, json("PATCH", { title: "" }, auth))).status).toBe(400);
  });

  it("matches ids only when percent-encoded", async () => {
    const seeded = FAKE_TASKS_SEED[2]!;
    const encoded = await send(`${fake.apiBaseUrl}/tasks/${encodeURIComponent(seeded.id)}`, { headers: auth });
    expect(encoded).toMatchObject({ status: 200, body: seeded });
    expect(fake.stats.requests.at(-1)!.path).toBe("/api/tasks/notes%2F2024%20q1");
    expect((await send(`${fake.apiBaseUrl}/tasks/notes/2024%20q1`, { headers: auth })).status).toBe(404);
    expect((await send(`${fake.apiBaseUrl}/tasks/notes%2F2024+q1`, { headers: auth })).status).toBe(404);

    const odd = fake.addTask({ id: "a b/c?d#e%f+g", title: "Odd id" });
    const url = `${fake.apiBaseUrl}/tasks/${encodeURIComponent(odd.id)}`;
    expect((await send(url, { headers: auth })).body).toEqual(odd);
    expect((await send(url, json("PATCH", { title: "Renamed" }, auth))).body).toMatchObject({ id: odd.id, title: "Renamed" });
    expect((await send(`${fake.apiBaseUrl}/tasks/%E0%A4%A`, { headers: auth })).status).toBe(404);
  });

  it("has no OAuth endpoints", async () => {
    expect((await postForm(fake.tokenUrl, { grant_type: "refresh_token", refresh_token: "x" })).status).toBe(404);
  });
});

describe("fake tasks, oauth mode", () => {
  let fake: FakeTasks;
  beforeAll(async () => {
    fake = await startFakeTasks({ auth: "oauth", clientIds: CLIENTS, accessTokenTtlSeconds: 600 });
  });
  afterAll(() => fake.close());

  function authorizeUrl(extra: Record<string, string> = {}, clientId = "app-one") {
    const pkce = newPkcePair();
    const url = new URL(fake.authorizeUrl);
    url.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      response_type: "code",
      state: "state-1",
      scope: "tasks.read tasks.write",
      code_challenge: pkce.challenge,
      code_challenge_method: "S256",
      ...extra,
    }).toString();
    return { url, verifier: pkce.verifier };
  }

  async function authorizedCode(clientId = "app-one") {
    const { url, verifier } = authorizeUrl({}, clientId);
    const result = await completeAuthorization(url);
    expect(result.status).toBe(302);
    expect(`${result.location!.origin}${result.location!.pathname}`).toBe(REDIRECT_URI);
    expect(result.state).toBe("state-1");
    return { code: result.code!, verifier };
  }

  const exchange = (code: string, verifier: string, headers: Record<string, string> = { authorization: basic("app-one", "secret-one") }, extra: Record<string, string> = {}) =>
    postForm(fake.tokenUrl, { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier, ...extra }, headers);

  async function connect() {
    const { code, verifier } = await authorizedCode();
    const reply = await exchange(code, verifier);
    expect(reply.status).toBe(200);
    return reply.body as { access_token: string; refresh_token: string };
  }

  const me = (accessToken: string) => send(`${fake.apiBaseUrl}/me`, { headers: { authorization: `Bearer ${accessToken}` } });

  it("refuses bad authorize requests", async () => {
    expect((await completeAuthorization(authorizeUrl({}, "nobody").url)).status).toBe(400);
    expect((await completeAuthorization(authorizeUrl({ redirect_uri: "" }).url)).status).toBe(400);
    expect((await completeAuthorization(authorizeUrl({ state: "" }).url)).status).toBe(400);
    const invalid: Record<string, string>[] = [{ response_type: "token" }, { code_challenge: "" }, { code_challenge_method: "plain" }];
    for (const extra of invalid) {
      const result = await completeAuthorization(authorizeUrl(extra).url);
      expect(result.status).toBe(302);
      expect(result.error).toBeDefined();
      expect(result.code).toBeUndefined();
      expect(result.state).toBe("state-1");
    }
  });

  it("exchanges a code with PKCE, once", async () => {
    const { code, verifier } = await authorizedCode();
    expect((await exchange(code, newPkcePair().verifier)).body.error).toBe("invalid_grant");
    expect((await exchange(code, verifier, undefined, { redirect_uri: "http://127.0.0.1:9/other" })).body.error).toBe("invalid_grant");

    const granted = await exchange(code, verifier);
    expect(granted.status).toBe(200);
    expect(granted.headers.get("cache-control")).toBe("no-store");
    expect(granted.body).toEqual({
      access_token: expect.any(String),
      token_type: "Bearer",
      expires_in: 600,
      refresh_token: expect.any(String),
      scope: "tasks.read tasks.write",
    });
    expect(fake.stats.authorizationCodeGrants).toBe(1);
    expect(fake.stats.tokenRequests.at(-1)).toEqual({ grantType: "authorization_code", clientId: "app-one", clientAuth: "basic" });

    const reused = await exchange(code, verifier);
    expect(reused).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect(await me(granted.body.access_token)).toMatchObject({ status: 200, body: { id: "user-1", name: "Tasks User" } });
    expect(fake.stats.requests.at(-1)!.headers.authorization).toBe(`Bearer ${granted.body.access_token}`);
  });

  it("authenticates clients with Basic or body secrets, never both", async () => {
    const viaBody = await authorizedCode("app-two");
    const body = await exchange(viaBody.code, viaBody.verifier, {}, { client_id: "app-two", client_secret: "secret-two" });
    expect(body.status).toBe(200);
    expect(fake.stats.tokenRequests.at(-1)).toEqual({ grantType: "authorization_code", clientId: "app-two", clientAuth: "body" });

    const { code, verifier } = await authorizedCode();
    const wrongSecret = await exchange(code, verifier, { authorization: basic("app-one", "nope") });
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(wrongSecret.headers.get("www-authenticate")).toMatch(/^Basic/);
    expect((await exchange(code, verifier, {}, { client_id: "app-one" })).status).toBe(401);
    const both = await exchange(code, verifier, { authorization: basic("app-one", "secret-one") }, { client_secret: "secret-one" });
    expect(both).toMatchObject({ status: 400, body: { error: "invalid_request" } });
    // Issued to app-one, so app-two cannot spend it; app-one still can.
    const otherClient = await exchange(code, verifier, { authorization: basic("app-two", "secret-two") });
    expect(otherClient).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await exchange(code, verifier)).status).toBe(200);
  });

  it("rotates refresh tokens", async () => {
    const first = await connect();
    const before = fake.stats.refreshGrants;
    const refresh = (token: string, clientId = "app-one", secret = "secret-one") =>
      postForm(fake.tokenUrl, { grant_type: "refresh_token", refresh_token: token }, { authorization: basic(clientId, secret) });

    expect(await refresh(first.refresh_token, "app-two", "secret-two")).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const second = await refresh(first.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.access_token).not.toBe(first.access_token);
    expect(second.body.refresh_token).not.toBe(first.refresh_token);
    expect(fake.stats.refreshGrants).toBe(before + 1);
    expect(fake.stats.tokenRequests.at(-1)).toEqual({ grantType: "refresh_token", clientId: "app-one", clientAuth: "basic" });

    expect(await refresh(first.refresh_token)).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    expect((await refresh(second.body.refresh_token)).status).toBe(200);
    expect(fake.stats.refreshGrants).toBe(before + 2);
  });

  it("answers 401 for expired tokens until the client refreshes", async () => {
    const tokens = await connect();
    expect((await me(tokens.access_token)).status).toBe(200);
    fake.expireAccessTokens();
    const expired = await me(tokens.access_token);
    expect(expired).toMatchObject({ status: 401, body: { message: "access token expired" } });
    expect(expired.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect((await send(`${fake.apiBaseUrl}/tasks`)).status).toBe(401);
    expect((await me("made-up")).status).toBe(401);

    const refreshed = await postForm(fake.tokenUrl, { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: "app-one", client_secret: "secret-one" });
    expect(refreshed.status).toBe(200);
    const list = await send(`${fake.apiBaseUrl}/tasks?limit=2`, { headers: { authorization: `Bearer ${refreshed.body.access_token}` } });
    expect(list).toMatchObject({ status: 200, body: { total: fake.tasks().length } });
    expect(list.body.items).toHaveLength(2);
  });

  it("expires tokens after accessTokenTtlSeconds", async () => {
    const shortLived = await startFakeTasks({ auth: "oauth", clientIds: CLIENTS, accessTokenTtlSeconds: 0 });
    try {
      const pkce = newPkcePair();
      const url = new URL(shortLived.authorizeUrl);
      url.search = new URLSearchParams({ client_id: "app-one", redirect_uri: REDIRECT_URI, response_type: "code", state: "s", code_challenge: pkce.challenge, code_challenge_method: "S256" }).toString();
      const { code } = await completeAuthorization(url);
      const granted = await postForm(shortLived.tokenUrl, { grant_type: "authorization_code", code: code!, redirect_uri: REDIRECT_URI, code_verifier: pkce.verifier }, { authorization: basic("app-one", "secret-one") });
      expect(granted.body).toMatchObject({ expires_in: 0, scope: "" });
      const reply = await send(`${shortLived.apiBaseUrl}/me`, { headers: { authorization: `Bearer ${granted.body.access_token}` } });
      expect(reply.status).toBe(401);
    } finally {
      await shortLived.close();
    }
  });

  it("revokes a grant", async () => {
    const tokens = await connect();
    const revoked = await postForm(fake.revokeUrl, { token: tokens.refresh_token, token_type_hint: "refresh_token" }, { authorization: basic("app-one", "secret-one") });
    expect(revoked.status).toBe(200);
    expect(fake.stats.revocations).toBe(1);
    expect((await me(tokens.access_token)).status).toBe(401);
    const refresh = await postForm(fake.tokenUrl, { grant_type: "refresh_token", refresh_token: tokens.refresh_token }, { authorization: basic("app-one", "secret-one") });
    expect(refresh.body.error).toBe("invalid_grant");
    expect((await postForm(fake.revokeUrl, { token: "unknown" })).status).toBe(200);
    expect((await postForm(fake.revokeUrl, { token: "unknown" }, { authorization: basic("app-one", "bad") })).status).toBe(401);
  });

  it("rejects unknown and missing grant types", async () => {
    const headers = { authorization: basic("app-one", "secret-one") };
    expect((await postForm(fake.tokenUrl, { grant_type: "client_credentials" }, headers)).body.error).toBe("unsupported_grant_type");
    expect((await postForm(fake.tokenUrl, {}, headers)).body.error).toBe("invalid_request");
  });
});

describe("fake tasks options and OpenAPI document", () => {
  it("insists on the credentials of its mode", async () => {
    await expect(startFakeTasks({ auth: "api_key" })).rejects.toThrow(/apiKey/);
    await expect(startFakeTasks({ auth: "oauth", clientIds: {} })).rejects.toThrow(/clientIds/);
  });

  it("describes the task operations and getMe", async () => {
    const document = parse(await readFile(new URL("./support/fake-tasks-openapi.yaml", import.meta.url), "utf8"));
    expect(document.openapi).toMatch(/^3\.0\./);
    const validation = await validate(structuredClone(document));
    expect(validation.valid, validation.valid ? "" : compileErrors(validation)).toBe(true);
    expect(validation.warnings).toEqual([]);
    const operations = Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId}`),
    );
    expect(operations.sort()).toEqual(
      ["DELETE /tasks/{id} deleteTask", "GET /me getMe", "GET /tasks listTasks", "GET /tasks/{id} getTask", "PATCH /tasks/{id} updateTask", "POST /tasks createTask"].sort(),
    );
    const create = document.paths["/tasks"].post.requestBody;
    expect(create.required).toBe(true);
    expect(create.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/NewTask" });
    expect(document.components.schemas.NewTask.required).toEqual(["title"]);
  });
});
