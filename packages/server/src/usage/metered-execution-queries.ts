/**
 * Every metered execution, as rows of one shape, from its two sources: a call that reached the
 * provider when it was first recorded is metered on its invocation row (`invocations.metered_period`),
 * any other one (an approved call, a write under an idempotency key, announced as `sending` first,
 * a call recorded before migration 0011) by a `usage_events` row.
 * No call is in both. The filters go into each half, so each stays an index range; usage and
 * metering read executions only through here.
 */
import { isPeriod, nextPeriod } from "../shared/billing-period.js";
import type { Executor } from "../store/database.js";

export type MeteredFilter = {
  tenantId: string;
  /** Periods (`YYYY-MM`), both ends included. */
  fromPeriod?: string | undefined;
  toPeriod?: string | undefined;
  env?: "test" | "live" | undefined;
  agentAppId?: string | undefined;
  tool?: string | undefined;
  endUserId?: string | undefined;
  /** Executions that occurred at or after this instant (ISO 8601). */
  since?: string | undefined;
};

/** One metered execution: `id` is its usage event's, or its invocation's when metered on that row. */
export type MeteredExecution = {
  id: string;
  invocation_id: string;
  tenant_id: string;
  env: "test" | "live";
  agent_app_id: string;
  tool_name: string;
  end_user_id: string | null;
  period: string;
  occurred_at: string;
};

/** The executions matching `filter`, as a subquery: `db.selectFrom(meteredExecutions(filter, db).as("u"))`. */
export function meteredExecutions(filter: MeteredFilter, db: Executor) {
  let events = db
    .selectFrom("usage_events")
    .select(["id", "invocation_id", "tenant_id", "env", "agent_app_id", "tool_name", "end_user_id", "period", "occurred_at"])
    .where("tenant_id", "=", filter.tenantId);
  let calls = db
    .selectFrom("invocations")
    .select(["id", "id as invocation_id", "tenant_id", "env", "agent_app_id", "tool_name", "end_user_id", "metered_period as period", "created_at as occurred_at"])
    .where("tenant_id", "=", filter.tenantId)
    .where("metered_period", "is not", null)
    .$narrowType<{ period: string }>();
  // A call on its row is metered in the month it was created: the months' range of `created_at`
  // is what makes its half an index range (invocations_tenant_time_state, migration 0020); `metered_period` decides.
  if (filter.fromPeriod !== undefined) {
    events = events.where("period", ">=", filter.fromPeriod);
    calls = calls.where("created_at", ">=", filter.fromPeriod).where("metered_period", ">=", filter.fromPeriod);
  }
  if (filter.toPeriod !== undefined) {
    events = events.where("period", "<=", filter.toPeriod);
    if (isPeriod(filter.toPeriod)) calls = calls.where("created_at", "<", nextPeriod(filter.toPeriod));
    calls = calls.where("metered_period", "<=", filter.toPeriod);
  }
  if (filter.since !== undefined) {
    events = events.where("occurred_at", ">=", filter.since);
    calls = calls.where("created_at", ">=", filter.since);
  }
  for (const [column, value] of [
    ["env", filter.env],
    ["agent_app_id", filter.agentAppId],
    ["tool_name", filter.tool],
    ["end_user_id", filter.endUserId],
  ] as const) {
    if (value === undefined) continue;
    events = events.where(column, "=", value);
    calls = calls.where(column, "=", value);
  }
  return events.unionAll(calls);
}
