import type { Executor } from "../store/database.js";
import type { InvocationsTable, UsageEventsTable } from "../store/schema.js";

export type InvocationRow = InvocationsTable;

export function createInvocationQueries() {
  return {
    insertMany: (db: Executor, rows: InvocationRow[]) => db.insertInto("invocations").values(rows).execute(),

    find: (db: Executor, tenantId: string, id: string) =>
      db.selectFrom("invocations").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    /** Records the outcome of a call that waited for approval; only the first outcome sticks. */
    complete: (db: Executor, id: string, outcome: Pick<InvocationRow, "status" | "error_code" | "upstream_status" | "latency_ms" | "outcome_sealed" | "completed_at" | "approval_id">) =>
      db.updateTable("invocations").set(outcome).where("id", "=", id).where("status", "=", "awaiting_approval").executeTakeFirst(),

    markDenied: (db: Executor, id: string, at: string) =>
      db.updateTable("invocations").set({ status: "denied", error_code: "policy_denied", completed_at: at }).where("id", "=", id).where("status", "=", "awaiting_approval").execute(),

    insertUsage: (db: Executor, rows: UsageEventsTable[]) =>
      db.insertInto("usage_events").values(rows).onConflict((oc) => oc.column("invocation_id").doNothing()).execute(),
  };
}

export type InvocationQueries = ReturnType<typeof createInvocationQueries>;
