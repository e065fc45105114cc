import type { Executor } from "../store/database.js";

export type UsageFilter = { tenantId: string; from: string; to: string; env?: string | undefined; agentAppId?: string | undefined; tool?: string | undefined };

/** Metered executions grouped by (period, env, agent app, tool). */
export async function countUsage(db: Executor, filter: UsageFilter) {
  let query = db
    .selectFrom("usage_events")
    .select(["period", "env", "agent_app_id", "tool_name"])
    .select((eb) => eb.fn.countAll<number>().as("executions"))
    .where("tenant_id", "=", filter.tenantId)
    .where("period", ">=", filter.from)
    .where("period", "<=", filter.to);
  if (filter.env) query = query.where("env", "=", filter.env as "test" | "live");
  if (filter.agentAppId) query = query.where("agent_app_id", "=", filter.agentAppId);
  if (filter.tool) query = query.where("tool_name", "=", filter.tool);
  const rows = await query.groupBy(["period", "env", "agent_app_id", "tool_name"]).orderBy("period").orderBy("env").orderBy("agent_app_id").orderBy("tool_name").execute();
  return rows.map((row) => ({ ...row, executions: Number(row.executions) }));
}
