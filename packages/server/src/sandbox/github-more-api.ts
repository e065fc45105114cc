/**
 * More REST routes of the fake GitHub, for the scm tools past the first seven: pull requests
 * (list, get, create, merge), PATCH of an issue, issue search (a subset of GitHub's qualifiers:
 * repo:, is:issue|pr, is:open|closed, label:, author:, and words in the title) and file contents.
 * Each repository has one seeded open pull request, #42 (fix-footer into main), and a README.md.
 */
import { createHash } from "node:crypto";
import type { FakeRequest } from "./http.js";
import { issueJson, userJson, type GitHubIssue, type GitHubRepo, type GitHubStore } from "./github-data.js";
import type { GitHubUser } from "./types.js";

type Send = (status: number, body?: unknown, headers?: Record<string, string>) => void;
type Json = Record<string, unknown>;
type Pull = { issue: GitHubIssue; head: string; base: string; draft: boolean; headSha: string; merged: boolean; mergeCommitSha: string | null; mergedAt: string | null };

const DOCS = "https://docs.github.com/rest";
export const SEEDED_PULL_NUMBER = 42;
const sha = (text: string) => createHash("sha1").update(text).digest("hex");

export function createGitHubMoreStore(store: GitHubStore, now: () => number) {
  const pulls = new Map<GitHubRepo, Pull[]>();
  const iso = () => new Date(now()).toISOString().replace(/\.\d{3}Z$/, "Z");
  const pullsOf = (repo: GitHubRepo) => {
    let list = pulls.get(repo);
    if (!list) {
      list = [];
      pulls.set(repo, list);
      list.push(newPull(repo, "Fix the footer links", "fix-footer", "main", repo.owner, "The links 404.", false, SEEDED_PULL_NUMBER));
    }
    return list;
  };
  function newPull(repo: GitHubRepo, title: string, head: string, base: string, user: GitHubUser, body: string | null, draft: boolean, number?: number): Pull {
    const at = iso();
    const taken = [...repo.issues.map((issue) => issue.number), ...(pulls.get(repo) ?? []).map((pull) => pull.issue.number)];
    const issue: GitHubIssue = { id: store.newId(), number: number ?? Math.max(SEEDED_PULL_NUMBER, ...taken) + 1, title, body, state: "open", user, labels: [], assignees: [], comments: [], createdAt: at, updatedAt: at, closedAt: null };
    return { issue, head, base, draft, headSha: sha(`${repo.name}:${head}:${issue.number}`), merged: false, mergeCommitSha: null, mergedAt: null };
  }
  return { pullsOf, newPull, iso };
}

export type GitHubMoreStore = ReturnType<typeof createGitHubMoreStore>;

function pullJson(repo: GitHubRepo, pull: Pull, apiBase: string) {
  const fullName = `${repo.owner.login}/${repo.name}`;
  const issue = issueJson(repo, pull.issue, apiBase);
  const side = (ref: string, headSha: string) => ({ label: `${repo.owner.login}:${ref}`, ref, sha: headSha, user: userJson(repo.owner, apiBase), repo: { id: repo.id, name: repo.name, full_name: fullName } });
  return {
    ...issue,
    url: `${apiBase}/repos/${fullName}/pulls/${pull.issue.number}`,
    html_url: `https://github.com/${fullName}/pull/${pull.issue.number}`,
    diff_url: `https://github.com/${fullName}/pull/${pull.issue.number}.diff`,
    issue_url: issue.url,
    state: pull.merged ? "closed" : pull.issue.state,
    draft: pull.draft,
    head: side(pull.head, pull.headSha),
    base: side(pull.base, sha(`${repo.name}:${pull.base}`)),
    merged: pull.merged,
    merged_at: pull.mergedAt,
    merge_commit_sha: pull.mergeCommitSha,
    mergeable: pull.merged ? null : true,
    mergeable_state: pull.merged ? "unknown" : "clean",
    commits: 1,
    additions: 3,
    deletions: 1,
    changed_files: 1,
  };
}

const README = "# Hello World\n\nMy first repository on GitHub!\n";

function contentJson(repo: GitHubRepo, path: string, apiBase: string) {
  const fullName = `${repo.owner.login}/${repo.name}`;
  const links = { self: `${apiBase}/repos/${fullName}/contents/${path}`, git: `${apiBase}/repos/${fullName}/git/blobs/${sha(README)}`, html: `https://github.com/${fullName}/blob/main/${path}` };
  return {
    type: "file",
    encoding: "base64",
    size: Buffer.byteLength(README),
    name: path.split("/").at(-1),
    path,
    content: Buffer.from(README).toString("base64").replace(/(.{60})/g, "$1\n"),
    sha: sha(README),
    url: links.self,
    git_url: links.git,
    html_url: links.html,
    download_url: `https://raw.githubusercontent.com/${fullName}/main/${path}`,
    _links: links,
  };
}

/** GitHub's search qualifiers this fake understands; anything else is a word of the title. */
function matchesQuery(query: string, repo: GitHubRepo, issue: GitHubIssue, isPull: boolean): boolean {
  for (const term of query.split(/\s+/).filter(Boolean)) {
    const [qualifier, value = ""] = term.includes(":") ? [term.slice(0, term.indexOf(":")), term.slice(term.indexOf(":") + 1)] : [undefined, term];
    const ok =
      qualifier === "repo" ? value.toLowerCase() === `${repo.owner.login}/${repo.name}`.toLowerCase()
      : qualifier === "is" ? (value === "issue" ? !isPull : value === "pr" ? isPull : value === "open" || value === "closed" ? issue.state === value : true)
      : qualifier === "state" ? issue.state === value
      : qualifier === "label" ? issue.labels.some((label) => label.name.toLowerCase() === value.replace(/"/g, "").toLowerCase())
      : qualifier === "author" ? issue.user.login.toLowerCase() === value.toLowerCase()
      : qualifier === undefined ? issue.title.toLowerCase().includes(value.toLowerCase())
      : true;
    if (!ok) return false;
  }
  return true;
}

/** Answers a route this file serves and says true, or says false for the caller to go on. */
export function routeMoreGitHub(
  ctx: { store: GitHubStore; more: GitHubMoreStore; apiBase: string },
  req: FakeRequest & { body?: unknown },
  viewer: { user: GitHubUser } | undefined,
  send: Send,
  body: () => Json | undefined,
): boolean {
  const { method, path } = req;
  const requiresAuth = () => send(401, { message: "Requires authentication", documentation_url: DOCS, status: "401" });
  const notFound = () => send(404, { message: "Not Found", documentation_url: DOCS, status: "404" });
  const validation = (errors: Json[]) => send(422, { message: "Validation Failed", errors, documentation_url: DOCS, status: "422" });

  if (method === "GET" && path === "/search/issues") {
    if (!viewer) return requiresAuth(), true;
    const q = req.query.q ?? "";
    if (!q.trim()) return validation([{ resource: "Search", field: "q", code: "missing" }]), true;
    const items: unknown[] = [];
    for (const repo of ctx.store.ownedBy(viewer.user.login)) {
      for (const issue of repo.issues) if (matchesQuery(q, repo, issue, false)) items.push(issueJson(repo, issue, ctx.apiBase));
      for (const pull of ctx.more.pullsOf(repo)) if (matchesQuery(q, repo, pull.issue, true)) items.push({ ...issueJson(repo, pull.issue, ctx.apiBase), pull_request: { url: `${ctx.apiBase}/repos/${repo.owner.login}/${repo.name}/pulls/${pull.issue.number}` }, score: 1 });
    }
    const perPage = Math.min(Number(req.query.per_page ?? 30) || 30, 100);
    send(200, { total_count: items.length, incomplete_results: false, items: items.slice(0, perPage) });
    return true;
  }

  const match = /^\/repos\/([^/]+)\/([^/]+)\/(pulls(?:\/(\d+)(\/merge)?)?|issues\/(\d+)|contents\/(.+))$/.exec(path);
  if (!match) return false;
  const [, owner, name, , pullNumber, merge, issueNumber, contentPath] = match;
  const repo = ctx.store.find(decodeURIComponent(owner!), decodeURIComponent(name!));
  const isOwner = viewer?.user.login.toLowerCase() === repo?.owner.login.toLowerCase();
  if (issueNumber !== undefined && method !== "PATCH") return false;
  if (!repo || (repo.private && !isOwner)) return notFound(), true;

  if (contentPath !== undefined && method === "GET") {
    const file = contentPath.split("/").map(decodeURIComponent).join("/");
    if (file !== "README.md") return notFound(), true;
    send(200, contentJson(repo, file, ctx.apiBase));
    return true;
  }
  if (issueNumber !== undefined) {
    if (!viewer) return requiresAuth(), true;
    const issue = repo.issues.find((candidate) => candidate.number === Number(issueNumber));
    if (!issue) return notFound(), true;
    const fields = body();
    if (!fields) return send(400, { message: "Problems parsing JSON", documentation_url: DOCS, status: "400" }), true;
    if (fields.state !== undefined && fields.state !== "open" && fields.state !== "closed") return validation([{ resource: "Issue", field: "state", code: "invalid" }]), true;
    if (typeof fields.title === "string") issue.title = fields.title;
    if (typeof fields.body === "string") issue.body = fields.body;
    if (Array.isArray(fields.labels)) issue.labels = fields.labels.map((label) => ({ id: ctx.store.newId(), name: String(label), color: "ededed" }));
    if (Array.isArray(fields.assignees)) issue.assignees = fields.assignees.length ? [repo.owner] : [];
    if (fields.state === "closed" && issue.state !== "closed") issue.closedAt = ctx.more.iso();
    if (fields.state === "open") issue.closedAt = null;
    if (fields.state !== undefined) issue.state = fields.state as "open" | "closed";
    issue.updatedAt = ctx.more.iso();
    send(200, issueJson(repo, issue, ctx.apiBase));
    return true;
  }

  const pulls = ctx.more.pullsOf(repo);
  if (pullNumber === undefined && method === "GET") {
    const state = req.query.state ?? "open";
    const listed = pulls.filter((pull) => (state === "all" || (pull.merged ? "closed" : pull.issue.state) === state) && (!req.query.base || pull.base === req.query.base));
    send(200, listed.reverse().map((pull) => pullJson(repo, pull, ctx.apiBase)));
    return true;
  }
  if (pullNumber === undefined && method === "POST") {
    if (!viewer) return requiresAuth(), true;
    const fields = body();
    if (!fields) return send(400, { message: "Problems parsing JSON", documentation_url: DOCS, status: "400" }), true;
    const missing = ["head", "base"].filter((field) => typeof fields[field] !== "string");
    if (missing.length) return validation(missing.map((field) => ({ resource: "PullRequest", field, code: "missing_field" }))), true;
    if (fields.head === fields.base) return validation([{ resource: "PullRequest", code: "custom", message: `No commits between ${String(fields.base)} and ${String(fields.head)}` }]), true;
    const pull = ctx.more.newPull(repo, String(fields.title ?? fields.head), String(fields.head), String(fields.base), viewer.user, typeof fields.body === "string" ? fields.body : null, fields.draft === true);
    pulls.push(pull);
    send(201, pullJson(repo, pull, ctx.apiBase));
    return true;
  }
  const pull = pulls.find((candidate) => candidate.issue.number === Number(pullNumber));
  if (!pull) return notFound(), true;
  if (!merge && method === "GET") return send(200, pullJson(repo, pull, ctx.apiBase)), true;
  if (merge && method === "PUT") {
    if (!viewer) return requiresAuth(), true;
    if (!isOwner) return send(403, { message: "Must have push access to repository", documentation_url: DOCS, status: "403" }), true;
    const fields = body() ?? {};
    if (pull.merged || pull.issue.state === "closed") return send(405, { message: "Pull Request is not mergeable", documentation_url: DOCS, status: "405" }), true;
    if (fields.sha !== undefined && fields.sha !== pull.headSha) return send(409, { message: "Head branch was modified. Review and try the merge again.", documentation_url: DOCS, status: "409" }), true;
    pull.merged = true;
    pull.mergedAt = ctx.more.iso();
    pull.mergeCommitSha = sha(`${pull.headSha}:merged:${String(fields.merge_method ?? "merge")}`);
    pull.issue.state = "closed";
    pull.issue.closedAt = pull.mergedAt;
    send(200, { sha: pull.mergeCommitSha, merged: true, message: "Pull Request successfully merged" });
    return true;
  }
  return false;
}
