/**
 * issueUpdate and commentCreate for the fake Linear: an update changes the fields its input
 * names (stateId must be one of the issue's team's states); a comment is kept with its issue.
 */
import { randomUUID } from "node:crypto";

type Issue = Record<string, any> & { id: string; identifier?: unknown };
type Team = { id: string; states: { id: string }[] };

export const LINEAR_MUTATIONS = ["issueUpdate", "commentCreate"];

/** The issue a mutation names (`id` of issueUpdate, `input.issueId` of commentCreate), as its id or identifier. */
export function mutationIssueRef(name: string, args: Record<string, unknown>): unknown {
  return name === "issueUpdate" ? args.id : (args.input as Record<string, unknown> | undefined)?.issueId;
}

/** A stateId the issue's team does not have, which Linear refuses as an entity it cannot find. */
export function unknownState(issue: Issue, teams: readonly Team[], input: Record<string, unknown>): boolean {
  if (input.stateId === undefined) return false;
  const team = teams.find((candidate) => candidate.id === issue.team?.id);
  return !team?.states.some((candidate) => candidate.id === input.stateId);
}

export function updateIssue(issue: Issue, teams: readonly Team[], input: Record<string, unknown>, at: string): void {
  if (input.stateId !== undefined) issue.state = teams.find((candidate) => candidate.id === issue.team?.id)!.states.find((candidate) => candidate.id === input.stateId);
  if (typeof input.title === "string") issue.title = input.title;
  if (input.description !== undefined) issue.description = input.description;
  if (typeof input.priority === "number") issue.priority = input.priority;
  issue.updatedAt = at;
}

export function createComment(issue: Issue, input: Record<string, unknown>, user: unknown, at: string) {
  const id = randomUUID();
  const comment = { __typename: "Comment", id, body: String(input.body ?? ""), url: `${String(issue.url)}#comment-${id.slice(0, 8)}`, createdAt: at, updatedAt: at, user };
  ((issue.comments as unknown[] | undefined) ?? (issue.comments = [])).push(comment);
  return comment;
}
