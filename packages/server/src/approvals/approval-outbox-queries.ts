/**
 * The queries of the approval outbox's sweeper and notices: approvals whose expiry or reminder time
 * has come, each claimed once by a conditional update, and what a notice says about who may still
 * decide. Bound to the store; a transaction may be passed last.
 */
import { sql, type RawBuilder } from "kysely";
import type { Executor, Store } from "../store/database.js";

export function createApprovalOutboxQueries({ db: storeDb, kind }: Pick<Store, "db" | "kind">) {
  // When a reminder is due: `remindBeforeSeconds` (in the stored requirement) before the expiry, as an ISO time.
  const reminderDue = (now: string): RawBuilder<boolean> =>
    kind === "postgres"
      ? sql<boolean>`(requirement::jsonb ->> 'remindBeforeSeconds') is not null
          and expires_at::timestamptz - make_interval(secs => (requirement::jsonb ->> 'remindBeforeSeconds')::double precision) <= ${now}::timestamptz`
      : sql<boolean>`json_extract(requirement, '$.remindBeforeSeconds') is not null
          and strftime('%Y-%m-%dT%H:%M:%fZ', expires_at, '-' || json_extract(requirement, '$.remindBeforeSeconds') || ' seconds') <= ${now}`;

  return {
    /** Pending approvals past their expiry that were not announced yet, soonest expired first. */
    async expiredIds(now: string, limit: number, db: Executor = storeDb): Promise<string[]> {
      const rows = await db
        .selectFrom("approvals")
        .select("id")
        .where("status", "=", "pending")
        .where("expires_at", "<=", now)
        .where("expiry_announced_at", "is", null)
        .orderBy("expires_at")
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    /** Marks a pending approval past its expiry as expired; true for exactly one caller, however many sweep at once. */
    async markExpired(id: string, now: string, db: Executor = storeDb): Promise<boolean> {
      const result = await db
        .updateTable("approvals")
        .set({ status: "expired", expiry_announced_at: now })
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where("expires_at", "<=", now)
        .where("expiry_announced_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Pending, unexpired approvals whose rule asks for a reminder that is due and not yet sent. */
    async remindableIds(now: string, limit: number, db: Executor = storeDb): Promise<string[]> {
      const rows = await db
        .selectFrom("approvals")
        .select("id")
        .where("status", "=", "pending")
        .where("expires_at", ">", now)
        .where("reminded_at", "is", null)
        .where("requirement", "is not", null)
        .where(reminderDue(now))
        .orderBy("expires_at")
        .limit(limit)
        .execute();
      return rows.map((row) => row.id);
    },

    /** Records that the reminder went out; true for exactly one caller. */
    async markReminded(id: string, now: string, db: Executor = storeDb): Promise<boolean> {
      const result = await db
        .updateTable("approvals")
        .set({ reminded_at: now })
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where("expires_at", ">", now)
        .where("reminded_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Who has voted on this version of the call ("member:<id>" / "end_user:<id>"). */
    async votersOn(approvalId: string, digest: string, db: Executor = storeDb): Promise<Set<string>> {
      const rows = await db.selectFrom("approval_votes").select("voter").where("approval_id", "=", approvalId).where("digest", "=", digest).execute();
      return new Set(rows.map((row) => row.voter));
    },

    /** The member who created the calling agent app (a rule may keep them from approving), if an operator did. */
    async requesterMemberOf(tenantId: string, agentAppId: string, db: Executor = storeDb): Promise<string | null> {
      const row = await db.selectFrom("agent_apps").select("created_by_member_id").where("tenant_id", "=", tenantId).where("id", "=", agentAppId).executeTakeFirst();
      return row?.created_by_member_id ?? null;
    },
  };
}

export type ApprovalOutboxQueries = ReturnType<typeof createApprovalOutboxQueries>;
