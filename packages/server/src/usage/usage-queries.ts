/** Every query of the usage report; bound to the store once in app.ts. */
import { sql } from "kysely";
import type { Store } from "../store/database.js";

export type UsageFilter = {
  tenantId: string;
  from: string;
  to: string;
  env?: string | undefined;
  agentAppId?: string | undefined;
  tool?: string | undefined;
  endUserId?: string | undefined;
  /** Also group by end user: each row then carries `end_user_id` (null for calls acting for no end user). */
  byEndUser?: boolean;
};

export type UsageRow = { period: string; env: "test" | "live"; agent_app_id: string; tool_name: string; end_user_id?: string | null; executions: number };

export function createUsageQueries({ db }: Pick<Store, "db">) {
  return {
    /** Metered executions of one month per UTC day and env (days without any are absent). */
    async countDaily(tenantId: string, month: string, env: "test" | "live" | undefined): Promise<{ day: string; env: "test" | "live"; executions: number }[]> {
      const day = sql<string>`substr(occurred_at, 1, 10)`;
      let query = db
        .selectFrom("usage_events")
        .select([day.as("day"), "env", (eb) => eb.fn.countAll<number>().as("executions")])
        .where("tenant_id", "=", tenantId)
        .where("period", "=", month);
      if (env) query = query.where("env", "=", env);
      const rows = await query.groupBy([day, "env"]).execute();
      return rows.map((row) => ({ day: row.day, env: row.env, executions: Number(row.executions) }));
    },

    /** Metered executions grouped by (period, env, agent app, tool), and by end user on request. */
    async countUsage(filter: UsageFilter): Promise<UsageRow[]> {
      const byEndUser = filter.byEndUser === true;
      let query = db
        .selectFrom("usage_events")
        .select(["period", "env", "agent_app_id", "tool_name"])
        .$if(byEndUser, (qb) => qb.select("end_user_id"))
        .select((eb) => eb.fn.countAll<number>().as("executions"))
        .where("tenant_id", "=", filter.tenantId)
        .where("period", ">=", filter.from)
        .where("period", "<=", filter.to);
      if (filter.env) query = query.where("env", "=", filter.env as "test" | "live");
      if (filter.agentAppId) query = query.where("agent_app_id", "=", filter.agentAppId);
      if (filter.tool) query = query.where("tool_name", "=", filter.tool);
      if (filter.endUserId) query = query.where("end_user_id", "=", filter.endUserId);
      const rows = await query
        .groupBy(["period", "env", "agent_app_id", "tool_name"])
        .$if(byEndUser, (qb) => qb.groupBy("end_user_id"))
        .orderBy("period")
        .orderBy("env")
        .orderBy("agent_app_id")
        .orderBy("tool_name")
        // SQLite sorts nulls first and PostgreSQL last: put the calls for no end user first on both.
        .$if(byEndUser, (qb) => qb.orderBy((eb) => eb("end_user_id", "is", null), "desc").orderBy("end_user_id"))
        .execute();
      return rows.map((row) => ({ ...row, executions: Number(row.executions) }));
    },
  };
}

export type UsageQueries = ReturnType<typeof createUsageQueries>;
