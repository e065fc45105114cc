/**
 * An approval as the API shows it: the call and its binding (digest, account, agent app), the edit
 * and what it changed, who decides, who voted and who is still needed, the asking operator's own
 * standing, and how each channel fared. Read-only; built per request.
 */
import type { Clock } from "../clock.js";
import type { TestOrLive } from "../ids.js";
import type { Approval } from "./approval.js";
import type { ApprovalBindings } from "./approval-binding.js";
import type { ApprovalDeliveryQueries } from "./approval-delivery-queries.js";
import type { ApprovalDeliveriesTable } from "../store/schema.js";
import { deliveryView } from "./approval-delivery-view.js";
import { digestOf } from "./approval-digest.js";
import { votesNeeded } from "./approval-requirement.js";
import { present } from "./approval-service.js";
import type { ApprovalVote, ApprovalVoteQueries } from "./approval-vote-queries.js";
import { approvingVotes, eligibleVoters, type MemberDirectory } from "./approval-voting.js";
import { visibleStatus } from "./approval-rules.js";

export type ApprovalViewDeps = {
  bindings: Pick<ApprovalBindings, "describe">;
  votes: Pick<ApprovalVoteQueries, "listFor" | "requesterMemberOf">;
  deliveries: Pick<ApprovalDeliveryQueries, "listForApprovals">;
  members: MemberDirectory;
  clock: Clock;
  /** The catalogue's risk of a tool, passed in: approvals know nothing of tools. */
  riskOf: (tenantId: string, env: TestOrLive, toolName: string) => Promise<"low" | "high" | null>;
  /** The end user's hosted approval page (the links' concern); null when there is none. */
  endUserUrlOf?: ((approval: Approval) => string | null) | undefined;
};

/**
 * Who reads an approval: the operator's member id (for `you`; null for a control key) and whether
 * they may see the end user's deciding link (admins and the customer's backend; not viewers).
 */
export type ApprovalReader = { memberId: string | null; seesEndUserUrl: boolean };

const memberIdOf = (voter: string) => (voter.startsWith("member:") ? voter.slice("member:".length) : undefined);

export function createApprovalViews(deps: ApprovalViewDeps) {
  function edited(approval: Approval) {
    const { edit } = approval;
    if (!edit) return null;
    return {
      arguments: edit.argumentsRedacted as Record<string, unknown>,
      changes: edit.changes,
      edited_by: edit.editedBy,
      edited_at: edit.editedAt,
    };
  }

  async function showOne(approval: Approval, votes: ApprovalVote[], deliveries: ApprovalDeliveriesTable[], names: Map<string, string | null>, eligible: Set<string>, reader: ApprovalReader) {
    const viewerMemberId = reader.memberId;
    const now = deps.clock.now();
    const digest = digestOf(approval);
    const pending = visibleStatus(approval, now) === "pending";
    const onDigest = votes.filter((vote) => vote.digest === digest);
    const mine = viewerMemberId === null ? undefined : onDigest.find((vote) => vote.voter === `member:${viewerMemberId}`);
    const [binding, risk] = await Promise.all([deps.bindings.describe(approval), deps.riskOf(approval.tenantId, approval.env, approval.toolName)]);
    // The link decides for the end user: only those who may hand it to them see it.
    const endUserUrl = reader.seesEndUserUrl && deps.endUserUrlOf ? deps.endUserUrlOf(approval) : null;
    const { approvers, requesterMayApprove, editsAllowed } = approval.requirement;
    return {
      ...present(approval, now),
      risk,
      digest: binding.digest,
      requested_digest: binding.requestedDigest,
      account: binding.account && { id: binding.account.id, kind: binding.account.kind, display_name: binding.account.displayName },
      agent_app: binding.agentApp,
      edits_allowed: editsAllowed && approvers !== "end_user",
      edit: edited(approval),
      approvers: {
        rule: approvers,
        requester_may_approve: requesterMayApprove,
        needed: votesNeeded(approval.requirement),
        approved: approvingVotes(approval, votes, eligible).length,
        votes: votes.map((vote) => {
          const memberId = memberIdOf(vote.voter);
          const voter = memberId === undefined
            ? { kind: "end_user" as const, id: vote.voter.slice("end_user:".length) }
            : { kind: "member" as const, id: memberId, display_name: names.get(memberId) ?? null };
          return { voter, decision: vote.decision, via: vote.via, digest: vote.digest, reason: vote.reason, decided_at: vote.castAt };
        }),
        waiting_for: pending
          ? [...eligible].flatMap((voter) => {
              const memberId = memberIdOf(voter);
              return memberId !== undefined && !onDigest.some((vote) => vote.voter === voter) ? [{ member_id: memberId, display_name: names.get(memberId) ?? null }] : [];
            })
          : [],
      },
      you: viewerMemberId === null ? null : { may_decide: pending && eligible.has(`member:${viewerMemberId}`) && !mine, vote: mine?.decision ?? null },
      end_user_url: endUserUrl,
      deliveries: deliveries.map(deliveryView),
    };
  }

  return {
    /** Approvals of one tenant as `reader` (an operator, or the customer's backend) sees them, in the order given. */
    async show(tenantId: string, approvals: Approval[], reader: ApprovalReader) {
      const ids = approvals.map((approval) => approval.id);
      const [members, votes, deliveries] = await Promise.all([deps.members(tenantId), deps.votes.listFor(tenantId, ids), deps.deliveries.listForApprovals(tenantId, ids)]);
      const names = new Map(members.map((member) => [member.id, member.displayName]));
      const requesters = new Map<string, Promise<string | null>>();
      const requesterOf = (agentAppId: string) => {
        if (!requesters.has(agentAppId)) requesters.set(agentAppId, deps.votes.requesterMemberOf(tenantId, agentAppId));
        return requesters.get(agentAppId)!;
      };
      return Promise.all(approvals.map(async (approval) => {
        const requester = approval.requirement.requesterMayApprove ? null : await requesterOf(approval.agentAppId);
        const eligible = eligibleVoters(approval, members, requester);
        const itsVotes = votes.filter((vote) => vote.approvalId === approval.id);
        const itsDeliveries = deliveries.filter((delivery) => delivery.approval_id === approval.id);
        return showOne(approval, itsVotes, itsDeliveries, names, eligible, reader);
      }));
    },
  };
}

export type ApprovalViews = ReturnType<typeof createApprovalViews>;
