/** Every query of the usage report; bound to the store once in app.ts. */
import { sql } from "kysely";
import type { Executor, Store } from "../store/database.js";
import { meteredExecutions } from "./metered-execution-queries.js";

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

/** Invocation states that count as an error on the per-minute chart: refused as malformed, failed, or lost. */
export const ERROR_STATUSES = ["rejected", "failed", "unknown"] as const;

export type MinuteCount = { minute: string; calls: number; errors: number };

/** The query behind `countPerMinute`, built apart so a test can ask the engine how it runs it. */
export function minuteCountsQuery(db: Executor, tenantId: string, from: string, to: string, env: "test" | "live" | undefined) {
  const minute = sql<string>`substr(created_at, 1, 16)`;
  return db
    .selectFrom("invocations")
    .select((eb) => [
      minute.as("minute"),
      eb.fn.countAll<number>().as("calls"),
      eb.fn.sum<number>(eb.case().when("status", "in", ERROR_STATUSES).then(1).else(0).end()).as("errors"),
    ])
    .where("tenant_id", "=", tenantId)
    .where("created_at", ">=", from)
    .where("created_at", "<", to)
    .$if(env !== undefined, (qb) => qb.where("env", "=", env!))
    .groupBy(minute);
}

export function createUsageQueries({ db }: Pick<Store, "db">) {
  return {
    /**
     * Recorded calls (every invocation row, whatever its state) per UTC minute of `created_at` in
     * [from, to), and how many of them are errors; minutes without any are absent. One range of
     * `invocations_tenant_time_state` (tenant_id, created_at, env, status), read from the index
     * alone (migration 0020), bounded by the caller to an hour.
     */
    async countPerMinute(tenantId: string, from: string, to: string, env: "test" | "live" | undefined): Promise<MinuteCount[]> {
      const rows = await minuteCountsQuery(db, tenantId, from, to, env).execute();
      return rows.map((row) => ({ minute: row.minute, calls: Number(row.calls), errors: Number(row.errors) }));
    },

    /** Metered executions of one month per UTC day and env (days without any are absent). */
    async countDaily(tenantId: string, month: string, env: "test" | "live" | undefined): Promise<{ day: string; env: "test" | "live"; executions: number }[]> {
      const day = sql<string>`substr(u.occurred_at, 1, 10)`;
      const rows = await db
        .selectFrom(meteredExecutions({ tenantId, fromPeriod: month, toPeriod: month, env }, db).as("u"))
        .select([day.as("day"), "u.env", (eb) => eb.fn.countAll<number>().as("executions")])
        .groupBy([day, "u.env"])
        .execute();
      return rows.map((row) => ({ day: row.day, env: row.env, executions: Number(row.executions) }));
    },

    /** Metered executions grouped by (period, env, agent app, tool), and by end user on request. */
    async countUsage(filter: UsageFilter): Promise<UsageRow[]> {
      const byEndUser = filter.byEndUser === true;
      const executions = meteredExecutions({
        tenantId: filter.tenantId,
        fromPeriod: filter.from,
        toPeriod: filter.to,
        env: (filter.env || undefined) as "test" | "live" | undefined,
        agentAppId: filter.agentAppId || undefined,
        tool: filter.tool || undefined,
        endUserId: filter.endUserId || undefined,
      }, db);
      const rows = await db
        .selectFrom(executions.as("u"))
        .select(["u.period", "u.env", "u.agent_app_id", "u.tool_name"])
        .$if(byEndUser, (qb) => qb.select("u.end_user_id"))
        .select((eb) => eb.fn.countAll<number>().as("executions"))
        .groupBy(["u.period", "u.env", "u.agent_app_id", "u.tool_name"])
        .$if(byEndUser, (qb) => qb.groupBy("u.end_user_id"))
        .orderBy("u.period")
        .orderBy("u.env")
        .orderBy("u.agent_app_id")
        .orderBy("u.tool_name")
        // SQLite sorts nulls first and PostgreSQL last: put the calls for no end user first on both.
        .$if(byEndUser, (qb) => qb.orderBy((eb) => eb("u.end_user_id", "is", null), "desc").orderBy("u.end_user_id"))
        .execute();
      return rows.map((row) => ({ ...row, executions: Number(row.executions) }));
    },
  };
}

export type UsageQueries = ReturnType<typeof createUsageQueries>;
