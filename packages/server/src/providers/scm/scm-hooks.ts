/** GitHub's quirks that need code; everything else about it is data (scm-declaration.ts). */
import type { ProviderHooks } from "../provider-types.js";
import { scmDeclaration } from "./scm-declaration.js";

type Json = Record<string, unknown>;

/** The API headers, lower-cased as every call sends them. */
const apiHeaders = Object.fromEntries(Object.entries(scmDeclaration.default_headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));

// Summaries flatten nested objects (owner, user, labels) and name absent values: more than pointers can say.
function repoSummary(repo: Json) {
  const owner = repo.owner as { login?: string } | undefined;
  return {
    id: repo.id,
    name: repo.name,
    full_name: repo.full_name,
    owner: owner?.login,
    private: repo.private,
    description: repo.description ?? null,
    html_url: repo.html_url,
    default_branch: repo.default_branch,
    updated_at: repo.updated_at,
  };
}

function issueSummary(issue: Json) {
  const user = issue.user as { login?: string } | undefined;
  const labels = (issue.labels as ({ name?: string } | string)[] | undefined) ?? [];
  return {
    id: issue.id,
    number: issue.number,
    title: issue.title,
    state: issue.state,
    html_url: issue.html_url,
    user: user?.login,
    labels: labels.map((label) => (typeof label === "string" ? label : label.name)),
    is_pull_request: issue.pull_request !== undefined,
    created_at: issue.created_at,
  };
}

function pullSummary(pull: Json) {
  const ref = (side: unknown) => (side as { ref?: string } | undefined)?.ref;
  return {
    id: pull.id,
    number: pull.number,
    title: pull.title,
    state: pull.state,
    draft: pull.draft ?? false,
    merged: pull.merged ?? pull.merged_at != null,
    html_url: pull.html_url,
    user: (pull.user as { login?: string } | undefined)?.login,
    head: ref(pull.head),
    base: ref(pull.base),
    created_at: pull.created_at,
    updated_at: pull.updated_at,
  };
}

/** A file's text (GitHub sends it base64-encoded), or a directory's entries. */
function contentsOf(body: unknown) {
  if (Array.isArray(body)) return { type: "dir", entries: (body as Json[]).map((entry) => ({ name: entry.name, path: entry.path, type: entry.type, size: entry.size })) };
  const file = body as Json;
  const text = file.encoding === "base64" && typeof file.content === "string" ? Buffer.from(file.content, "base64").toString("utf8") : (file.content ?? null);
  return { type: file.type, path: file.path, sha: file.sha, size: file.size, html_url: file.html_url, ...(file.type === "file" ? { text } : {}) };
}

export const scmHooks: ProviderHooks = {
  oauth: {
    // GitHub answers token errors with HTTP 200 and an `error` field.
    inspectTokenResponse: (body) => (typeof body.error === "string" ? { error: body.error, description: body.error_description as string | undefined } : undefined),
    // DELETE /applications/{client_id}/grant, authorised by the app itself, revokes the grant and all its tokens.
    revocation: ({ token, clientId, clientSecret, apiBaseUrl }) => ({
      url: apiBaseUrl,
      request: {
        method: "DELETE",
        path: `/applications/${encodeURIComponent(clientId)}/grant`,
        headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`, ...apiHeaders },
        body: { access_token: token },
      },
    }),
  },
  tools: {
    "scm.list_repositories": { mapResponse: ({ body }) => ({ repositories: (body as Json[]).map(repoSummary) }) },
    "scm.get_repository": { mapResponse: ({ body }) => repoSummary(body as Json) },
    "scm.list_issues": { mapResponse: ({ body }) => ({ issues: (body as Json[]).map(issueSummary) }) },
    "scm.create_issue": { mapResponse: ({ body }) => issueSummary(body as Json) },
    "scm.list_pull_requests": { mapResponse: ({ body }) => ({ pull_requests: (body as Json[]).map(pullSummary) }) },
    "scm.get_pull_request": {
      mapResponse: ({ body }) => {
        const pull = body as Json;
        return { ...pullSummary(pull), body: pull.body ?? null, mergeable: pull.mergeable ?? null, mergeable_state: pull.mergeable_state ?? null, commits: pull.commits, additions: pull.additions, deletions: pull.deletions, changed_files: pull.changed_files };
      },
    },
    "scm.create_pull_request": { mapResponse: ({ body }) => pullSummary(body as Json) },
    "scm.search_issues": { mapResponse: ({ body }) => ({ total_count: (body as Json).total_count, issues: ((body as Json).items as Json[]).map(issueSummary) }) },
    "scm.update_issue": { mapResponse: ({ body }) => issueSummary(body as Json) },
    "scm.get_file_contents": {
      // A file path keeps its slashes: each segment is encoded on its own (the pattern refuses "." and "..").
      request: (built, args) => ({
        ...built,
        path: `/repos/${encodeURIComponent(args.owner)}/${encodeURIComponent(args.repo)}/contents/${String(args.path).split("/").map(encodeURIComponent).join("/")}`,
      }),
      mapResponse: ({ body }) => contentsOf(body),
    },
    // GitHub answers 204 with no body: the result is built from the arguments.
    "scm.delete_repository": { mapResponse: (_response, args) => ({ deleted: true, full_name: `${args.owner}/${args.repo}` }) },
  },
};
