/** Jira's quirks that need code; everything else about it is data (jira.ts). */
import type { ProviderHooks } from "../provider-types.js";
import type { UpstreamRequest } from "../upstream-client.js";
import { adfToText, textToAdf } from "./atlassian-cloud.js";

type Json = Record<string, any>;

const name = (value: unknown) => (value && typeof value === "object" ? ((value as Json).displayName ?? (value as Json).name ?? null) : null);

/** Jira's `fields` hold objects per field; a summary names what a reader needs. */
function issueSummary(issue: Json, withDescription = false) {
  const fields: Json = issue.fields ?? {};
  return {
    key: issue.key,
    id: issue.id,
    summary: fields.summary ?? null,
    status: name(fields.status),
    assignee: name(fields.assignee),
    assignee_account_id: fields.assignee?.accountId ?? null,
    reporter: name(fields.reporter),
    priority: name(fields.priority),
    issue_type: name(fields.issuetype),
    project: fields.project?.key ?? null,
    parent: fields.parent?.key ?? null,
    labels: Array.isArray(fields.labels) ? fields.labels : [],
    due_date: fields.duedate ?? null,
    created: fields.created ?? null,
    updated: fields.updated ?? null,
    ...(withDescription ? { description: adfToText(fields.description) } : {}),
  };
}

/** Adds the optional nested fields a template cannot leave out whole (`{}` is not "absent"). */
function withFields(built: UpstreamRequest, args: Json): UpstreamRequest {
  const body = (built.body ?? {}) as Json;
  const fields: Json = { ...(body.fields ?? {}) };
  if (args.description !== undefined) fields.description = textToAdf(args.description);
  if (args.priority !== undefined) fields.priority = { name: args.priority };
  if (args.assignee_account_id !== undefined) fields.assignee = { accountId: args.assignee_account_id };
  if (args.parent_key !== undefined) fields.parent = { key: args.parent_key };
  if (args.issue_type === undefined && fields.issuetype) fields.issuetype = { name: "Task" };
  return { ...built, body: { ...body, fields } };
}

/** Jira answers 204 with no body: the result says what was done. */
const done = (what: string) => (_response: unknown, args: Json) => ({ [what]: true, issue: args.issueIdOrKey });

export const jiraHooks: ProviderHooks = {
  tools: {
    "jira.search_issues": {
      mapResponse: ({ body }) => {
        const page = body as Json;
        return { total: page.total ?? null, start_at: page.startAt ?? 0, issues: (page.issues as Json[]).map((issue) => issueSummary(issue)) };
      },
    },
    "jira.get_issue": { mapResponse: ({ body }) => issueSummary(body as Json, true) },
    "jira.create_issue": { request: withFields },
    "jira.update_issue": { request: withFields, mapResponse: done("updated") },
    "jira.add_comment": { request: (built, args) => ({ ...built, body: { body: textToAdf(args.body) } }) },
    "jira.transition_issue": { mapResponse: (_response, args) => ({ transitioned: true, issue: args.issueIdOrKey, transition_id: args.transition_id }) },
    "jira.assign_issue": { mapResponse: (_response, args) => ({ assigned: true, issue: args.issueIdOrKey, account_id: args.accountId }) },
    "jira.delete_issue": { mapResponse: done("deleted") },
  },
};
