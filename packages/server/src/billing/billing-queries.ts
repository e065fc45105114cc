/** Every Kysely query of the billing domain. */
import { notFound } from "../errors.js";
import type { Executor } from "../store/database.js";
import type { BillingPeriodsTable } from "../store/schema.js";

export type TenantBilling = { id: string; plan_id: string; created_at: string };

export function createBillingQueries() {
  return {
    async tenantBilling(db: Executor, tenantId: string): Promise<TenantBilling> {
      const row = await db.selectFrom("tenants").select(["id", "plan_id", "created_at"]).where("id", "=", tenantId).executeTakeFirst();
      if (!row) throw notFound("tenant");
      return row;
    },

    async setTenantPlan(db: Executor, tenantId: string, planId: string): Promise<void> {
      await db.updateTable("tenants").set({ plan_id: planId }).where("id", "=", tenantId).execute();
    },

    async findFinalized(db: Executor, tenantId: string, period: string): Promise<BillingPeriodsTable | undefined> {
      return db.selectFrom("billing_periods").selectAll().where("tenant_id", "=", tenantId).where("period", "=", period).executeTakeFirst();
    },

    /** `YYYY-MM` strings sort in time order, so the greatest is the latest. */
    async latestFinalizedPeriod(db: Executor, tenantId: string): Promise<string | undefined> {
      const row = await db
        .selectFrom("billing_periods")
        .select("period")
        .where("tenant_id", "=", tenantId)
        .orderBy("period", "desc")
        .limit(1)
        .executeTakeFirst();
      return row?.period;
    },

    async insertFinalized(db: Executor, row: BillingPeriodsTable): Promise<void> {
      await db.insertInto("billing_periods").values(row).execute();
    },
  };
}

export type BillingQueries = ReturnType<typeof createBillingQueries>;
