import type { Executor, Store } from "../store/database.js";
import type { ApprovalVotesTable } from "../store/schema.js";

/** One person's decision on one version (digest) of an approval's call. */
export type ApprovalVote = {
  id: string;
  tenantId: string;
  approvalId: string;
  /** "member:<member id>" or "end_user:<end user id>" (see approval.ts voterOf). */
  voter: string;
  decision: "approve" | "deny";
  digest: string;
  via: ApprovalVotesTable["via"];
  reason: string | null;
  castAt: string;
};

const voteFromRow = (row: ApprovalVotesTable): ApprovalVote => ({
  id: row.id,
  tenantId: row.tenant_id,
  approvalId: row.approval_id,
  voter: row.voter,
  decision: row.decision,
  digest: row.digest,
  via: row.via,
  reason: row.reason,
  castAt: row.created_at,
});

/** Every query on `approval_votes`, and who asked for a call (the agent app's creator), bound to the store. */
export function createApprovalVoteQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    /** Records a vote; false when this voter already voted on this digest (one vote per person and version). */
    async insert(vote: ApprovalVote, db: Executor = storeDb): Promise<boolean> {
      const result = await db
        .insertInto("approval_votes")
        .values({
          id: vote.id,
          tenant_id: vote.tenantId,
          approval_id: vote.approvalId,
          voter: vote.voter,
          decision: vote.decision,
          digest: vote.digest,
          via: vote.via,
          reason: vote.reason,
          created_at: vote.castAt,
        })
        .onConflict((oc) => oc.columns(["approval_id", "voter", "digest"]).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** The votes of several approvals, oldest first (a page of the list reads them at once). */
    async listFor(tenantId: string, approvalIds: string[], db: Executor = storeDb): Promise<ApprovalVote[]> {
      if (approvalIds.length === 0) return [];
      const rows = await db
        .selectFrom("approval_votes")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("approval_id", "in", approvalIds)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map(voteFromRow);
    },

    /** The member who created the calling agent app (a rule may keep them from approving its calls); null if unknown. */
    async requesterMemberOf(tenantId: string, agentAppId: string, db: Executor = storeDb): Promise<string | null> {
      const row = await db.selectFrom("agent_apps").select("created_by_member_id").where("tenant_id", "=", tenantId).where("id", "=", agentAppId).executeTakeFirst();
      return row?.created_by_member_id ?? null;
    },
  };
}

export type ApprovalVoteQueries = ReturnType<typeof createApprovalVoteQueries>;
