/** The GraphQL endpoint of the fake Linear (POST /graphql): viewer, teams, issues, issue, issueCreate, issueUpdate, commentCreate. */
import type { ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { bearerToken, header, sendJson, type FakeRequest } from "./http.js";
import { GraphQLSyntaxError, GraphQLValidationError, parseOperation, project, type Selection } from "./linear-graphql.js";
import { createComment, LINEAR_MUTATIONS, mutationIssueRef, unknownState, updateIssue } from "./linear-mutations.js";
import type { ProviderCore } from "./provider-core.js";
import type { LinearUser } from "./types.js";

type State = { __typename: "WorkflowState"; id: string; name: string; type: string; color: string };
type Team = { __typename: "Team"; id: string; key: string; name: string; states: State[]; nextNumber: number };
type Issue = Record<string, unknown> & { id: string; createdAt: string };

const STATE_SEEDS: [string, string, string][] = [["Backlog", "backlog", "#bec2c8"], ["Todo", "unstarted", "#e2e2e2"], ["In Progress", "started", "#f2c94c"], ["Done", "completed", "#5e6ad2"], ["Canceled", "canceled", "#95a2b3"]];
const ISSUE_SEEDS: [teamKey: string, title: string, state: string][] = [["ENG", "Write onboarding docs", "Backlog"], ["ENG", "Fix login redirect", "Todo"], ["ENG", "Set up CI", "In Progress"], ["OPS", "Rotate credentials", "Done"]];

export type LinearApiContext = {
  core: ProviderCore<LinearUser>;
  now: () => number;
  apiKeys: Map<string, LinearUser>;
  store: ReturnType<typeof createLinearStore>;
};

export function createLinearStore(now: () => number) {
  const teams: Team[] = [
    { __typename: "Team", id: "9cfb482a-81e3-4154-b5b9-2c805e70a02d", key: "ENG", name: "Engineering", states: [], nextNumber: 1 },
    { __typename: "Team", id: "6d5e1c8a-0b7f-4d35-9a3e-5b1f2c4d8e90", key: "OPS", name: "Operations", states: [], nextNumber: 1 },
  ];
  for (const team of teams) {
    team.states = STATE_SEEDS.map(([name, type, color]) => ({ __typename: "WorkflowState", id: randomUUID(), name, type, color }));
  }
  const issues: Issue[] = [];
  const createIssue = (team: Team, input: { title: string; description?: string | null; stateName?: string; creator: LinearUser }): Issue => {
    const number = team.nextNumber++;
    const identifier = `${team.key}-${number}`;
    const at = new Date(now() + issues.length).toISOString();
    const state = team.states.find((candidate) => candidate.name === (input.stateName ?? "Todo"))!;
    const slug = input.title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
    const issue: Issue = {
      __typename: "Issue",
      id: randomUUID(),
      identifier,
      number,
      title: input.title,
      description: input.description ?? null,
      priority: 0,
      priorityLabel: "No priority",
      url: `https://linear.app/${input.creator.urlKey}/issue/${identifier}/${slug}`,
      createdAt: at,
      updatedAt: at,
      state,
      team: { __typename: "Team", id: team.id, key: team.key, name: team.name },
      assignee: null,
      creator: userNode(input.creator),
    };
    issues.push(issue);
    return issue;
  };
  return { teams, issues, createIssue, seeded: false };
}

export async function handleLinearGraphQL(ctx: LinearApiContext, req: FakeRequest, res: ServerResponse): Promise<void> {
  if (await ctx.core.interceptApi(req, res)) return;
  const authorization = header(req, "authorization");
  const errors = (status: number, message: string, extensions: Record<string, unknown>) =>
    sendJson(res, status, { errors: [{ message, extensions }] });
  if (req.method !== "POST") return errors(405, "Method not allowed", { code: "BAD_REQUEST", type: "graphql error" });

  const viewer = authenticate(ctx, authorization);
  if (!viewer) {
    return errors(401, "Authentication required, not authenticated", {
      type: "authentication error",
      code: "AUTHENTICATION_ERROR",
      statusCode: 401,
      userError: true,
      userPresentableMessage: "You need to authenticate to access this operation.",
    });
  }
  seedOnce(ctx, viewer);
  const payload = req.body as { query?: unknown; variables?: unknown; operationName?: unknown } | undefined;
  if (req.invalidJson || !payload || typeof payload.query !== "string") {
    return errors(400, "Must provide query string.", { code: "BAD_REQUEST", type: "graphql error" });
  }
  let data: Record<string, unknown>;
  try {
    const variables = payload.variables && typeof payload.variables === "object" ? (payload.variables as Record<string, unknown>) : {};
    const operation = parseOperation(payload.query, variables, typeof payload.operationName === "string" ? payload.operationName : undefined);
    const inputError = firstInputError(ctx, operation.type, operation.selections);
    if (inputError) return sendJson(res, 200, { errors: [inputError], data: null });
    data = {};
    for (const selection of operation.selections) {
      const value = resolveField(ctx, operation.type, selection, viewer);
      data[selection.alias] = project(value, selection.selections);
    }
  } catch (error) {
    if (error instanceof GraphQLSyntaxError) return errors(400, error.message, { code: "GRAPHQL_PARSE_FAILED", type: "graphql error" });
    if (error instanceof GraphQLValidationError) return errors(400, error.message, { code: "GRAPHQL_VALIDATION_FAILED", type: "graphql error" });
    throw error;
  }
  const echoed = Object.fromEntries(Object.entries(data).map(([key, value]) => [key, ctx.core.echoInto(value, authorization)]));
  sendJson(res, 200, ctx.core.echoInto({ data: echoed }, authorization), {
    ...ctx.core.echoHeaders(authorization),
    "x-ratelimit-requests-limit": "5000",
    "x-ratelimit-requests-remaining": String(5000 - ctx.core.stats.apiCalls.length),
    "x-complexity": "10",
  });
}

/** OAuth tokens come as `Bearer <token>`; personal API keys come bare, and "Bearer lin_api_…" is refused. */
function authenticate(ctx: LinearApiContext, authorization: string | undefined): LinearUser | undefined {
  const bearer = bearerToken(authorization);
  if (bearer) {
    const result = ctx.core.state.authenticate(bearer);
    return result.ok ? result.grant.user : undefined;
  }
  return authorization ? ctx.apiKeys.get(authorization.trim()) : undefined;
}

function seedOnce(ctx: LinearApiContext, viewer: LinearUser): void {
  if (ctx.store.seeded) return;
  ctx.store.seeded = true;
  for (const [teamKey, title, stateName] of ISSUE_SEEDS) {
    ctx.store.createIssue(ctx.store.teams.find((team) => team.key === teamKey)!, { title, stateName, creator: viewer, description: `${title}.` });
  }
}

function firstInputError(ctx: LinearApiContext, type: "query" | "mutation", selections: Selection[]) {
  for (const selection of selections) {
    if (type === "mutation" && selection.name === "issueCreate") {
      const input = (selection.args.input ?? {}) as Record<string, unknown>;
      if (typeof input.teamId !== "string") {
        throw new GraphQLValidationError('Field "IssueCreateInput.teamId" of required type "String!" was not provided.');
      }
      if (!ctx.store.teams.some((team) => team.id === input.teamId || team.key === input.teamId)) {
        return inputError("Entity not found: Team", "Could not find referenced Team.", selection.alias);
      }
      if (typeof input.title !== "string" || input.title.trim() === "") {
        return inputError("Argument Validation Error", "Title is required.", selection.alias);
      }
    }
    if (type === "mutation" && LINEAR_MUTATIONS.includes(selection.name) && !findIssue(ctx, mutationIssueRef(selection.name, selection.args))) {
      return inputError("Entity not found: Issue", "Could not find referenced Issue.", selection.alias);
    }
    if (type === "mutation" && selection.name === "issueUpdate" && unknownState(findIssue(ctx, selection.args.id)!, ctx.store.teams, (selection.args.input ?? {}) as Record<string, unknown>)) {
      return inputError("Entity not found: WorkflowState", "Could not find referenced WorkflowState.", selection.alias);
    }
    if (type === "mutation" && selection.name === "commentCreate" && typeof (selection.args.input as Record<string, unknown> | undefined)?.body !== "string") {
      return inputError("Argument Validation Error", "Body is required.", selection.alias);
    }
    if (type === "query" && selection.name === "issue" && !findIssue(ctx, selection.args.id)) {
      return inputError("Entity not found: Issue", "Could not find referenced Issue.", selection.alias);
    }
  }
  return undefined;
}

function inputError(message: string, userPresentableMessage: string, path: string) {
  return { message, path: [path], extensions: { type: "invalid input", code: "INPUT_ERROR", statusCode: 400, userError: true, userPresentableMessage } };
}

function resolveField(ctx: LinearApiContext, type: "query" | "mutation", selection: Selection, viewer: LinearUser): unknown {
  const args = selection.args;
  if (selection.name === "__typename") return type === "query" ? "Query" : "Mutation";
  if (type === "query" && selection.name === "viewer") return userNode(viewer);
  if (type === "query" && selection.name === "organization") return organizationNode(viewer);
  if (type === "query" && selection.name === "teams") {
    return connection(ctx.store.teams.map(({ __typename, id, key, name }) => ({ __typename, id, key, name })), args, "TeamConnection");
  }
  if (type === "query" && selection.name === "issues") {
    const newestFirst = [...ctx.store.issues].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const filter = (args.filter ?? {}) as Record<string, unknown>;
    return connection(newestFirst.filter((issue) => matchesFilter(issue, filter)), args, "IssueConnection");
  }
  if (type === "query" && selection.name === "issue") return findIssue(ctx, args.id);
  if (type === "mutation" && selection.name === "issueCreate") {
    const input = args.input as { teamId: string; title: string; description?: string };
    const team = ctx.store.teams.find((candidate) => candidate.id === input.teamId || candidate.key === input.teamId)!;
    const issue = ctx.store.createIssue(team, { title: input.title, description: input.description ?? null, creator: viewer });
    return { __typename: "IssuePayload", success: true, lastSyncId: ctx.store.issues.length + 1000, issue };
  }
  if (type === "mutation" && selection.name === "issueUpdate") {
    const issue = findIssue(ctx, args.id)!;
    updateIssue(issue, ctx.store.teams, (args.input ?? {}) as Record<string, unknown>, new Date(ctx.now()).toISOString());
    return { __typename: "IssuePayload", success: true, lastSyncId: ctx.store.issues.length + 1000, issue };
  }
  if (type === "mutation" && selection.name === "commentCreate") {
    const input = args.input as Record<string, unknown>;
    const comment = createComment(findIssue(ctx, input.issueId)!, input, userNode(viewer), new Date(ctx.now()).toISOString());
    return { __typename: "CommentPayload", success: true, lastSyncId: ctx.store.issues.length + 1000, comment };
  }
  throw new GraphQLValidationError(`Cannot query field "${selection.name}" on type "${type === "query" ? "Query" : "Mutation"}".`);
}

function findIssue(ctx: LinearApiContext, id: unknown): Issue | undefined {
  return ctx.store.issues.find((issue) => issue.id === id || issue.identifier === id);
}

function connection(nodes: { id: string }[], args: Record<string, unknown>, typename: string) {
  const first = typeof args.first === "number" ? Math.min(Math.max(args.first, 0), 250) : 50;
  const start = typeof args.after === "string" ? nodes.findIndex((node) => node.id === args.after) + 1 : 0;
  const page = nodes.slice(start, start + first);
  return {
    __typename: typename,
    nodes: page,
    edges: page.map((node) => ({ __typename: "Edge", node, cursor: node.id })),
    pageInfo: {
      __typename: "PageInfo",
      hasNextPage: start + page.length < nodes.length,
      hasPreviousPage: start > 0,
      startCursor: page[0]?.id ?? null,
      endCursor: page.at(-1)?.id ?? null,
    },
  };
}

const COMPARATORS = new Set(["eq", "neq", "in", "nin", "contains", "containsIgnoreCase", "notContains", "startsWith", "endsWith", "null", "gt", "gte", "lt", "lte"]);

/** Linear's filter objects: nested by field, ending in comparators; `and` / `or` combine. */
function matchesFilter(node: unknown, filter: Record<string, unknown>): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (key === "and") return (condition as Record<string, unknown>[]).every((part) => matchesFilter(node, part));
    if (key === "or") return (condition as Record<string, unknown>[]).some((part) => matchesFilter(node, part));
    const value = (node as Record<string, unknown> | null)?.[key];
    if (!condition || typeof condition !== "object") return value === condition;
    const entries = Object.entries(condition);
    if (entries.every(([name]) => COMPARATORS.has(name))) return entries.every(([name, expected]) => compare(value, name, expected));
    return matchesFilter(value, condition as Record<string, unknown>);
  });
}

function compare(value: unknown, comparator: string, expected: unknown): boolean {
  const text = String(value ?? "");
  switch (comparator) {
    case "eq": return value === expected;
    case "neq": return value !== expected;
    case "in": return (expected as unknown[]).includes(value);
    case "nin": return !(expected as unknown[]).includes(value);
    case "contains": return text.includes(String(expected));
    case "containsIgnoreCase": return text.toLowerCase().includes(String(expected).toLowerCase());
    case "notContains": return !text.includes(String(expected));
    case "startsWith": return text.startsWith(String(expected));
    case "endsWith": return text.endsWith(String(expected));
    case "null": return (value === null || value === undefined) === expected;
    case "gt": return String(value) > String(expected);
    case "gte": return String(value) >= String(expected);
    case "lt": return String(value) < String(expected);
    default: return String(value) <= String(expected);
  }
}

function userNode(user: LinearUser) {
  return {
    __typename: "User",
    id: user.id,
    name: user.name,
    displayName: user.name.split(" ")[0]?.toLowerCase() ?? user.name,
    email: user.email,
    active: true,
    admin: false,
    url: `https://linear.app/${user.urlKey}/profiles/${user.name.split(" ")[0]?.toLowerCase()}`,
    organization: organizationNode(user),
  };
}

function organizationNode(user: LinearUser) {
  return { __typename: "Organization", id: "0f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f", name: user.organizationName, urlKey: user.urlKey };
}
