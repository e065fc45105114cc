import type { ToolDefinition, UpstreamResponseLike } from "./scm-shared.js";
import { issueShape, issueSummary, listOf, OWNER_REPO_CASE_INSENSITIVE, ownerRepoProperties, repoPath, repoShape, repoSummary } from "./scm-shared.js";

const page = { type: "integer", minimum: 1, maximum: 1000, description: "Page number, from 1" };
const perPage = { type: "integer", minimum: 1, maximum: 100, description: "Results per page (max 100)" };

export const scmTools: ToolDefinition[] = [
  {
    name: "scm.get_authenticated_user",
    description: "Get the GitHub user the connected account belongs to.",
    argumentsSchema: { type: "object", properties: {}, additionalProperties: false },
    risk: "low",
    sideEffect: "read",
    authModes: ["oauth2"],
    buildRequest: () => ({ method: "GET", path: "/user" }),
    responseSchema: { type: "object" },
    mapResponse: ({ body }: UpstreamResponseLike) => {
      const user = body as Record<string, unknown>;
      return pick(user, ["login", "id", "name", "email", "company", "location", "bio", "html_url", "avatar_url", "public_repos", "followers", "following", "created_at"]);
    },
  },
  {
    name: "scm.list_repositories",
    description: "List repositories the authenticated user can access.",
    argumentsSchema: {
      type: "object",
      properties: {
        visibility: { type: "string", enum: ["all", "public", "private"] },
        sort: { type: "string", enum: ["created", "updated", "pushed", "full_name"] },
        per_page: perPage,
        page,
      },
      additionalProperties: false,
    },
    risk: "low",
    sideEffect: "read",
    authModes: ["oauth2"],
    buildRequest: (args) => ({ method: "GET", path: "/user/repos", query: { visibility: args.visibility, sort: args.sort, per_page: args.per_page, page: args.page } }),
    responseSchema: listOf(repoShape),
    mapResponse: ({ body }) => ({ repositories: (body as Record<string, unknown>[]).map(repoSummary) }),
  },
  {
    name: "scm.get_repository",
    description: "Get one repository by owner and name.",
    argumentsSchema: { type: "object", properties: ownerRepoProperties, required: ["owner", "repo"], additionalProperties: false },
    risk: "low",
    sideEffect: "read",
    authModes: ["oauth2"],
    caseInsensitiveArguments: OWNER_REPO_CASE_INSENSITIVE,
    buildRequest: (args) => ({ method: "GET", path: repoPath(args) }),
    responseSchema: repoShape,
    mapResponse: ({ body }) => repoSummary(body as Record<string, unknown>),
  },
  {
    name: "scm.list_issues",
    description: "List issues (and pull requests) of a repository.",
    argumentsSchema: {
      type: "object",
      properties: {
        ...ownerRepoProperties,
        state: { type: "string", enum: ["open", "closed", "all"] },
        labels: { type: "string", maxLength: 500, description: "Comma-separated label names" },
        per_page: perPage,
        page,
      },
      required: ["owner", "repo"],
      additionalProperties: false,
    },
    risk: "low",
    sideEffect: "read",
    authModes: ["oauth2"],
    caseInsensitiveArguments: OWNER_REPO_CASE_INSENSITIVE,
    buildRequest: (args) => ({
      method: "GET",
      path: `${repoPath(args)}/issues`,
      query: { state: args.state, labels: args.labels, per_page: args.per_page, page: args.page },
    }),
    responseSchema: listOf(issueShape),
    mapResponse: ({ body }) => ({ issues: (body as Record<string, unknown>[]).map(issueSummary) }),
  },
  {
    name: "scm.create_issue",
    description: "Open a new issue in a repository.",
    argumentsSchema: {
      type: "object",
      properties: {
        ...ownerRepoProperties,
        title: { type: "string", minLength: 1, maxLength: 256 },
        body: { type: "string", maxLength: 65536 },
        labels: { type: "array", items: { type: "string", maxLength: 100 }, maxItems: 20 },
        assignees: { type: "array", items: { type: "string", maxLength: 39 }, maxItems: 10 },
      },
      required: ["owner", "repo", "title"],
      additionalProperties: false,
    },
    risk: "low",
    sideEffect: "write",
    authModes: ["oauth2"],
    caseInsensitiveArguments: [...OWNER_REPO_CASE_INSENSITIVE, "/assignees"],
    buildRequest: (args) => ({
      method: "POST",
      path: `${repoPath(args)}/issues`,
      body: { title: args.title, body: args.body, labels: args.labels, assignees: args.assignees },
    }),
    responseSchema: issueShape,
    mapResponse: ({ body }) => issueSummary(body as Record<string, unknown>),
  },
  {
    name: "scm.create_issue_comment",
    description: "Comment on an issue or pull request.",
    argumentsSchema: {
      type: "object",
      properties: { ...ownerRepoProperties, issue_number: { type: "integer", minimum: 1 }, body: { type: "string", minLength: 1, maxLength: 65536 } },
      required: ["owner", "repo", "issue_number", "body"],
      additionalProperties: false,
    },
    risk: "low",
    sideEffect: "write",
    authModes: ["oauth2"],
    caseInsensitiveArguments: OWNER_REPO_CASE_INSENSITIVE,
    buildRequest: (args) => ({ method: "POST", path: `${repoPath(args)}/issues/${args.issue_number}/comments`, body: { body: args.body } }),
    responseSchema: { type: "object" },
    mapResponse: ({ body }) => pick(body as Record<string, unknown>, ["id", "html_url", "body", "created_at"]),
  },
  {
    name: "scm.delete_repository",
    description: "Delete a repository. Irreversible: requires human approval by default.",
    argumentsSchema: { type: "object", properties: ownerRepoProperties, required: ["owner", "repo"], additionalProperties: false },
    risk: "high",
    sideEffect: "write",
    destructive: true,
    authModes: ["oauth2"],
    caseInsensitiveArguments: OWNER_REPO_CASE_INSENSITIVE,
    buildRequest: (args) => ({ method: "DELETE", path: repoPath(args) }),
    responseSchema: {},
    mapResponse: (_response, args) => ({ deleted: true, full_name: `${args.owner}/${args.repo}` }),
  },
];

function pick(source: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
