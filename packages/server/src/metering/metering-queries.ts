/** Every query of the metering domain: usage counts and which executions were reported. Bound to the store; a transaction may be passed last. */
import type { Executor, Store } from "../store/database.js";
import { meteredExecutions, type MeteredExecution } from "../usage/metered-execution-queries.js";

export type UsageByEnv = { test: number; live: number };
/** An execution to report: `id` is the idempotency key the processor counts it by. */
export type PendingUsage = Pick<MeteredExecution, "id" | "tenant_id" | "env" | "period" | "occurred_at">;
/** Which pending executions to read: of periods up to one (`YYYY-MM`, included), or those that occurred since an instant. */
export type PendingScope = { throughPeriod?: string | undefined; since?: string | undefined };

export function createMeteringQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    /** Executions of a tenant's period, per env (usage/metered-execution-queries.ts). */
    async usageByEnv(tenantId: string, period: string, db: Executor = storeDb): Promise<UsageByEnv> {
      const rows = await db
        .selectFrom(meteredExecutions({ tenantId, fromPeriod: period, toPeriod: period }, db).as("u"))
        .select(["u.env", (eb) => eb.fn.countAll<number>().as("n")])
        .groupBy("u.env")
        .execute();
      const usage = { test: 0, live: 0 };
      for (const row of rows) if (row.env === "test" || row.env === "live") usage[row.env] = Number(row.n);
      return usage;
    },

    /**
     * Executions not yet reported to the processor, oldest first: of the periods up to one, or
     * those that occurred since an instant (metering-service.ts), or all of the tenant's.
     */
    async pendingUsage(tenantId: string, limit: number, scope: PendingScope = {}, db: Executor = storeDb): Promise<PendingUsage[]> {
      return db
        .selectFrom(meteredExecutions({ tenantId, toPeriod: scope.throughPeriod, since: scope.since }, db).as("u"))
        .leftJoin("metering_reports as r", "r.usage_event_id", "u.id")
        .select(["u.id", "u.tenant_id", "u.env", "u.period", "u.occurred_at"])
        .where("r.usage_event_id", "is", null)
        .orderBy("u.occurred_at")
        .orderBy("u.id")
        .limit(limit)
        .execute();
    },

    /** When the newest execution reported occurred (a report whose execution was gone by migration 0012 has no time). */
    async newestReported(tenantId: string, db: Executor = storeDb): Promise<string | undefined> {
      const row = await db
        .selectFrom("metering_reports")
        .select((eb) => eb.fn.max("occurred_at").as("newest"))
        .where("tenant_id", "=", tenantId)
        .executeTakeFirst();
      return row?.newest ?? undefined;
    },

    async markReported(events: readonly PendingUsage[], mode: string, reportedAt: string, db: Executor = storeDb): Promise<void> {
      if (events.length === 0) return;
      await db
        .insertInto("metering_reports")
        .values(events.map((e) => ({ usage_event_id: e.id, tenant_id: e.tenant_id, period: e.period, mode, reported_at: reportedAt, occurred_at: e.occurred_at })))
        .onConflict((oc) => oc.column("usage_event_id").doNothing())
        .execute();
    },

    async reportedCount(tenantId: string, period: string, db: Executor = storeDb): Promise<number> {
      const row = await db
        .selectFrom("metering_reports")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("tenant_id", "=", tenantId)
        .where("period", "=", period)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export type MeteringQueries = ReturnType<typeof createMeteringQueries>;
