/** Linear's quirks that need code; everything else about it is data (tracker-declaration.ts). */
import type { ProviderHooks } from "../provider-types.js";
import type { UpstreamResponse } from "../upstream-client.js";

type GraphQlBody = { data?: Record<string, any> | null; errors?: { message?: string; extensions?: { code?: string; type?: string } }[] };
type GraphQlRequest = { query: string; variables: Record<string, unknown> };

/** GraphQL reports errors in the body of an HTTP 200; an authentication error means the token is bad. */
function inspectGraphQl(response: UpstreamResponse) {
  const body = response.body as GraphQlBody | null;
  const first = body?.errors?.[0];
  if (!first) return undefined;
  const code = first.extensions?.code ?? first.extensions?.type ?? "";
  return { status: /AUTHENTICATION/i.test(code) ? 401 : 400, message: first.message ?? "GraphQL error" };
}

/** The issue filter names only the conditions given: an absent or empty one filters nothing. */
function issueFilter(args: Record<string, any>) {
  const filter: Record<string, unknown> = {};
  if (args.team_key) filter.team = { key: { eq: args.team_key } };
  if (args.state) filter.state = { name: { eq: args.state } };
  return Object.keys(filter).length ? filter : undefined;
}

export const trackerHooks: ProviderHooks = {
  // Linear takes OAuth tokens as Bearer and personal API keys bare.
  presentApiKey: (secret) => ({ headers: { authorization: secret } }),
  // The account is the GraphQL viewer; its email names it best.
  async fetchIdentity(api) {
    const response = await api({ method: "POST", path: "/graphql", body: { query: "query { viewer { id name email } }", variables: {} } });
    const viewer = (response.body as GraphQlBody).data?.viewer as { id?: string; name?: string; email?: string } | undefined;
    if (response.status !== 200 || !viewer?.id) throw new Error(`Linear viewer query answered ${response.status}`);
    return { displayName: viewer.email ?? viewer.name ?? viewer.id, accountId: viewer.id };
  },
  inspectApiResponse: inspectGraphQl,
  tools: {
    "tracker.list_issues": {
      // `first` is required by the query (a page of 25 unless asked), and the filter is computed.
      request: (built, args) => {
        const body = built.body as GraphQlRequest;
        return { ...built, body: { ...body, variables: { first: 25, ...body.variables, filter: issueFilter(args) } } };
      },
      mapResponse: ({ body }) => {
        const issues = (body as GraphQlBody).data?.issues ?? { nodes: [], pageInfo: {} };
        return {
          issues: (issues.nodes as Record<string, any>[]).map((n) => ({ id: n.id, identifier: n.identifier, title: n.title, url: n.url, priority: n.priority, state: n.state?.name, team: n.team?.key, created_at: n.createdAt })),
          has_next_page: Boolean(issues.pageInfo?.hasNextPage),
          end_cursor: issues.pageInfo?.endCursor ?? null,
        };
      },
    },
    "tracker.get_issue": {
      mapResponse: ({ body }) => {
        const issue = (body as GraphQlBody).data?.issue;
        if (!issue) return { issue: null };
        return {
          id: issue.id,
          identifier: issue.identifier,
          title: issue.title,
          description: issue.description ?? null,
          url: issue.url,
          priority: issue.priority,
          priority_label: issue.priorityLabel ?? null,
          state: issue.state?.name ?? null,
          team: issue.team?.key ?? null,
          assignee: issue.assignee?.name ?? null,
          created_at: issue.createdAt,
          updated_at: issue.updatedAt,
        };
      },
    },
    "tracker.update_issue": {
      mapResponse: ({ body }) => {
        const updated = (body as GraphQlBody).data?.issueUpdate ?? {};
        return { success: Boolean(updated.success), issue: updated.issue ? { ...updated.issue, state: updated.issue.state?.name ?? null } : null };
      },
    },
    "tracker.add_comment": {
      mapResponse: ({ body }) => {
        const created = (body as GraphQlBody).data?.commentCreate ?? {};
        return { success: Boolean(created.success), comment: created.comment ?? null };
      },
    },
    "tracker.list_teams": { mapResponse: ({ body }) => ({ teams: (body as GraphQlBody).data?.teams?.nodes ?? [] }) },
    // Linear may answer `success` loosely and leave `issue` out: the result says both plainly.
    "tracker.create_issue": {
      mapResponse: ({ body }) => {
        const created = (body as GraphQlBody).data?.issueCreate ?? {};
        return { success: Boolean(created.success), issue: created.issue ?? null };
      },
    },
  },
};
