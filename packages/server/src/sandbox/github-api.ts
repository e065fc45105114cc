/** The REST routes of the fake GitHub (paths at the root, like api.github.com). */
import type { ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { header, sendEmpty, sendJson, sendText, type FakeRequest } from "./http.js";
import type { ProviderCore } from "./provider-core.js";
import { authenticatedUserJson, commentJson, issueJson, repoJson, type GitHubRepo, type GitHubStore } from "./github-data.js";
import { routeMoreGitHub, type GitHubMoreStore } from "./github-more-api.js";
import type { GitHubUser } from "./types.js";

export type GitHubApiContext = { core: ProviderCore<GitHubUser>; store: GitHubStore; more: GitHubMoreStore; apiBase: () => string };

type Viewer = { user: GitHubUser; scope: string } | undefined;
type Reply = (status: number, body?: unknown, headers?: Record<string, string>, echoFields?: string[]) => void;

const SUPPORTED_API_VERSIONS = ["2022-11-28"];
const DOCS = "https://docs.github.com/rest";
const DOC = {
  user: `${DOCS}/users/users#get-the-authenticated-user`,
  listRepos: `${DOCS}/repos/repos#list-repositories-for-the-authenticated-user`,
  getRepo: `${DOCS}/repos/repos#get-a-repository`,
  deleteRepo: `${DOCS}/repos/repos#delete-a-repository`,
  listIssues: `${DOCS}/issues/issues#list-repository-issues`,
  createIssue: `${DOCS}/issues/issues#create-an-issue`,
  createComment: `${DOCS}/issues/comments#create-an-issue-comment`,
};
const USER_AGENT_REQUIRED =
  "Request forbidden by administrative rules. Please make sure your request has a User-Agent header " +
  "(https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required). " +
  "Check https://developer.github.com for other possible causes.\n";

export async function handleGitHubApi(ctx: GitHubApiContext, req: FakeRequest, res: ServerResponse): Promise<void> {
  if (await ctx.core.interceptApi(req, res)) return;
  if (!header(req, "user-agent")) return sendText(res, 403, USER_AGENT_REQUIRED);
  const authorization = header(req, "authorization");
  const version = header(req, "x-github-api-version");
  const reply: Reply = (status, body, headers = {}, echoFields = []) => {
    const all = { ...rateLimitHeaders(ctx), ...ctx.core.echoHeaders(authorization), ...headers };
    if (body === undefined) return sendEmpty(res, status, all);
    sendJson(res, status, ctx.core.echoInto(body, authorization, echoFields), all);
  };
  if (version !== undefined && !SUPPORTED_API_VERSIONS.includes(version)) {
    return reply(400, { message: `API version ${version} is not supported.`, documentation_url: `${DOCS}/about-the-rest-api/api-versions`, status: "400" });
  }

  const token = /^(?:bearer|token)\s+(\S+)$/i.exec(authorization ?? "")?.[1];
  let viewer: Viewer;
  if (authorization !== undefined) {
    const result = ctx.core.state.authenticate(token);
    if (!result.ok) return reply(401, { message: "Bad credentials", documentation_url: DOCS, status: "401" });
    viewer = { user: result.grant.user, scope: result.grant.scope };
    ctx.store.ensureSeeded(viewer.user);
  }
  const scopeHeaders: Record<string, string> = viewer ? { "x-oauth-scopes": viewer.scope.split(" ").filter(Boolean).join(", "), "x-accepted-oauth-scopes": "" } : {};
  const send: Reply = (status, body, headers = {}, echoFields) => reply(status, body, { ...scopeHeaders, ...headers }, echoFields);
  await routeGitHub(ctx, req, viewer, send);
}

async function routeGitHub(ctx: GitHubApiContext, req: FakeRequest, viewer: Viewer, send: Reply): Promise<void> {
  const base = ctx.apiBase();
  const { method, path } = req;
  const requiresAuth = (docs: string) => send(401, { message: "Requires authentication", documentation_url: docs, status: "401" });
  const notFound = (docs = DOCS) => send(404, { message: "Not Found", documentation_url: docs, status: "404" });

  if (method === "GET" && path === "/user") {
    if (!viewer) return requiresAuth(DOC.user);
    const publicRepos = ctx.store.ownedBy(viewer.user.login).filter((repo) => !repo.private).length;
    return send(200, authenticatedUserJson(viewer.user, base, publicRepos), {}, ["bio"]);
  }
  if (method === "GET" && path === "/user/repos") {
    if (!viewer) return requiresAuth(DOC.listRepos);
    return listRepos(ctx, req, viewer, send);
  }

  if (routeMoreGitHub({ store: ctx.store, more: ctx.more, apiBase: base }, req, viewer, send, () => jsonBody(req))) return;
  const match = /^\/repos\/([^/]+)\/([^/]+)(\/issues(?:\/(\d+)\/comments)?)?$/.exec(path);
  if (!match) return notFound();
  const [, owner, name, issuesPart, issueNumber] = match;
  const route = !issuesPart ? "repo" : issueNumber === undefined ? "issues" : "comments";
  const docs =
    route === "comments" ? DOC.createComment
    : route === "issues" ? (method === "GET" ? DOC.listIssues : DOC.createIssue)
    : method === "DELETE" ? DOC.deleteRepo
    : DOC.getRepo;
  const repo = ctx.store.find(decodeURIComponent(owner!), decodeURIComponent(name!));
  if (!repo || (repo.private && !isOwner(repo, viewer))) return notFound(docs);

  if (route === "repo" && method === "GET") return send(200, repoJson(repo, base, viewer?.user));
  if (route === "repo" && method === "DELETE") {
    if (!viewer) return requiresAuth(docs);
    if (!isOwner(repo, viewer)) return send(403, { message: "Must have admin rights to Repository.", documentation_url: docs, status: "403" });
    ctx.store.remove(repo);
    return send(204);
  }
  if (route === "issues" && method === "GET") return listIssues(ctx, req, repo, send);
  if (route === "issues" && method === "POST") {
    if (!viewer) return requiresAuth(docs);
    return createIssue(ctx, req, repo, viewer, send);
  }
  if (route === "comments" && method === "POST") {
    if (!viewer) return requiresAuth(docs);
    const issue = repo.issues.find((candidate) => candidate.number === Number(issueNumber));
    if (!issue) return notFound(docs);
    const body = jsonBody(req);
    if (!body) return problemsParsingJson(send, docs);
    if (typeof body.body !== "string") return invalidRequest(send, `"body" wasn't supplied.`, docs);
    const comment = { id: ctx.store.newId(), body: body.body, user: viewer.user, createdAt: ctx.store.iso() };
    issue.comments.push(comment);
    issue.updatedAt = comment.createdAt;
    const json = commentJson(repo, issue, comment, base);
    return send(201, json, { location: json.url });
  }
  return notFound();
}

function listRepos(ctx: GitHubApiContext, req: FakeRequest, viewer: NonNullable<Viewer>, send: Reply): void {
  const visibility = req.query.visibility ?? "all";
  if (!["all", "public", "private"].includes(visibility)) {
    return validationFailed(send, [{ resource: "Repository", field: "visibility", code: "invalid" }], DOC.listRepos);
  }
  const sort = req.query.sort ?? "full_name";
  const direction = req.query.direction ?? (sort === "full_name" ? "asc" : "desc");
  const key = (repo: GitHubRepo) =>
    sort === "created" ? repo.createdAt : sort === "updated" ? repo.updatedAt : sort === "pushed" ? repo.pushedAt : `${repo.owner.login}/${repo.name}`.toLowerCase();
  const repos = ctx.store
    .ownedBy(viewer.user.login)
    .filter((repo) => visibility === "all" || (visibility === "private") === repo.private)
    .sort((a, b) => key(a).localeCompare(key(b)) * (direction === "asc" ? 1 : -1));
  const page = paginate(repos, req, ctx.apiBase());
  send(200, page.items.map((repo) => repoJson(repo, ctx.apiBase(), viewer.user)), page.headers);
}

function listIssues(ctx: GitHubApiContext, req: FakeRequest, repo: GitHubRepo, send: Reply): void {
  const state = req.query.state ?? "open";
  if (!["open", "closed", "all"].includes(state)) {
    return validationFailed(send, [{ resource: "Issue", field: "state", code: "invalid" }], DOC.listIssues);
  }
  const issues = repo.issues.filter((issue) => state === "all" || issue.state === state).reverse();
  const page = paginate(issues, req, ctx.apiBase());
  send(200, page.items.map((issue) => issueJson(repo, issue, ctx.apiBase())), page.headers);
}

function createIssue(ctx: GitHubApiContext, req: FakeRequest, repo: GitHubRepo, viewer: NonNullable<Viewer>, send: Reply): void {
  const body = jsonBody(req);
  if (!body) return problemsParsingJson(send, DOC.createIssue);
  if (typeof body.title !== "string" && typeof body.title !== "number") {
    return invalidRequest(send, `"title" wasn't supplied.`, DOC.createIssue);
  }
  const assignees = Array.isArray(body.assignees) ? body.assignees.map(String) : [];
  const unknown = assignees.filter((login) => login.toLowerCase() !== repo.owner.login.toLowerCase());
  if (unknown.length > 0) {
    return validationFailed(send, unknown.map((value) => ({ value, resource: "Issue", field: "assignees", code: "invalid" })), DOC.createIssue);
  }
  const issue = ctx.store.newIssue(repo, String(body.title), "open", viewer.user, typeof body.body === "string" ? body.body : null);
  issue.assignees = assignees.length > 0 ? [repo.owner] : [];
  const labels = Array.isArray(body.labels) ? body.labels.map((label) => (typeof label === "string" ? label : String((label as { name?: unknown }).name))) : [];
  issue.labels = labels.map((name) => ({ id: ctx.store.newId(), name, color: "ededed" }));
  const json = issueJson(repo, issue, ctx.apiBase());
  send(201, json, { location: json.url });
}

function paginate<T>(items: T[], req: FakeRequest, apiBase: string): { items: T[]; headers: Record<string, string> } {
  const perPage = Math.min(Math.max(Number.parseInt(req.query.per_page ?? "30", 10) || 30, 1), 100);
  const page = Math.max(Number.parseInt(req.query.page ?? "1", 10) || 1, 1);
  const last = Math.max(Math.ceil(items.length / perPage), 1);
  const link = (target: number, rel: string) => {
    const url = new URL(`${apiBase}${req.path}`);
    for (const [name, value] of Object.entries(req.query)) url.searchParams.set(name, value);
    url.searchParams.set("per_page", String(perPage));
    url.searchParams.set("page", String(target));
    return `<${url.toString()}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(page - 1, "prev"));
  if (page < last) links.push(link(page + 1, "next"), link(last, "last"));
  if (page > 1) links.push(link(1, "first"));
  return { items: items.slice((page - 1) * perPage, page * perPage), headers: links.length > 0 ? { link: links.join(", ") } : {} };
}

function isOwner(repo: GitHubRepo, viewer: Viewer): boolean {
  return viewer?.user.login.toLowerCase() === repo.owner.login.toLowerCase();
}

/** GitHub parses the body as JSON whatever the Content-Type says. */
function jsonBody(req: FakeRequest): Record<string, unknown> | undefined {
  if (req.invalidJson) return undefined;
  let value: unknown = req.body;
  if (!String(header(req, "content-type") ?? "").includes("json")) {
    try {
      value = req.text ? JSON.parse(req.text) : undefined;
    } catch {
      return undefined;
    }
  }
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function problemsParsingJson(send: Reply, docs: string): void {
  send(400, { message: "Problems parsing JSON", documentation_url: docs, status: "400" });
}

function invalidRequest(send: Reply, detail: string, docs: string): void {
  send(422, { message: `Invalid request.\n\n${detail}`, documentation_url: docs, status: "422" });
}

function validationFailed(send: Reply, errors: Record<string, string>[], docs: string): void {
  send(422, { message: "Validation Failed", errors, documentation_url: docs, status: "422" });
}

function rateLimitHeaders(ctx: GitHubApiContext): Record<string, string> {
  const used = ctx.core.stats.apiCalls.length;
  return {
    "x-github-media-type": "github.v3; format=json",
    "x-github-api-version-selected": "2022-11-28",
    "x-github-request-id": randomUUID().toUpperCase().slice(0, 23),
    "x-ratelimit-limit": "5000",
    "x-ratelimit-remaining": String(Math.max(5000 - used, 0)),
    "x-ratelimit-reset": String(Math.floor(Date.now() / 1000) + 3600),
    "x-ratelimit-used": String(used),
    "x-ratelimit-resource": "core",
  };
}
