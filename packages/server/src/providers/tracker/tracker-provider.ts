/** `tracker`: Linear (OAuth 2 with PKCE, or a personal API key; GraphQL API). */
import { bearer, type ProviderDefinition, type ToolDefinition } from "../provider-types.js";
import type { UpstreamResponse } from "../upstream-client.js";

const objectOrNull = { type: ["object", "null"] };
const graphQlData = (fields: Record<string, unknown>) => ({
  type: "object",
  properties: { data: { type: ["object", "null"], properties: fields } },
});

type GraphQlBody = { data?: Record<string, any> | null; errors?: { message?: string; extensions?: { code?: string; type?: string } }[] };

function inspectGraphQl(response: UpstreamResponse) {
  const body = response.body as GraphQlBody | null;
  const first = body?.errors?.[0];
  if (!first) return undefined;
  const code = first.extensions?.code ?? first.extensions?.type ?? "";
  return { status: /AUTHENTICATION/i.test(code) ? 401 : 400, message: first.message ?? "GraphQL error" };
}

const graphql = (query: string, variables: Record<string, unknown>) =>
  ({ method: "POST", path: "/graphql", body: { query, variables } }) as const;

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
const trackerTools: ToolDefinition[] = [
  {
    name: "tracker.list_issues",
    description: "List Linear issues, optionally for one team or workflow state.",
    argumentsSchema: {
      type: "object",
      properties: {
        first: { type: "integer", minimum: 1, maximum: 100 },
        after: { type: "string", maxLength: 500, description: "endCursor of a previous page" },
        team_key: { type: "string", pattern: "^[A-Za-z0-9]{1,10}$" },
        state: { type: "string", maxLength: 100, description: "Workflow state name, e.g. Todo" },
      },
      additionalProperties: false,
    },
    risk: "low",
    sideEffect: "read",
    authModes: ["oauth2", "api_key"],
    buildRequest: (args) => {
      const filter: Record<string, unknown> = {};
      if (args.team_key) filter.team = { key: { eq: args.team_key } };
      if (args.state) filter.state = { name: { eq: args.state } };
      return graphql(LIST_ISSUES, { first: args.first ?? 25, after: args.after, filter: Object.keys(filter).length ? filter : undefined });
    },
    responseSchema: graphQlData({
      issues: {
        type: ["object", "null"],
        required: ["nodes"],
        properties: {
          nodes: { type: "array", items: { type: "object", properties: { state: objectOrNull, team: objectOrNull } } },
          pageInfo: objectOrNull,
        },
      },
    }),
    mapResponse: ({ body }) => {
      const issues = (body as GraphQlBody).data?.issues ?? { nodes: [], pageInfo: {} };
      return {
        issues: (issues.nodes as Record<string, any>[]).map((n) => ({ id: n.id, identifier: n.identifier, title: n.title, url: n.url, priority: n.priority, state: n.state?.name, team: n.team?.key, created_at: n.createdAt })),
        has_next_page: Boolean(issues.pageInfo?.hasNextPage),
        end_cursor: issues.pageInfo?.endCursor ?? null,
      };
    },
  },
  {
    name: "tracker.create_issue",
    description: "Create a Linear issue in a team.",
    argumentsSchema: {
      type: "object",
      properties: {
        team_id: { type: "string", minLength: 1, maxLength: 100 },
        title: { type: "string", minLength: 1, maxLength: 500 },
        description: { type: "string", maxLength: 100000, description: "Markdown" },
        priority: { type: "integer", minimum: 0, maximum: 4, description: "0 none, 1 urgent … 4 low" },
      },
      required: ["team_id", "title"],
      additionalProperties: false,
    },
    risk: "low",
    sideEffect: "write",
    authModes: ["oauth2", "api_key"],
    buildRequest: (args) =>
      graphql(CREATE_ISSUE, { input: { teamId: args.team_id, title: args.title, description: args.description, priority: args.priority } }),
    responseSchema: graphQlData({ issueCreate: objectOrNull }),
    mapResponse: ({ body }) => {
      const created = (body as GraphQlBody).data?.issueCreate ?? {};
      return { success: Boolean(created.success), issue: created.issue ?? null };
    },
  },
];

export const trackerProvider: ProviderDefinition = {
  id: "tracker",
  displayName: "Linear",
  authModes: ["oauth2", "api_key"],
  apiBaseUrl: "https://api.linear.app",
  apiHeaders: {},
  oauth: {
    authorizeUrl: "https://linear.app/oauth/authorize",
    tokenUrl: "https://api.linear.app/oauth/token",
    revokeUrl: "https://api.linear.app/oauth/revoke",
    defaultScopes: ["read", "write"],
    scopeSeparator: ",",
    invalidGrantErrors: ["invalid_grant"],
    revocation: ({ token, revokeUrl }) => ({
      url: revokeUrl,
      request: { method: "POST", path: "", headers: { authorization: `Bearer ${token}` }, form: {} },
    }),
  },
  // Linear takes OAuth tokens as Bearer and personal API keys bare.
  presentCredential: ({ kind, secret }) => (kind === "api_key" ? { headers: { authorization: secret } } : bearer(secret)),
  async fetchIdentity(api) {
    const response = await api(graphql("query { viewer { id name email } }", {}));
    const viewer = (response.body as GraphQlBody).data?.viewer as { id?: string; name?: string; email?: string } | undefined;
    if (response.status !== 200 || !viewer?.id) throw new Error(`Linear viewer query answered ${response.status}`);
    return { displayName: viewer.email ?? viewer.name ?? viewer.id, accountId: viewer.id };
  },
  inspectApiResponse: inspectGraphQl,
  tools: trackerTools,
};
