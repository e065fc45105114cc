/**
 * Who may decide an approval, from the policy rule that asked for it: pure functions over the
 * tenant's members, so every channel (API, console, Slack, email) asks the same question.
 */
import type { RuleApproval } from "../policy/policy-document.js";
import type { TenantMembersTable } from "../store/schema.js";
import { DEFAULT_REQUIREMENT, type Approval, type ApprovalRequirement } from "./approval.js";

/** A tenant member as approvals see them. */
export type ApproverMember = {
  id: string;
  role: "admin" | "viewer";
  groups: string[];
  email: string | null;
  displayName: string | null;
  slackUserId: string | null;
};

export const approverMemberOf = (row: TenantMembersTable): ApproverMember => ({
  id: row.id,
  role: row.role,
  groups: row.groups ? (JSON.parse(row.groups) as string[]) : [],
  email: row.email,
  displayName: row.display_name,
  slackUserId: row.slack_user_id,
});

/** The requirement an approval is stored with; an end-user rule on a call for no end user goes to one admin. */
export function requirementOf(rule: RuleApproval | undefined, endUserId: string | null, defaultTtlSeconds: number): ApprovalRequirement & { ttlSeconds: number } {
  const approvers = rule?.approvers === "end_user" && endUserId === null ? DEFAULT_REQUIREMENT.approvers : (rule?.approvers ?? DEFAULT_REQUIREMENT.approvers);
  return {
    approvers,
    requesterMayApprove: rule?.requester_may_approve ?? true,
    editsAllowed: (rule?.edits ?? "allowed") === "allowed",
    channels: rule?.channels ?? null,
    remindBeforeSeconds: rule?.remind_before_seconds ?? null,
    ttlSeconds: rule?.ttl_seconds ?? defaultTtlSeconds,
  };
}

/** How many approving votes (on the current digest) grant the approval. */
export function votesNeeded(requirement: ApprovalRequirement): number {
  const { approvers } = requirement;
  if (approvers === "end_user") return 1;
  return "all_of" in approvers ? approvers.all_of.length : approvers.count;
}

/**
 * The members who may decide, in the order they were given. `requesterMemberId` is the member who
 * created the calling agent app; a rule may exclude them. An end-user approval has no member approvers.
 */
export function eligibleMembers(approval: Pick<Approval, "requirement">, members: ApproverMember[], requesterMemberId: string | null): ApproverMember[] {
  const { approvers, requesterMayApprove } = approval.requirement;
  if (approvers === "end_user") return [];
  const allowed = (member: ApproverMember) => requesterMayApprove || member.id !== requesterMemberId;
  if ("all_of" in approvers) {
    // Member ids are UUIDs, which a policy may spell in either case.
    const byId = new Map(members.map((member) => [member.id.toLowerCase(), member]));
    return approvers.all_of.flatMap((id) => byId.get(id.toLowerCase()) ?? []).filter(allowed);
  }
  const { of } = approvers;
  const inPool = of === "admins" ? (member: ApproverMember) => member.role === "admin" : (member: ApproverMember) => member.groups.includes(of.group);
  return members.filter((member) => inPool(member) && allowed(member));
}
