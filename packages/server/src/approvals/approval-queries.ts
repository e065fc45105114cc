import type { Executor } from "../store/database.js";
import type { ApprovalsTable } from "../store/schema.js";

export type PendingPage = { limit: number; after?: { created_at: string; id: string } | undefined; now: string };

export function createApprovalQueries() {
  return {
    insert: (db: Executor, row: ApprovalsTable) => db.insertInto("approvals").values(row).execute(),

    /** Pending and unexpired, oldest first, keyset-paginated on (created_at, id). */
    listPending(db: Executor, tenantId: string, page: PendingPage) {
      let query = db
        .selectFrom("approvals")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("status", "=", "pending")
        .where("expires_at", ">", page.now);
      if (page.after) {
        const { created_at, id } = page.after;
        query = query.where((eb) => eb.or([eb("created_at", ">", created_at), eb.and([eb("created_at", "=", created_at), eb("id", ">", id)])]));
      }
      return query.orderBy("created_at").orderBy("id").limit(page.limit).execute();
    },

    find: (db: Executor, tenantId: string, id: string) =>
      db.selectFrom("approvals").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    findForInvocation: (db: Executor, tenantId: string, invocationId: string) =>
      db.selectFrom("approvals").selectAll().where("tenant_id", "=", tenantId).where("invocation_id", "=", invocationId).executeTakeFirst(),

    /** Records a decision only if the approval is still pending; false when someone else decided first. */
    async decide(db: Executor, id: string, decision: Pick<ApprovalsTable, "status" | "decided_by" | "decided_at" | "reason">): Promise<boolean> {
      const result = await db.updateTable("approvals").set(decision).where("id", "=", id).where("status", "=", "pending").executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Marks an approved approval used; false when it was not (or no longer) approved. */
    async consume(db: Executor, id: string, at: string): Promise<boolean> {
      const result = await db.updateTable("approvals").set({ status: "consumed", consumed_at: at }).where("id", "=", id).where("status", "=", "approved").executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}
