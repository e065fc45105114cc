/**
 * `scm`: GitHub (OAuth app / GitHub App user tokens, REST API v3), as data checked against the
 * published catalogue schema. What data cannot say is in scm-hooks.ts.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import { scmMoreExamples, scmMoreTools } from "./scm-more-tools.js";

const GITHUB_API_VERSION = "2022-11-28";

export const scmDeclaration: ProviderDeclaration = {
  id: "scm",
  display_name: "GitHub",
  api_base_url: "https://api.github.com",
  auth: {
    type: "oauth2",
    authorize_url: "https://github.com/login/oauth/authorize",
    token_url: "https://github.com/login/oauth/access_token",
    scopes: ["repo", "read:user"],
    scope_separator: " ",
    invalid_grant_errors: ["bad_refresh_token", "invalid_grant"],
  },
  default_headers: { Accept: "application/vnd.github+json", "X-GitHub-Api-Version": GITHUB_API_VERSION, "User-Agent": "Toolbroker" },
  identity: { path: "/user", account_id: "/id", display_name: "/login" },
};

// GitHub owner and repository names: letters, digits, '-', '_' and '.', never a path.
const NAME = "^(?!\\.{1,2}$)[A-Za-z0-9_.-]{1,100}$";
const ownerRepoProperties = {
  owner: { type: "string", pattern: NAME, description: "Account or organisation login" },
  repo: { type: "string", pattern: NAME, description: "Repository name" },
};
/** GitHub resolves logins and repository names whatever their case. */
const OWNER_REPO_CASE_INSENSITIVE = ["owner", "repo"];
const page = { type: "integer", minimum: 1, maximum: 1000, description: "Page number, from 1" };
const perPage = { type: "integer", minimum: 1, maximum: 100, description: "Results per page (max 100)" };

/** Upstream body shapes the hooks' mappers rely on; anything else is an unexpected response. */
const loginHolder = { type: ["object", "null"] };
const repoShape = { type: "object", properties: { owner: loginHolder } };
const issueShape = { type: "object", properties: { user: loginHolder, labels: { type: "array", items: { type: ["object", "string"] } } } };
const listOf = (item: Record<string, unknown>) => ({ type: "array", items: item });
const fieldsOf = (names: string[]) => Object.fromEntries(names.map((name) => [name, `/${name}`]));

export const scmTools: ToolDeclaration[] = [
  {
    name: "scm.get_authenticated_user",
    description: "Get the GitHub user the connected account belongs to.",
    arguments_schema: { type: "object", properties: {}, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/user" },
    response: {
      schema: { type: "object" },
      fields: fieldsOf(["login", "id", "name", "email", "company", "location", "bio", "html_url", "avatar_url", "public_repos", "followers", "following", "created_at"]),
    },
  },
  {
    name: "scm.list_repositories",
    description: "List repositories the authenticated user can access.",
    arguments_schema: {
      type: "object",
      properties: {
        visibility: { type: "string", enum: ["all", "public", "private"], description: "Which repositories: all (default), public or private" },
        sort: { type: "string", enum: ["created", "updated", "pushed", "full_name"], description: "Sort order of the repositories" },
        per_page: perPage,
        page,
      },
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/user/repos", query: { visibility: "{visibility}", sort: "{sort}", per_page: "{per_page}", page: "{page}" } },
    response: { schema: listOf(repoShape) },
  },
  {
    name: "scm.get_repository",
    description: "Get one repository by owner and name.",
    arguments_schema: { type: "object", properties: ownerRepoProperties, required: ["owner", "repo"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    case_insensitive_arguments: OWNER_REPO_CASE_INSENSITIVE,
    request: { method: "GET", path: "/repos/{owner}/{repo}" },
    response: { schema: repoShape },
  },
  {
    name: "scm.list_issues",
    description: "List issues (and pull requests) of a repository.",
    arguments_schema: {
      type: "object",
      properties: {
        ...ownerRepoProperties,
        state: { type: "string", enum: ["open", "closed", "all"], description: "Which issues by state (default open)" },
        labels: { type: "string", maxLength: 500, description: "Comma-separated label names" },
        per_page: perPage,
        page,
      },
      required: ["owner", "repo"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    case_insensitive_arguments: OWNER_REPO_CASE_INSENSITIVE,
    request: { method: "GET", path: "/repos/{owner}/{repo}/issues", query: { state: "{state}", labels: "{labels}", per_page: "{per_page}", page: "{page}" } },
    response: { schema: listOf(issueShape) },
  },
  {
    name: "scm.create_issue",
    description: "Open a new issue in a repository.",
    arguments_schema: {
      type: "object",
      properties: {
        ...ownerRepoProperties,
        title: { type: "string", minLength: 1, maxLength: 256, description: "The issue's title" },
        body: { type: "string", maxLength: 65536, description: "The issue's text, in Markdown" },
        labels: { type: "array", items: { type: "string", maxLength: 100, description: "A label name" }, maxItems: 20, description: "Labels to put on the issue" },
        assignees: { type: "array", items: { type: "string", maxLength: 39, description: "A user login" }, maxItems: 10, description: "Logins of the users to assign" },
      },
      required: ["owner", "repo", "title"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    case_insensitive_arguments: [...OWNER_REPO_CASE_INSENSITIVE, "assignees"],
    request: { method: "POST", path: "/repos/{owner}/{repo}/issues", body: { title: "{title}", body: "{body}", labels: "{labels}", assignees: "{assignees}" } },
    response: { schema: issueShape },
  },
  {
    name: "scm.create_issue_comment",
    description: "Comment on an issue or pull request.",
    arguments_schema: {
      type: "object",
      properties: { ...ownerRepoProperties, issue_number: { type: "integer", minimum: 1, description: "The issue's number in the repository" }, body: { type: "string", minLength: 1, maxLength: 65536, description: "The comment's text, in Markdown" } },
      required: ["owner", "repo", "issue_number", "body"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    case_insensitive_arguments: OWNER_REPO_CASE_INSENSITIVE,
    request: { method: "POST", path: "/repos/{owner}/{repo}/issues/{issue_number}/comments", body: { body: "{body}" } },
    response: { schema: { type: "object" }, fields: fieldsOf(["id", "html_url", "body", "created_at"]) },
  },
  {
    name: "scm.delete_repository",
    description: "Delete a repository. Irreversible: requires human approval by default.",
    arguments_schema: { type: "object", properties: ownerRepoProperties, required: ["owner", "repo"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    destructive: true,
    case_insensitive_arguments: OWNER_REPO_CASE_INSENSITIVE,
    request: { method: "DELETE", path: "/repos/{owner}/{repo}" },
  },
  ...scmMoreTools,
];

/** Arguments the GitHub sandbox accepts for each tool (its user owns hello-world and spoon-knife, with issue 1). */
export const scmExamples: Record<string, Record<string, unknown>> = {
  "scm.get_authenticated_user": {},
  "scm.list_repositories": { visibility: "all", sort: "updated", per_page: 10 },
  "scm.get_repository": { owner: "octocat", repo: "hello-world" },
  "scm.list_issues": { owner: "octocat", repo: "hello-world", state: "open", per_page: 10 },
  "scm.create_issue": { owner: "octocat", repo: "hello-world", title: "Footer links are broken", body: "All of them 404.", labels: ["bug"] },
  "scm.create_issue_comment": { owner: "octocat", repo: "hello-world", issue_number: 1, body: "Reproduced on main." },
  "scm.delete_repository": { owner: "octocat", repo: "spoon-knife" },
  ...scmMoreExamples,
};
