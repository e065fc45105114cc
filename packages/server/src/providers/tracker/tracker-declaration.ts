/**
 * `tracker`: Linear (OAuth 2 with PKCE, or a personal API key; GraphQL API), as data checked
 * against the published catalogue schema. What data cannot say is in tracker-hooks.ts.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import { trackerMoreTools } from "./tracker-more-tools.js";

export const trackerDeclaration: ProviderDeclaration = {
  id: "tracker",
  display_name: "Linear",
  api_base_url: "https://api.linear.app",
  auth: {
    type: "oauth2",
    authorize_url: "https://linear.app/oauth/authorize",
    token_url: "https://api.linear.app/oauth/token",
    revocation_url: "https://api.linear.app/oauth/revoke",
    revocation_style: "bearer",
    scopes: ["read", "write"],
    scope_separator: ",",
  },
};

const objectOrNull = { type: ["object", "null"] };
/** A GraphQL answer: `data` holds the named fields (errors are found by the provider's hook). */
const graphQlData = (fields: Record<string, unknown>) => ({ type: "object", properties: { data: { type: ["object", "null"], properties: fields } } });

const LIST_ISSUES = `query ListIssues($first: Int!, $after: String, $filter: IssueFilter) {
  issues(first: $first, after: $after, filter: $filter) {
    nodes { id identifier title url priority state { name } team { key } createdAt }
    pageInfo { hasNextPage endCursor }
  }
}`;

const CREATE_ISSUE = `mutation CreateIssue($input: IssueCreateInput!) {
  issueCreate(input: $input) { success issue { id identifier title url } }
}`;

// No argument is case-insensitive: Linear's `eq` filters compare exactly, and team ids are ids.
export const trackerTools: ToolDeclaration[] = [
  {
    name: "tracker.list_issues",
    description: "List Linear issues, optionally for one team or workflow state.",
    arguments_schema: {
      type: "object",
      properties: {
        first: { type: "integer", minimum: 1, maximum: 100, description: "How many issues at most (default 25)" },
        after: { type: "string", maxLength: 500, description: "endCursor of a previous page" },
        team_key: { type: "string", pattern: "^[A-Za-z0-9]{1,10}$", description: "Only this team's issues, by its key, e.g. ENG" },
        state: { type: "string", maxLength: 100, description: "Workflow state name, e.g. Todo" },
      },
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    // The hook adds the default page size and the filter.
    request: { method: "POST", path: "/graphql", body: { query: LIST_ISSUES, variables: { first: "{first}", after: "{after}" } } },
    response: {
      schema: graphQlData({
        issues: {
          type: ["object", "null"],
          required: ["nodes"],
          properties: {
            nodes: { type: "array", items: { type: "object", properties: { state: objectOrNull, team: objectOrNull } } },
            pageInfo: objectOrNull,
          },
        },
      }),
    },
  },
  {
    name: "tracker.create_issue",
    description: "Create a Linear issue in a team.",
    arguments_schema: {
      type: "object",
      properties: {
        team_id: { type: "string", minLength: 1, maxLength: 100, description: "The id of the team the issue belongs to" },
        title: { type: "string", minLength: 1, maxLength: 500, description: "The issue's title" },
        description: { type: "string", maxLength: 100000, description: "Markdown" },
        priority: { type: "integer", minimum: 0, maximum: 4, description: "0 none, 1 urgent … 4 low" },
      },
      required: ["team_id", "title"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    request: {
      method: "POST",
      path: "/graphql",
      body: { query: CREATE_ISSUE, variables: { input: { teamId: "{team_id}", title: "{title}", description: "{description}", priority: "{priority}" } } },
    },
    response: { schema: graphQlData({ issueCreate: objectOrNull }) },
  },
  ...trackerMoreTools,
];
