/**
 * GitHub tools beyond the first seven: pull requests (list, read, open, merge), issue search with
 * GitHub's query syntax, issue updates and file contents. Shapes the hooks rely on are checked
 * by each tool's response schema; summaries are built in scm-hooks.ts.
 */
import type { ToolDeclaration } from "../declaration-schema.js";

const NAME = "^(?!\\.{1,2}$)[A-Za-z0-9_.-]{1,100}$";
const ownerRepo = {
  owner: { type: "string", pattern: NAME, description: "Account or organisation login" },
  repo: { type: "string", pattern: NAME, description: "Repository name" },
};
const OWNER_REPO_CASE_INSENSITIVE = ["owner", "repo"];
const pullNumber = { type: "integer", minimum: 1, maximum: 10000000, description: "Pull request number" };
const page = { type: "integer", minimum: 1, maximum: 1000, description: "Page number, from 1" };
const perPage = { type: "integer", minimum: 1, maximum: 100, description: "Results per page (max 100)" };
const branch = (what: string) => ({ type: "string", minLength: 1, maxLength: 255, pattern: "^[^\\s~^:?*\\[\\\\]+$", description: what });
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false });
const loginHolder = { type: ["object", "null"] };
const pullShape = { type: "object", required: ["number"], properties: { user: loginHolder, head: { type: "object" }, base: { type: "object" } } };
const issueShape = { type: "object", properties: { user: loginHolder, labels: { type: "array", items: { type: ["object", "string"] } } } };

export const scmMoreTools: ToolDeclaration[] = [
  {
    name: "scm.list_pull_requests",
    title: "List pull requests",
    description: "List the pull requests of a GitHub repository, open ones unless asked, optionally into one base branch.",
    arguments_schema: object({ ...ownerRepo, state: { type: "string", enum: ["open", "closed", "all"], description: "Which pull requests (default open)" }, base: branch("Only pull requests into this branch"), per_page: perPage, page }, ["owner", "repo"]),
    risk: "low",
    side_effect: "read",
    scopes: ["repo"],
    case_insensitive_arguments: OWNER_REPO_CASE_INSENSITIVE,
    request: { method: "GET", path: "/repos/{owner}/{repo}/pulls", query: { state: "{state}", base: "{base}", per_page: "{per_page}", page: "{page}" } },
    response: { schema: { type: "array", items: pullShape } },
  },
  {
    name: "scm.get_pull_request",
    title: "Get a pull request",
    description: "Get one GitHub pull request: title, description, branches, state, whether it is merged or mergeable, and the size of its change.",
    arguments_schema: object({ ...ownerRepo, pull_number: pullNumber }, ["owner", "repo", "pull_number"]),
    risk: "low",
    side_effect: "read",
    scopes: ["repo"],
    case_insensitive_arguments: OWNER_REPO_CASE_INSENSITIVE,
    request: { method: "GET", path: "/repos/{owner}/{repo}/pulls/{pull_number}" },
    response: { schema: pullShape },
  },
  {
    name: "scm.create_pull_request",
    title: "Open a pull request",
    description: "Open a GitHub pull request from a head branch into a base branch. Visible to everyone who can see the repository; reviewers and watchers are notified.",
    arguments_schema: object(
      {
        ...ownerRepo,
        title: { type: "string", minLength: 1, maxLength: 256, description: "Title" },
        head: branch("Branch with the changes (owner:branch for a fork)"),
        base: branch("Branch to merge into, e.g. main"),
        body: { type: "string", maxLength: 65536, description: "Description (Markdown)" },
        draft: { type: "boolean", description: "Open it as a draft" },
      },
      ["owner", "repo", "title", "head", "base"],
    ),
    risk: "low",
    side_effect: "write",
    scopes: ["repo"],
    case_insensitive_arguments: OWNER_REPO_CASE_INSENSITIVE,
    request: { method: "POST", path: "/repos/{owner}/{repo}/pulls", body: { title: "{title}", head: "{head}", base: "{base}", body: "{body}", draft: "{draft}" } },
    response: { schema: pullShape },
  },
  {
    name: "scm.merge_pull_request",
    title: "Merge a pull request",
    description:
      "Merge a GitHub pull request into its base branch (merge commit, squash or rebase). A merge cannot be undone, only reverted with a new commit. With sha, GitHub refuses if the head moved since.",
    arguments_schema: object(
      {
        ...ownerRepo,
        pull_number: pullNumber,
        merge_method: { type: "string", enum: ["merge", "squash", "rebase"], description: "How to merge (default merge)" },
        commit_title: { type: "string", maxLength: 256, description: "Title of the merge or squash commit" },
        commit_message: { type: "string", maxLength: 65536, description: "Message of the merge or squash commit" },
        sha: { type: "string", pattern: "^[0-9a-f]{40}$", description: "Merge only if the head commit is this one" },
      },
      ["owner", "repo", "pull_number"],
    ),
    risk: "high",
    side_effect: "write",
    idempotent: true,
    scopes: ["repo"],
    case_insensitive_arguments: OWNER_REPO_CASE_INSENSITIVE,
    request: { method: "PUT", path: "/repos/{owner}/{repo}/pulls/{pull_number}/merge", body: { merge_method: "{merge_method}", commit_title: "{commit_title}", commit_message: "{commit_message}", sha: "{sha}" } },
    response: { schema: { type: "object", required: ["merged"] }, fields: { merged: "/merged", sha: "/sha", message: "/message" } },
  },
  {
    name: "scm.search_issues",
    title: "Search issues and pull requests",
    description:
      'Search GitHub issues and pull requests with GitHub\'s search syntax, e.g. `repo:octo/app is:issue is:open label:bug` or `is:pr author:octocat review:required`. Answers the total and a page of results.',
    arguments_schema: object({
      q: { type: "string", minLength: 1, maxLength: 256, description: "Search query with qualifiers (repo:, is:, label:, author:, …); must include is:issue or is:pr" },
      sort: { type: "string", enum: ["comments", "reactions", "interactions", "created", "updated"], description: "Sort field (default best match)" },
      order: { type: "string", enum: ["asc", "desc"], description: "Sort order (default desc)" },
      per_page: perPage,
      page,
    }, ["q"]),
    risk: "low",
    side_effect: "read",
    scopes: ["repo"],
    request: { method: "GET", path: "/search/issues", query: { q: "{q}", sort: "{sort}", order: "{order}", per_page: "{per_page}", page: "{page}" } },
    response: { schema: { type: "object", required: ["items"], properties: { total_count: { type: "integer" }, items: { type: "array", items: issueShape } } } },
  },
  {
    name: "scm.update_issue",
    title: "Update, close or reopen an issue",
    description: "Change a GitHub issue's title, body, labels or assignees, or close or reopen it; fields not given are left as they are. Labels and assignees given replace the issue's.",
    arguments_schema: object(
      {
        ...ownerRepo,
        issue_number: { type: "integer", minimum: 1, description: "Issue number" },
        title: { type: "string", minLength: 1, maxLength: 256, description: "New title" },
        body: { type: "string", maxLength: 65536, description: "New body (Markdown)" },
        state: { type: "string", enum: ["open", "closed"], description: "Close or reopen" },
        state_reason: { type: "string", enum: ["completed", "not_planned", "reopened"], description: "Why it was closed or reopened" },
        labels: { type: "array", items: { type: "string", maxLength: 100, description: "Label name" }, maxItems: 20, description: "Label names; replace the issue's" },
        assignees: { type: "array", items: { type: "string", maxLength: 39, description: "Login" }, maxItems: 10, description: "Logins; replace the issue's assignees" },
      },
      ["owner", "repo", "issue_number"],
    ),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: ["repo"],
    case_insensitive_arguments: [...OWNER_REPO_CASE_INSENSITIVE, "assignees"],
    request: {
      method: "PATCH",
      path: "/repos/{owner}/{repo}/issues/{issue_number}",
      body: { title: "{title}", body: "{body}", state: "{state}", state_reason: "{state_reason}", labels: "{labels}", assignees: "{assignees}" },
    },
    response: { schema: issueShape },
  },
  {
    name: "scm.get_file_contents",
    title: "Read a file from a repository",
    description: "Read a file of a GitHub repository at a branch, tag or commit (default branch unless ref is given): its text (UTF-8, up to 1 MB) and blob sha. A directory answers its entries instead.",
    arguments_schema: object(
      {
        ...ownerRepo,
        path: { type: "string", minLength: 1, maxLength: 1000, pattern: "^(?!/)(?!.*//)(?!(.*/)?\\.{1,2}(/|$))[^\\x00-\\x1f]+$", description: "File path in the repository, e.g. src/index.ts" },
        ref: { type: "string", maxLength: 255, description: "Branch, tag or commit sha (default: the default branch)" },
      },
      ["owner", "repo", "path"],
    ),
    risk: "low",
    side_effect: "read",
    scopes: ["repo"],
    case_insensitive_arguments: OWNER_REPO_CASE_INSENSITIVE,
    request: { method: "GET", path: "/repos/{owner}/{repo}/contents/{path}", query: { ref: "{ref}" } },
    response: { schema: { type: ["object", "array"] } },
  },
];

export const scmMoreExamples: Record<string, Record<string, unknown>> = {
  "scm.list_pull_requests": { owner: "octocat", repo: "hello-world", state: "open", per_page: 10 },
  "scm.get_pull_request": { owner: "octocat", repo: "hello-world", pull_number: 42 },
  "scm.create_pull_request": { owner: "octocat", repo: "hello-world", title: "Fix the footer links", head: "fix-footer", base: "main", body: "Closes #1." },
  "scm.merge_pull_request": { owner: "octocat", repo: "hello-world", pull_number: 42, merge_method: "squash" },
  "scm.search_issues": { q: "repo:octocat/hello-world is:issue is:open", per_page: 10 },
  "scm.update_issue": { owner: "octocat", repo: "hello-world", issue_number: 1, state: "closed", state_reason: "completed" },
  "scm.get_file_contents": { owner: "octocat", repo: "hello-world", path: "README.md" },
};
