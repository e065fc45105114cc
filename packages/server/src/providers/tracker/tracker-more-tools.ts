/**
 * Linear tools beyond listing and creating issues: reading one, updating it, commenting, and
 * listing teams. Each is one GraphQL document over Linear's schema (as @linear/sdk publishes it).
 */
import type { ToolDeclaration } from "../declaration-schema.js";

const objectOrNull = { type: ["object", "null"] };
const graphQlData = (fields: Record<string, unknown>) => ({ type: "object", properties: { data: { type: ["object", "null"], properties: fields } } });
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false });
const issueId = { type: "string", minLength: 1, maxLength: 100, pattern: "^([A-Za-z0-9]{1,10}-[0-9]{1,9}|[0-9a-f-]{36})$", description: "Issue identifier (ENG-123) or id" };

const GET_ISSUE = `query GetIssue($id: String!) {
  issue(id: $id) { id identifier title description url priority priorityLabel state { name } team { key } assignee { name } createdAt updatedAt }
}`;

const UPDATE_ISSUE = `mutation UpdateIssue($id: String!, $input: IssueUpdateInput!) {
  issueUpdate(id: $id, input: $input) { success issue { id identifier title url priority state { name } } }
}`;

const CREATE_COMMENT = `mutation CreateComment($input: CommentCreateInput!) {
  commentCreate(input: $input) { success comment { id body url createdAt } }
}`;

const LIST_TEAMS = `query ListTeams($first: Int) {
  teams(first: $first) { nodes { id key name } }
}`;

export const trackerMoreTools: ToolDeclaration[] = [
  {
    name: "tracker.get_issue",
    title: "Get a Linear issue",
    description: "Get one Linear issue by identifier (ENG-123) or id: title, description (Markdown), state, team, assignee, priority and dates.",
    arguments_schema: object({ id: issueId }, ["id"]),
    risk: "low",
    side_effect: "read",
    scopes: ["read"],
    request: { method: "POST", path: "/graphql", body: { query: GET_ISSUE, variables: { id: "{id}" } } },
    response: { schema: graphQlData({ issue: objectOrNull }) },
  },
  {
    name: "tracker.update_issue",
    title: "Update a Linear issue",
    description: "Change a Linear issue's title, description, priority or workflow state; fields not given are left as they are. Earlier values stay in the issue's history.",
    arguments_schema: object(
      {
        id: issueId,
        title: { type: "string", minLength: 1, maxLength: 500, description: "New title" },
        description: { type: "string", maxLength: 100000, description: "New description (Markdown)" },
        priority: { type: "integer", minimum: 0, maximum: 4, description: "0 none, 1 urgent … 4 low" },
        state_id: { type: "string", pattern: "^[0-9a-f-]{36}$", description: "Workflow state id to move the issue to" },
      },
      ["id"],
    ),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: ["write"],
    request: { method: "POST", path: "/graphql", body: { query: UPDATE_ISSUE, variables: { id: "{id}", input: { title: "{title}", description: "{description}", priority: "{priority}", stateId: "{state_id}" } } } },
    response: { schema: graphQlData({ issueUpdate: objectOrNull }) },
  },
  {
    name: "tracker.add_comment",
    title: "Comment on a Linear issue",
    description: "Add a comment to a Linear issue, visible to the issue's team; subscribers are notified.",
    arguments_schema: object({ issue_id: issueId, body: { type: "string", minLength: 1, maxLength: 100000, description: "Comment (Markdown)" } }, ["issue_id", "body"]),
    risk: "low",
    side_effect: "write",
    scopes: ["write"],
    request: { method: "POST", path: "/graphql", body: { query: CREATE_COMMENT, variables: { input: { issueId: "{issue_id}", body: "{body}" } } } },
    response: { schema: graphQlData({ commentCreate: objectOrNull }) },
  },
  {
    name: "tracker.list_teams",
    title: "List Linear teams",
    description: "List the Linear teams of the workspace (id, key, name): tracker.create_issue takes the id.",
    arguments_schema: object({ first: { type: "integer", minimum: 1, maximum: 250, description: "How many teams (default 50)" } }),
    risk: "low",
    side_effect: "read",
    scopes: ["read"],
    request: { method: "POST", path: "/graphql", body: { query: LIST_TEAMS, variables: { first: "{first}" } } },
    response: { schema: graphQlData({ teams: { type: ["object", "null"], properties: { nodes: { type: "array" } } } }) },
  },
];

export const trackerExamples: Record<string, Record<string, unknown>> = {
  "tracker.list_issues": { first: 10, team_key: "ENG", state: "Todo" },
  "tracker.create_issue": { team_id: "ENG", title: "Checkout fails on Safari", description: "Steps to reproduce…", priority: 2 },
  "tracker.get_issue": { id: "ENG-1" },
  "tracker.update_issue": { id: "ENG-1", title: "Write the onboarding docs", priority: 3 },
  "tracker.add_comment": { issue_id: "ENG-1", body: "Started on this." },
  "tracker.list_teams": { first: 10 },
};
