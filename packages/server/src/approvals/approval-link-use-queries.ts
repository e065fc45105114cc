import type { Executor, Store } from "../store/database.js";

/** Every query on `approval_link_uses` (signed links spent by a decision), bound to the store; a transaction may be passed last. */
export function createApprovalLinkUseQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    async isUsed(linkId: string, db: Executor = storeDb): Promise<boolean> {
      return (await db.selectFrom("approval_link_uses").select("link_id").where("link_id", "=", linkId).executeTakeFirst()) !== undefined;
    },

    /** Spends a link; false when it was spent already (by another press that committed first). */
    async spend(use: { linkId: string; approvalId: string; at: string }, db: Executor = storeDb): Promise<boolean> {
      const inserted = await db
        .insertInto("approval_link_uses")
        .values({ link_id: use.linkId, approval_id: use.approvalId, used_at: use.at })
        .onConflict((oc) => oc.column("link_id").doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
    },
  };
}

export type ApprovalLinkUseQueries = ReturnType<typeof createApprovalLinkUseQueries>;
