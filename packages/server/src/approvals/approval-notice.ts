/**
 * What a channel is handed for one delivery: the approval as it stands now, what it is bound to
 * (digest, account, agent app) and the members the notice is for.
 */
import type { TenantQueries } from "../tenants/tenant-queries.js";
import type { Approval } from "./approval.js";
import type { ApprovalBindings } from "./approval-binding.js";
import type { ApprovalNotice } from "./approval-channel.js";
import type { DeliveryRow } from "./approval-delivery-queries.js";
import type { ApprovalOutboxQueries } from "./approval-outbox-queries.js";
import { approverMemberOf, eligibleMembers, type ApproverMember } from "./approval-requirement.js";

type NoticeDeps = {
  bindings: Pick<ApprovalBindings, "describe">;
  members: Pick<TenantQueries, "listMembers">;
  queries: Pick<ApprovalOutboxQueries, "votersOn" | "requesterMemberOf">;
};

export function createApprovalNotices({ bindings, members, queries }: NoticeDeps) {
  /**
   * A request or reminder goes to the eligible members without a vote on the call as it stands
   * (an edit makes earlier votes stale); an outcome goes to every eligible member, who were asked.
   */
  async function recipients(approval: Approval, purpose: DeliveryRow["purpose"], digest: string): Promise<ApproverMember[]> {
    if (approval.requirement.approvers === "end_user") return [];
    const pool = (await members.listMembers(approval.tenantId)).map(approverMemberOf);
    const eligible = eligibleMembers(approval, pool, await queries.requesterMemberOf(approval.tenantId, approval.agentAppId));
    if (purpose === "outcome") return eligible;
    const voted = await queries.votersOn(approval.id, digest);
    // Votes name their voter as `voterOf` writes it: "member:<id>".
    return eligible.filter((member) => !voted.has(`member:${member.id}`));
  }

  return {
    async build(approval: Approval, delivery: DeliveryRow): Promise<ApprovalNotice> {
      const binding = await bindings.describe(approval);
      return {
        purpose: delivery.purpose,
        approval,
        binding,
        approvers: await recipients(approval, delivery.purpose, binding.digest),
        progress: delivery.progress === null ? null : (JSON.parse(delivery.progress) as unknown),
      };
    },
  };
}

export type ApprovalNotices = ReturnType<typeof createApprovalNotices>;
