/**
 * `gitlab`: GitLab.com (OAuth 2 with PKCE, two-hour access tokens and rotating refresh tokens;
 * REST API v4). A project is named by its numeric id or its full path (`group/project`), which
 * travels percent-encoded as one path segment, as GitLab asks.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { bearer, type ProviderHooks } from "../provider-types.js";
import { badgeIcon } from "./icons.js";

const READ = "read_api";
const WRITE = "api";

export const gitlabDeclaration: ProviderDeclaration = {
  id: "gitlab",
  display_name: "GitLab",
  description: "GitLab.com: projects, issues and merge requests — list, read, create, comment and merge.",
  icon: badgeIcon("GL", "#FC6D26"),
  docs_url: "https://docs.gitlab.com/api/rest/",
  api_base_url: "https://gitlab.com/api/v4",
  auth: {
    type: "oauth2",
    authorize_url: "https://gitlab.com/oauth/authorize",
    token_url: "https://gitlab.com/oauth/token",
    revocation_url: "https://gitlab.com/oauth/revoke",
    scopes: [WRITE, "read_user"],
    scope_separator: " ",
  },
  default_headers: { Accept: "application/json" },
  identity: { path: "/user", account_id: "/id", display_name: "/username" },
};

const project = { type: "string", pattern: "^([1-9][0-9]{0,18}|[A-Za-z0-9_.][A-Za-z0-9_.-]{0,254}(/[A-Za-z0-9_.][A-Za-z0-9_.-]{0,254}){1,20})$", description: "Project id (numeric) or full path, e.g. my-group/my-project" };
const iid = (what: string) => ({ type: "integer", minimum: 1, maximum: 100000000, description: `${what} number within the project (its iid, the number after # or !)` });
const page = {
  per_page: { type: "integer", minimum: 1, maximum: 100, description: "Results per page (default 20, max 100)" },
  page: { type: "integer", minimum: 1, maximum: 10000, description: "Page number, from 1" },
};
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false });
const listOf = { type: "array", items: { type: "object" } };
const anObject = { type: "object", required: ["id"] };
const labels = { type: "string", maxLength: 1000, description: "Comma-separated label names" };
const PROJECT_FIELDS = { id: "/id", path_with_namespace: "/path_with_namespace", name: "/name", description: "/description", visibility: "/visibility", default_branch: "/default_branch", web_url: "/web_url", last_activity_at: "/last_activity_at" };
const ISSUE_FIELDS = { iid: "/iid", id: "/id", title: "/title", state: "/state", labels: "/labels", author: "/author/username", assignees: "/assignees", web_url: "/web_url", created_at: "/created_at", updated_at: "/updated_at" };
const MR_FIELDS = {
  iid: "/iid",
  id: "/id",
  title: "/title",
  state: "/state",
  draft: "/draft",
  source_branch: "/source_branch",
  target_branch: "/target_branch",
  author: "/author/username",
  merge_status: "/detailed_merge_status",
  web_url: "/web_url",
  created_at: "/created_at",
  updated_at: "/updated_at",
};
const NOTE_FIELDS = { id: "/id", body: "/body", author: "/author/username", created_at: "/created_at" };

export const gitlabTools: ToolDeclaration[] = [
  {
    name: "gitlab.list_projects",
    title: "List GitLab projects",
    description: "List the GitLab projects the user is a member of, optionally matching a search text, most recently active first.",
    arguments_schema: object({ search: { type: "string", maxLength: 200, description: "Text in the project's name or path" }, owned: { type: "boolean", description: "Only projects the user owns" }, ...page }),
    risk: "low",
    side_effect: "read",
    scopes: [READ],
    request: { method: "GET", path: "/projects", query: { membership: "true", search: "{search}", owned: "{owned}", order_by: "last_activity_at", per_page: "{per_page}", page: "{page}" } },
    response: { schema: listOf, fields: PROJECT_FIELDS },
  },
  {
    name: "gitlab.get_project",
    title: "Get a GitLab project",
    description: "Get one GitLab project by id or full path: name, description, visibility, default branch and link.",
    arguments_schema: object({ id: project }, ["id"]),
    risk: "low",
    side_effect: "read",
    scopes: [READ],
    request: { method: "GET", path: "/projects/{id}" },
    response: { schema: anObject, fields: PROJECT_FIELDS },
  },
  {
    name: "gitlab.list_issues",
    title: "List a GitLab project's issues",
    description: "List the issues of a GitLab project, filtered by state, labels or a search text.",
    arguments_schema: object({ id: project, state: { type: "string", enum: ["opened", "closed", "all"], description: "Which issues (default all)" }, labels, search: { type: "string", maxLength: 200, description: "Text in the title or description" }, ...page }, ["id"]),
    risk: "low",
    side_effect: "read",
    scopes: [READ],
    request: { method: "GET", path: "/projects/{id}/issues", query: { state: "{state}", labels: "{labels}", search: "{search}", per_page: "{per_page}", page: "{page}" } },
    response: { schema: listOf, fields: ISSUE_FIELDS },
  },
  {
    name: "gitlab.create_issue",
    title: "Create a GitLab issue",
    description: "Open an issue in a GitLab project. Visible to everyone who can see the project (public projects: everyone) unless confidential.",
    arguments_schema: object(
      {
        id: project,
        title: { type: "string", minLength: 1, maxLength: 255, description: "Issue title" },
        description: { type: "string", maxLength: 1048576, description: "Description (Markdown)" },
        labels,
        confidential: { type: "boolean", description: "Only project members can see it" },
      },
      ["id", "title"],
    ),
    risk: "low",
    side_effect: "write",
    scopes: [WRITE],
    request: { method: "POST", path: "/projects/{id}/issues", body: { title: "{title}", description: "{description}", labels: "{labels}", confidential: "{confidential}" } },
    response: { schema: anObject, fields: ISSUE_FIELDS },
  },
  {
    name: "gitlab.update_issue",
    title: "Update, close or reopen a GitLab issue",
    description: "Change a GitLab issue's title, description or labels, or close or reopen it (state_event); fields not given are left as they are.",
    arguments_schema: object(
      {
        id: project,
        issue_iid: iid("Issue"),
        title: { type: "string", minLength: 1, maxLength: 255, description: "New title" },
        description: { type: "string", maxLength: 1048576, description: "New description (Markdown)" },
        labels: { ...labels, description: "Comma-separated label names; replaces the issue's labels" },
        state_event: { type: "string", enum: ["close", "reopen"], description: "Close or reopen the issue" },
      },
      ["id", "issue_iid"],
    ),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: [WRITE],
    request: { method: "PUT", path: "/projects/{id}/issues/{issue_iid}", body: { title: "{title}", description: "{description}", labels: "{labels}", state_event: "{state_event}" } },
    response: { schema: anObject, fields: ISSUE_FIELDS },
  },
  {
    name: "gitlab.comment_on_issue",
    title: "Comment on a GitLab issue",
    description: "Add a comment (note) to a GitLab issue, visible to everyone who can see the issue; participants are notified.",
    arguments_schema: object({ id: project, issue_iid: iid("Issue"), body: { type: "string", minLength: 1, maxLength: 1000000, description: "Comment (Markdown)" } }, ["id", "issue_iid", "body"]),
    risk: "low",
    side_effect: "write",
    scopes: [WRITE],
    request: { method: "POST", path: "/projects/{id}/issues/{issue_iid}/notes", body: { body: "{body}" } },
    response: { schema: anObject, fields: NOTE_FIELDS },
  },
  {
    name: "gitlab.list_merge_requests",
    title: "List a GitLab project's merge requests",
    description: "List the merge requests of a GitLab project, by state (default opened).",
    arguments_schema: object({ id: project, state: { type: "string", enum: ["opened", "closed", "locked", "merged", "all"], description: "Which merge requests (default all)" }, ...page }, ["id"]),
    risk: "low",
    side_effect: "read",
    scopes: [READ],
    request: { method: "GET", path: "/projects/{id}/merge_requests", query: { state: "{state}", per_page: "{per_page}", page: "{page}" } },
    response: { schema: listOf, fields: MR_FIELDS },
  },
  {
    name: "gitlab.get_merge_request",
    title: "Get a GitLab merge request",
    description: "Get one GitLab merge request: title, description, branches, state, whether it can be merged, and link.",
    arguments_schema: object({ id: project, merge_request_iid: iid("Merge request") }, ["id", "merge_request_iid"]),
    risk: "low",
    side_effect: "read",
    scopes: [READ],
    request: { method: "GET", path: "/projects/{id}/merge_requests/{merge_request_iid}" },
    response: { schema: anObject, fields: { ...MR_FIELDS, description: "/description", sha: "/sha" } },
  },
  {
    name: "gitlab.comment_on_merge_request",
    title: "Comment on a GitLab merge request",
    description: "Add a comment (note) to a GitLab merge request, visible to everyone who can see it; participants are notified.",
    arguments_schema: object({ id: project, merge_request_iid: iid("Merge request"), body: { type: "string", minLength: 1, maxLength: 1000000, description: "Comment (Markdown)" } }, ["id", "merge_request_iid", "body"]),
    risk: "low",
    side_effect: "write",
    scopes: [WRITE],
    request: { method: "POST", path: "/projects/{id}/merge_requests/{merge_request_iid}/notes", body: { body: "{body}" } },
    response: { schema: anObject, fields: NOTE_FIELDS },
  },
  {
    name: "gitlab.merge_merge_request",
    title: "Merge a GitLab merge request",
    description:
      "Merge a GitLab merge request into its target branch. A merge cannot be undone (only reverted with a new commit). With sha, GitLab refuses if the source branch moved since.",
    arguments_schema: object(
      {
        id: project,
        merge_request_iid: iid("Merge request"),
        sha: { type: "string", pattern: "^[0-9a-f]{40}$", description: "Merge only if the source branch's head is this commit" },
        squash: { type: "boolean", description: "Squash the commits into one" },
        should_remove_source_branch: { type: "boolean", description: "Delete the source branch after merging" },
      },
      ["id", "merge_request_iid"],
    ),
    risk: "high",
    side_effect: "write",
    // A second merge of a merged merge request changes nothing (GitLab refuses it).
    idempotent: true,
    scopes: [WRITE],
    request: { method: "PUT", path: "/projects/{id}/merge_requests/{merge_request_iid}/merge", body: { sha: "{sha}", squash: "{squash}", should_remove_source_branch: "{should_remove_source_branch}" } },
    response: { schema: anObject, fields: { ...MR_FIELDS, merge_commit_sha: "/merge_commit_sha" } },
  },
  {
    name: "gitlab.delete_project",
    title: "Delete a GitLab project",
    description:
      "Delete a GitLab project with its repository, issues and merge requests. On GitLab.com the project is first marked for deletion and removed after the group's retention period (7 days by default), when it is gone for good.",
    arguments_schema: object({ id: project }, ["id"]),
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: [WRITE],
    request: { method: "DELETE", path: "/projects/{id}" },
  },
];

export const gitlabHooks: ProviderHooks = {
  // A personal, group or project access token (glpat-…) is taken as a Bearer token like an OAuth one.
  presentApiKey: bearer,
  tools: {
    // GitLab answers 202 `{"message": "202 Accepted"}`: the deletion is scheduled.
    "gitlab.delete_project": { mapResponse: (_response, args) => ({ deletion_scheduled: true, id: args.id }) },
  },
};

export const gitlab: BuiltInProvider = {
  declaration: gitlabDeclaration,
  tools: gitlabTools,
  hooks: gitlabHooks,
  examples: {
    "gitlab.list_projects": { search: "website", per_page: 20 },
    "gitlab.get_project": { id: "acme/website" },
    "gitlab.list_issues": { id: "acme/website", state: "opened", labels: "bug" },
    "gitlab.create_issue": { id: "acme/website", title: "Footer links are broken", description: "All of them 404.", labels: "bug" },
    "gitlab.update_issue": { id: "acme/website", issue_iid: 1, state_event: "close" },
    "gitlab.comment_on_issue": { id: "acme/website", issue_iid: 1, body: "Fixed in !2." },
    "gitlab.list_merge_requests": { id: "acme/website", state: "opened" },
    "gitlab.get_merge_request": { id: "acme/website", merge_request_iid: 2 },
    "gitlab.comment_on_merge_request": { id: "acme/website", merge_request_iid: 2, body: "Looks good to me." },
    "gitlab.merge_merge_request": { id: "acme/website", merge_request_iid: 2, should_remove_source_branch: true },
    "gitlab.delete_project": { id: "acme/old-website" },
  },
  vendorDescription: {
    none:
      "The directory's GitLab description is of API v3 (removed in GitLab 11.0) converted from Grape's swagger, with lists typed as single objects; GitLab publishes its v4 description only in its own repository. " +
      "Checked instead: every request against vendor/sandbox/gitlab.json, written from GitLab's v4 reference, which the sandbox serves and validates with; the OAuth endpoints and API host are gitlab.com's",
  },
};
