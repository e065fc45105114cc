export type { ToolDefinition } from "../provider-types.js";
export type { UpstreamResponse as UpstreamResponseLike } from "../upstream-client.js";

// GitHub owner and repository names: letters, digits, '-', '_' and '.', never a path.
const NAME = "^(?!\\.{1,2}$)[A-Za-z0-9_.-]{1,100}$";
export const ownerRepoProperties = {
  owner: { type: "string", pattern: NAME, description: "Account or organisation login" },
  repo: { type: "string", pattern: NAME, description: "Repository name" },
};

/** GitHub resolves logins and repository names whatever their case. */
export const OWNER_REPO_CASE_INSENSITIVE = ["/owner", "/repo"] as const;

export const repoPath = (args: Record<string, any>) =>
  `/repos/${encodeURIComponent(args.owner)}/${encodeURIComponent(args.repo)}`;

export function repoSummary(repo: Record<string, unknown>) {
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

export function issueSummary(issue: Record<string, unknown>) {
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

/** Upstream body shapes the mappers above rely on; anything else is an unexpected response. */
const loginHolder = { type: ["object", "null"] };
export const repoShape = { type: "object", properties: { owner: loginHolder } };
export const issueShape = {
  type: "object",
  properties: { user: loginHolder, labels: { type: "array", items: { type: ["object", "string"] } } },
};
export const listOf = (item: Record<string, unknown>) => ({ type: "array", items: item });
