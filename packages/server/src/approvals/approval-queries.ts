import { sql } from "kysely";
import type { Executor, Store } from "../store/database.js";
import type { TestOrLive } from "../ids.js";
import type { ApprovalsTable } from "../store/schema.js";
import { DEFAULT_REQUIREMENT, type Approval, type ApprovalDecision, type ApprovalEdit, type ApprovalRequirement, type PendingCursor } from "./approval.js";
import type { ExactCall } from "./approval-rules.js";
import type { ArgumentChange } from "./argument-changes.js";

/** `env`: only that environment's approvals (a control key reads its own environment's). */
export type PendingPage = { limit: number; after?: PendingCursor | undefined; now: string; env?: TestOrLive | undefined };
/** Which approvals a list shows: waiting for a decision (oldest first), or the rest, or all (newest first). */
export type ApprovalListStatus = "pending" | "decided" | "all";

function approvalFromRow(row: ApprovalsTable): Approval {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    env: row.env,
    agentAppId: row.agent_app_id,
    invocationId: row.invocation_id,
    toolName: row.tool_name,
    provider: row.provider,
    connectionId: row.connection_id,
    secretItemId: row.secret_item_id,
    argumentsFingerprint: row.arguments_fingerprint,
    argumentsRedacted: JSON.parse(row.arguments_redacted) as unknown,
    status: row.status,
    ruleId: row.rule_id,
    reason: row.reason,
    decidedBy: row.decided_by,
    decidedAt: row.decided_at,
    consumedAt: row.consumed_at,
    requestedAt: row.created_at,
    expiresAt: row.expires_at,
    endUserId: row.end_user_id,
    requirement: row.requirement ? (JSON.parse(row.requirement) as ApprovalRequirement) : DEFAULT_REQUIREMENT,
    edit:
      row.edited_arguments_sealed && row.edited_fingerprint && row.edited_by && row.edited_at
        ? {
            argumentsSealed: row.edited_arguments_sealed,
            argumentsRedacted: JSON.parse(row.edited_arguments_redacted ?? "null") as unknown,
            argumentsFingerprint: row.edited_fingerprint,
            changes: JSON.parse(row.edited_changes ?? "[]") as ArgumentChange[],
            editedBy: row.edited_by,
            editedAt: row.edited_at,
          }
        : null,
    remindedAt: row.reminded_at,
    expiryAnnouncedAt: row.expiry_announced_at,
  };
}

function approvalToRow(approval: Approval): ApprovalsTable {
  return {
    id: approval.id,
    tenant_id: approval.tenantId,
    env: approval.env,
    agent_app_id: approval.agentAppId,
    invocation_id: approval.invocationId,
    tool_name: approval.toolName,
    provider: approval.provider,
    connection_id: approval.connectionId,
    secret_item_id: approval.secretItemId,
    arguments_fingerprint: approval.argumentsFingerprint,
    arguments_redacted: JSON.stringify(approval.argumentsRedacted),
    status: approval.status,
    rule_id: approval.ruleId,
    reason: approval.reason,
    decided_by: approval.decidedBy,
    decided_at: approval.decidedAt,
    consumed_at: approval.consumedAt,
    created_at: approval.requestedAt,
    expires_at: approval.expiresAt,
    end_user_id: approval.endUserId,
    requirement: JSON.stringify(approval.requirement),
    edited_arguments_sealed: approval.edit?.argumentsSealed ?? null,
    edited_arguments_redacted: approval.edit ? JSON.stringify(approval.edit.argumentsRedacted) : null,
    edited_fingerprint: approval.edit?.argumentsFingerprint ?? null,
    edited_changes: approval.edit ? JSON.stringify(approval.edit.changes) : null,
    edited_by: approval.edit?.editedBy ?? null,
    edited_at: approval.edit?.editedAt ?? null,
    reminded_at: approval.remindedAt,
    expiry_announced_at: approval.expiryAnnouncedAt,
  };
}

const mapped = async (pending: Promise<ApprovalsTable | undefined>) => {
  const row = await pending;
  return row && approvalFromRow(row);
};

/** Every query on `approvals`, bound to the store; a transaction may be passed last. */
export function createApprovalQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    insert: (approval: Approval, db: Executor = storeDb) => db.insertInto("approvals").values(approvalToRow(approval)).execute(),

    /** How many approvals wait for a decision, across tenants (the metrics' queue depth; index approvals_expiring). */
    async countPending(db: Executor = storeDb): Promise<number> {
      const row = await db.selectFrom("approvals").select((eb) => eb.fn.countAll<number>().as("n")).where("status", "=", "pending").executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Pending and unexpired, oldest first, keyset-paginated on (created_at, id). */
    async listPending(tenantId: string, page: PendingPage, db: Executor = storeDb): Promise<Approval[]> {
      let query = db
        .selectFrom("approvals")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("status", "=", "pending")
        .where("expires_at", ">", page.now);
      if (page.env) query = query.where("env", "=", page.env);
      if (page.after) {
        const { requestedAt, id } = page.after;
        query = query.where((eb) => eb.or([eb("created_at", ">", requestedAt), eb.and([eb("created_at", "=", requestedAt), eb("id", ">", id)])]));
      }
      const rows = await query.orderBy("created_at").orderBy("id").limit(page.limit).execute();
      return rows.map(approvalFromRow);
    },

    /**
     * Decided (approved, denied, used, or pending past its expiry) or all approvals, newest first,
     * keyset-paginated on (created_at, id) descending.
     */
    async listNewestFirst(tenantId: string, status: Exclude<ApprovalListStatus, "pending">, page: PendingPage, db: Executor = storeDb): Promise<Approval[]> {
      let query = db.selectFrom("approvals").selectAll().where("tenant_id", "=", tenantId);
      if (status === "decided") query = query.where((eb) => eb.or([eb("status", "!=", "pending"), eb("expires_at", "<=", page.now)]));
      if (page.env) query = query.where("env", "=", page.env);
      if (page.after) {
        const { requestedAt, id } = page.after;
        query = query.where((eb) => eb.or([eb("created_at", "<", requestedAt), eb.and([eb("created_at", "=", requestedAt), eb("id", "<", id)])]));
      }
      const rows = await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(page.limit).execute();
      return rows.map(approvalFromRow);
    },

    /** Binds a pending approval to an approver's edit of its call (null: back to the call as requested). */
    async recordEdit(tenantId: string, id: string, edit: ApprovalEdit | null, db: Executor = storeDb): Promise<void> {
      await db
        .updateTable("approvals")
        .set({
          edited_arguments_sealed: edit?.argumentsSealed ?? null,
          edited_arguments_redacted: edit ? JSON.stringify(edit.argumentsRedacted) : null,
          edited_fingerprint: edit?.argumentsFingerprint ?? null,
          edited_changes: edit ? JSON.stringify(edit.changes) : null,
          edited_by: edit?.editedBy ?? null,
          edited_at: edit?.editedAt ?? null,
        })
        .where("tenant_id", "=", tenantId)
        .where("id", "=", id)
        .where("status", "=", "pending")
        .execute();
    },

    find: (tenantId: string, id: string, db: Executor = storeDb) =>
      mapped(db.selectFrom("approvals").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst()),

    findById: (id: string, db: Executor = storeDb) => mapped(db.selectFrom("approvals").selectAll().where("id", "=", id).executeTakeFirst()),

    findForInvocation: (tenantId: string, invocationId: string, db: Executor = storeDb) =>
      mapped(db.selectFrom("approvals").selectAll().where("tenant_id", "=", tenantId).where("invocation_id", "=", invocationId).executeTakeFirst()),

    /**
     * The approval asked for exactly this call that still means something at `now`: pending or
     * approved and unexpired, or denied within its lifetime (consumed ones are spent). Identical
     * calls racing may each have asked, so a denial wins, then an approval, then the newest pending.
     */
    findLiveForCall: (call: ExactCall, now: string, db: Executor = storeDb) =>
      mapped(
        db
          .selectFrom("approvals")
          .selectAll()
          .where("tenant_id", "=", call.tenantId)
          .where("env", "=", call.env as "test" | "live")
          .where("agent_app_id", "=", call.agentAppId)
          .where((eb) => (call.endUserId === null ? eb("end_user_id", "is", null) : eb("end_user_id", "=", call.endUserId)))
          .where("tool_name", "=", call.toolName)
          .where((eb) => (call.connectionId === null ? eb("connection_id", "is", null) : eb("connection_id", "=", call.connectionId)))
          .where((eb) => (call.secretItemId === null ? eb("secret_item_id", "is", null) : eb("secret_item_id", "=", call.secretItemId)))
          .where("arguments_fingerprint", "=", call.argumentsFingerprint)
          .where("status", "in", ["pending", "approved", "denied"])
          .where("expires_at", ">", now)
          .orderBy(sql`case status when 'denied' then 0 when 'approved' then 1 else 2 end`)
          .orderBy("created_at", "desc")
          .orderBy("id", "desc")
          .limit(1)
          .executeTakeFirst(),
      ),

    /**
     * Records a decision only if the approval is still pending and unexpired at `decidedAt`; false
     * when someone else decided first or it expired meanwhile. The statement is the authority: a
     * check made before it may be stale by the time it runs.
     */
    async decide(tenantId: string, id: string, decision: ApprovalDecision, db: Executor = storeDb): Promise<boolean> {
      const result = await db
        .updateTable("approvals")
        .set({ status: decision.status, decided_by: decision.decidedBy, decided_at: decision.decidedAt, reason: decision.reason })
        .where("tenant_id", "=", tenantId)
        .where("id", "=", id)
        .where("status", "=", "pending")
        .where("expires_at", ">", decision.decidedAt)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Marks an approved approval used; false when it was not (or no longer) approved, or expired before `at`. */
    async consume(id: string, at: string, db: Executor = storeDb): Promise<boolean> {
      const result = await db
        .updateTable("approvals")
        .set({ status: "consumed", consumed_at: at })
        .where("id", "=", id)
        .where("status", "=", "approved")
        .where("expires_at", ">", at)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type ApprovalQueries = ReturnType<typeof createApprovalQueries>;
