/**
 * A small "tasks" API that imitates no vendor, for integration tests of tenant-defined providers:
 * plain JSON CRUD under `/api`, guarded either by an `X-Api-Key` header or by OAuth 2 (authorization
 * code + PKCE S256, rotating refresh tokens, RFC 6749 errors). Its OpenAPI document is
 * fake-tasks-openapi.yaml next to this file. Listens on 127.0.0.1 only, on a random port.
 */
import type { ServerResponse } from "node:http";
import { bearerToken, clientCredentials, header, redirect, sendEmpty, sendJson, startServer, type FakeRequest } from "../../src/sandbox/http.js";
import { createOAuthState, randomToken } from "../../src/sandbox/oauth-state.js";
import { splitScopes } from "../../src/sandbox/provider-core.js";

export type TaskStatus = "open" | "done";
export type Task = { id: string; title: string; status: TaskStatus; created_at: string };

export type FakeTasksOptions = {
  auth: "api_key" | "oauth";
  /** Required in api_key mode: the only value `X-Api-Key` may carry. */
  apiKey?: string;
  /** Required in oauth mode: client_id → client_secret of every app the token endpoint accepts. */
  clientIds?: Record<string, string>;
  /** `expires_in` of every access token (default 3600). */
  accessTokenTtlSeconds?: number;
};

export type RecordedTasksRequest = {
  method: string;
  /** As received, still percent-encoded (e.g. `/api/tasks/notes%2F2024%20q1`). */
  path: string;
  query: Record<string, string>;
  /** Every request header, names lower-cased. */
  headers: Record<string, string | undefined>;
  /** Parsed JSON (or form fields as an object); undefined when empty or not parseable. */
  body: unknown;
};

export type FakeTasksStats = {
  /** Every `/api` request, refused ones included. */
  requests: RecordedTasksRequest[];
  /** Every token endpoint request, failed ones included; clientId is "" when none was presented. */
  tokenRequests: { grantType: string; clientId: string; clientAuth: "basic" | "body" | "none" }[];
  /** Successful refresh_token grants. */
  refreshGrants: number;
  /** Successful authorization_code grants. */
  authorizationCodeGrants: number;
  /** Grants revoked at the revoke endpoint. */
  revocations: number;
};

export type FakeTasks = {
  /** http://127.0.0.1:<port> */
  url: string;
  /** `${url}/api`; the OpenAPI paths are relative to it. */
  apiBaseUrl: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  stats: FakeTasksStats;
  /** A copy of the current tasks, in creation order. */
  tasks(): Task[];
  /** Adds a task directly (the API never lets a caller choose an id), e.g. one whose id needs percent-encoding. */
  addTask(task: { id?: string; title: string; status?: TaskStatus; created_at?: string }): Task;
  /** Every access token issued so far answers 401 from now on; refresh tokens keep working. */
  expireAccessTokens(): void;
  close(): Promise<void>;
};

/** Who every token and key acts as. */
export const FAKE_TASKS_USER = { id: "user-1", name: "Tasks User" } as const;

/** Every fake starts with these; the third id needs percent-encoding in a path. */
export const FAKE_TASKS_SEED: readonly Task[] = [
  { id: "task-1", title: "Write the quarterly report", status: "open", created_at: "2024-01-02T09:00:00.000Z" },
  { id: "task-2", title: "Book the meeting room", status: "done", created_at: "2024-01-03T09:00:00.000Z" },
  { id: "notes/2024 q1", title: "Tidy the shared notes", status: "open", created_at: "2024-01-04T09:00:00.000Z" },
];

const MAX_LIMIT = 100;
/** A base64url SHA-256 digest, the only challenge S256 can produce. */
const CHALLENGE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

type Refusal = { message: string; headers?: Record<string, string> };
type ApiContext = { store: TaskStore; stats: FakeTasksStats; refuse: (req: FakeRequest) => Refusal | undefined };

export async function startFakeTasks(options: FakeTasksOptions): Promise<FakeTasks> {
  const stats: FakeTasksStats = { requests: [], tokenRequests: [], refreshGrants: 0, authorizationCodeGrants: 0, revocations: 0 };
  const store = createTaskStore();
  const oauth = options.auth === "oauth" ? createTasksOAuth(requiredClients(options), options.accessTokenTtlSeconds ?? 3600, stats) : undefined;
  const refuse = oauth ? oauth.refuse : apiKeyGuard(requiredApiKey(options));
  const api: ApiContext = { store, stats, refuse };

  const server = await startServer(async (req, res) => {
    if (req.path === "/api" || req.path.startsWith("/api/")) return handleApi(api, req, res);
    if (oauth && req.path === "/oauth/authorize" && req.method === "GET") return oauth.authorize(req, res);
    if (oauth && req.path === "/oauth/token" && req.method === "POST") return oauth.token(req, res);
    if (oauth && req.path === "/oauth/revoke" && req.method === "POST") return oauth.revoke(req, res);
    sendJson(res, 404, { message: "not found" });
  });
  return {
    url: server.url,
    apiBaseUrl: `${server.url}/api`,
    authorizeUrl: `${server.url}/oauth/authorize`,
    tokenUrl: `${server.url}/oauth/token`,
    revokeUrl: `${server.url}/oauth/revoke`,
    stats,
    tasks: () => store.all(),
    addTask: (task) => store.add(task),
    expireAccessTokens: () => oauth?.expireAccessTokens(),
    close: () => server.close(),
  };
}

// A mode without its credentials would refuse everything, which reads as a broker bug; fail early instead.
function requiredApiKey(options: FakeTasksOptions): string {
  if (!options.apiKey) throw new Error("startFakeTasks: api_key mode needs options.apiKey");
  return options.apiKey;
}

function requiredClients(options: FakeTasksOptions): Map<string, string> {
  const clients = new Map(Object.entries(options.clientIds ?? {}));
  if (clients.size === 0) throw new Error("startFakeTasks: oauth mode needs options.clientIds");
  return clients;
}

// ---------------------------------------------------------------------------------------------
// Tasks

function createTaskStore() {
  const tasks: Task[] = FAKE_TASKS_SEED.map((task) => ({ ...task }));
  let nextNumber = 1;

  const find = (id: string) => tasks.find((task) => task.id === id);
  const newId = () => {
    let id = `task-${nextNumber++}`;
    while (find(id)) id = `task-${nextNumber++}`;
    return id;
  };

  return {
    find,
    all: () => tasks.map((task) => ({ ...task })),
    add(input: { id?: string; title: string; status?: TaskStatus; created_at?: string }): Task {
      const id = input.id ?? newId();
      if (find(id)) throw new Error(`fake tasks: a task with id ${JSON.stringify(id)} exists`);
      const task: Task = { id, title: input.title, status: input.status ?? "open", created_at: input.created_at ?? new Date().toISOString() };
      tasks.push(task);
      return { ...task };
    },
    remove(id: string): void {
      const index = tasks.findIndex((task) => task.id === id);
      if (index >= 0) tasks.splice(index, 1);
    },
  };
}

type TaskStore = ReturnType<typeof createTaskStore>;

function handleApi(ctx: ApiContext, req: FakeRequest, res: ServerResponse): void {
  ctx.stats.requests.push({ method: req.method, path: req.path, query: { ...req.query }, headers: lowerCasedHeaders(req), body: req.body });
  const refusal = ctx.refuse(req);
  if (refusal) return sendJson(res, 401, { message: refusal.message }, refusal.headers);

  const route = req.path.slice("/api".length);
  if (route === "/me") return req.method === "GET" ? sendJson(res, 200, FAKE_TASKS_USER) : methodNotAllowed(res, "GET");
  if (route === "/tasks") {
    if (req.method === "GET") return listTasks(ctx.store, req, res);
    if (req.method === "POST") return createTask(ctx.store, req, res);
    return methodNotAllowed(res, "GET, POST");
  }
  if (route.startsWith("/tasks/")) return handleTask(ctx.store, route.slice("/tasks/".length), req, res);
  sendJson(res, 404, { message: "not found" });
}

/** `rawId` is the path segment as sent: an id containing `/` or a space only matches when percent-encoded. */
function handleTask(store: TaskStore, rawId: string, req: FakeRequest, res: ServerResponse): void {
  if (!["GET", "PATCH", "DELETE"].includes(req.method)) return methodNotAllowed(res, "GET, PATCH, DELETE");
  const id = rawId.includes("/") ? undefined : safeDecode(rawId);
  const task = id === undefined ? undefined : store.find(id);
  if (!task) return sendJson(res, 404, { message: "task not found" });
  if (req.method === "GET") return sendJson(res, 200, task);
  if (req.method === "DELETE") {
    store.remove(task.id);
    return sendEmpty(res, 204);
  }
  const body = jsonObjectBody(req, res);
  if (!body) return;
  const title = body.title === undefined ? task.title : validTitle(body.title);
  if (title === undefined) return badRequest(res, "title must be a non-empty string");
  const status = body.status === undefined ? task.status : validStatus(body.status);
  if (status === undefined) return badRequest(res, "status must be open or done");
  Object.assign(task, { title, status });
  sendJson(res, 200, task);
}

function listTasks(store: TaskStore, req: FakeRequest, res: ServerResponse): void {
  const { status, limit } = req.query;
  if (status !== undefined && validStatus(status) === undefined) return badRequest(res, "status must be open or done");
  if (limit !== undefined && !(/^\d{1,3}$/.test(limit) && Number(limit) >= 1 && Number(limit) <= MAX_LIMIT)) {
    return badRequest(res, `limit must be an integer from 1 to ${MAX_LIMIT}`);
  }
  const matching = store.all().filter((task) => status === undefined || task.status === status);
  sendJson(res, 200, { items: matching.slice(0, limit === undefined ? undefined : Number(limit)), total: matching.length });
}

function createTask(store: TaskStore, req: FakeRequest, res: ServerResponse): void {
  const body = jsonObjectBody(req, res);
  if (!body) return;
  const title = validTitle(body.title);
  if (title === undefined) return badRequest(res, "title is required (a non-empty string)");
  const status = body.status === undefined ? "open" : validStatus(body.status);
  if (status === undefined) return badRequest(res, "status must be open or done");
  sendJson(res, 201, store.add({ title, status }));
}

/** The body of POST/PATCH as a JSON object, or undefined once an error has been answered. */
function jsonObjectBody(req: FakeRequest, res: ServerResponse): Record<string, unknown> | undefined {
  // Strict on purpose: the OpenAPI document says JSON, so a broker sending a form body is a finding.
  if (!String(header(req, "content-type") ?? "").toLowerCase().includes("application/json")) {
    sendJson(res, 415, { message: "content-type must be application/json" });
    return undefined;
  }
  if (req.invalidJson || !req.body || typeof req.body !== "object" || Array.isArray(req.body)) {
    badRequest(res, "the body must be a JSON object");
    return undefined;
  }
  return req.body as Record<string, unknown>;
}

const validTitle = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value : undefined);
const validStatus = (value: unknown) => (value === "open" || value === "done" ? (value as TaskStatus) : undefined);

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function lowerCasedHeaders(req: FakeRequest): Record<string, string | undefined> {
  return Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(", ") : value]),
  );
}

const badRequest = (res: ServerResponse, message: string) => sendJson(res, 400, { message });
const methodNotAllowed = (res: ServerResponse, allow: string) => sendJson(res, 405, { message: "method not allowed" }, { allow });

function apiKeyGuard(apiKey: string) {
  return (req: FakeRequest): Refusal | undefined => (header(req, "x-api-key") === apiKey ? undefined : { message: "invalid api key" });
}

// ---------------------------------------------------------------------------------------------
// OAuth 2

type TasksUser = typeof FAKE_TASKS_USER;
type Credentials = { clientId: string | undefined; clientSecret: string | undefined; via: "basic" | "body" | "none" };

function createTasksOAuth(clients: Map<string, string>, ttlSeconds: number, stats: FakeTasksStats) {
  // The shared state checks one built-in app; this fake checks `clients` itself, so the built-in
  // app gets credentials nobody knows.
  const state = createOAuthState<TasksUser>({
    clientId: randomToken(16),
    clientSecret: randomToken(16),
    ttlSeconds,
    now: Date.now,
    newAccessToken: () => `tasks_at_${randomToken(24)}`,
    newRefreshToken: () => `tasks_rt_${randomToken(24)}`,
    refreshRevokesOldAccessToken: false,
  });
  // Codes and refresh tokens belong to the client they were issued to (RFC 6749 §4.1.3, §6).
  const codeOwners = new Map<string, string>();
  const refreshOwners = new Map<string, string>();

  /** Answers 401 for an unknown client or a wrong secret; with `optional`, sending no secret at all passes. */
  function authenticateClient(credentials: Credentials, res: ServerResponse, optional = false): boolean {
    if (optional && credentials.via === "none") return true;
    const secret = credentials.clientId === undefined ? undefined : clients.get(credentials.clientId);
    if (secret !== undefined && credentials.clientSecret === secret) return true;
    const challenge: Record<string, string> = credentials.via === "basic" ? { "www-authenticate": 'Basic realm="tasks"' } : {};
    tokenError(res, 401, "invalid_client", "client authentication failed", challenge);
    return false;
  }

  function authorize(req: FakeRequest, res: ServerResponse): void {
    const query = req.query;
    // Errors about the client or the redirect URI must not redirect (RFC 6749 §4.1.2.1).
    if (!query.client_id || !clients.has(query.client_id)) return tokenError(res, 400, "invalid_client", "unknown client_id");
    const redirectUri = query.redirect_uri;
    if (!redirectUri || !/^https?:\/\//.test(redirectUri) || !URL.canParse(redirectUri)) {
      return tokenError(res, 400, "invalid_request", "redirect_uri is required (an http or https URL)");
    }
    if (!query.state) return tokenError(res, 400, "invalid_request", "state is required");

    const back = (params: Record<string, string>) => {
      const target = new URL(redirectUri);
      for (const [name, value] of Object.entries({ ...params, state: query.state! })) target.searchParams.set(name, value);
      redirect(res, target.toString());
    };
    if (query.response_type !== "code") return back({ error: "unsupported_response_type", error_description: "response_type must be code" });
    if (!CHALLENGE_PATTERN.test(query.code_challenge ?? "")) {
      return back({ error: "invalid_request", error_description: "code_challenge is required (43 base64url characters)" });
    }
    if (query.code_challenge_method !== "S256") return back({ error: "invalid_request", error_description: "code_challenge_method must be S256" });
    const code = state.issueCode({ redirectUri, codeChallenge: query.code_challenge!, scope: splitScopes(query.scope).join(" "), user: FAKE_TASKS_USER });
    codeOwners.set(code, query.client_id);
    back({ code });
  }

  function token(req: FakeRequest, res: ServerResponse): void {
    const credentials = readCredentials(req);
    const grantType = req.fields.grant_type ?? "";
    stats.tokenRequests.push({ grantType, clientId: credentials.clientId ?? "", clientAuth: credentials.via });
    if (!isForm(req)) return tokenError(res, 400, "invalid_request", "content-type must be application/x-www-form-urlencoded");
    // RFC 6749 §2.3: one authentication method per request.
    if (credentials.via === "basic" && req.fields.client_secret !== undefined) {
      return tokenError(res, 400, "invalid_request", "client credentials sent both in Authorization and in the body");
    }
    if (credentials.via === "basic" && req.fields.client_id !== undefined && req.fields.client_id !== credentials.clientId) {
      return tokenError(res, 400, "invalid_request", "client_id does not match the authenticated client");
    }
    if (!authenticateClient(credentials, res)) return;
    const clientId = credentials.clientId!;
    if (grantType === "authorization_code") return exchangeCode(req, res, clientId);
    if (grantType === "refresh_token") return refresh(req, res, clientId);
    if (!grantType) return tokenError(res, 400, "invalid_request", "grant_type is required");
    tokenError(res, 400, "unsupported_grant_type", `unsupported grant_type: ${grantType}`);
  }

  function exchangeCode(req: FakeRequest, res: ServerResponse, clientId: string): void {
    const { code, redirect_uri: redirectUri, code_verifier: codeVerifier } = req.fields;
    if (code && codeOwners.has(code) && codeOwners.get(code) !== clientId) {
      return tokenError(res, 400, "invalid_grant", "the code was issued to another client");
    }
    const result = state.exchangeCode({ code, redirectUri, codeVerifier });
    if (!result.ok) {
      const description = {
        invalid_code: "unknown authorization code",
        code_reused: "the authorization code was already used",
        code_expired: "the authorization code expired",
        redirect_mismatch: "redirect_uri does not match the authorization request",
        pkce_mismatch: "code_verifier does not match the code_challenge",
      }[result.reason];
      return tokenError(res, 400, "invalid_grant", description);
    }
    stats.authorizationCodeGrants += 1;
    refreshOwners.set(result.tokens.refreshToken, clientId);
    sendJson(res, 200, tokenBody(result.tokens), NO_STORE);
  }

  function refresh(req: FakeRequest, res: ServerResponse, clientId: string): void {
    const presented = req.fields.refresh_token;
    if (!presented || refreshOwners.get(presented) !== clientId) return tokenError(res, 400, "invalid_grant", "invalid refresh token");
    const result = state.refresh(presented);
    if (!result.ok) return tokenError(res, 400, "invalid_grant", "invalid refresh token");
    stats.refreshGrants += 1;
    refreshOwners.set(result.tokens.refreshToken, clientId);
    sendJson(res, 200, tokenBody(result.tokens), NO_STORE);
  }

  /** RFC 7009: client credentials are checked when sent; unknown tokens still answer 200. */
  function revoke(req: FakeRequest, res: ServerResponse): void {
    if (!isForm(req)) return tokenError(res, 400, "invalid_request", "content-type must be application/x-www-form-urlencoded");
    if (!authenticateClient(readCredentials(req), res, true)) return;
    if (!req.fields.token) return tokenError(res, 400, "invalid_request", "token is required");
    if (state.revokeGrantOf(req.fields.token)) stats.revocations += 1;
    sendEmpty(res, 200);
  }

  /** RFC 6750 §3: a challenge without an error code when no token was sent at all. */
  function refuse(req: FakeRequest): Refusal | undefined {
    const result = state.authenticate(bearerToken(header(req, "authorization")));
    if (result.ok) return undefined;
    if (result.reason === "missing") return { message: "missing access token", headers: { "www-authenticate": 'Bearer realm="tasks"' } };
    const message = { unknown: "invalid access token", expired: "access token expired", revoked: "access token revoked" }[result.reason];
    return { message, headers: { "www-authenticate": `Bearer realm="tasks", error="invalid_token", error_description="${message}"` } };
  }

  return { authorize, token, revoke, refuse, expireAccessTokens: () => state.expireAllAccessTokens() };
}

/** Basic credentials that do not decode count as wrong ones, not as a crash. */
function readCredentials(req: FakeRequest): Credentials {
  try {
    const { clientId, clientSecret, viaBasic } = clientCredentials(req);
    const via = viaBasic ? "basic" : req.fields.client_secret !== undefined ? "body" : "none";
    return { clientId, clientSecret, via };
  } catch {
    return { clientId: undefined, clientSecret: undefined, via: "basic" };
  }
}

const isForm = (req: FakeRequest) => String(header(req, "content-type") ?? "").toLowerCase().includes("application/x-www-form-urlencoded");

function tokenError(res: ServerResponse, status: number, error: string, description: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error, error_description: description }, { ...NO_STORE, ...headers });
}

function tokenBody(tokens: { accessToken: string; refreshToken: string; expiresIn: number; grant: { scope: string } }) {
  return {
    access_token: tokens.accessToken,
    token_type: "Bearer",
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
    scope: tokens.grant.scope,
  };
}
