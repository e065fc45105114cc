/** Every Kysely query of the billing domain, bound to the store; a transaction may be passed last. */
import { notFound } from "../errors.js";
import type { Executor, Store } from "../store/database.js";
import type { BillingPeriodsTable } from "../store/schema.js";

export type TenantBilling = { id: string; plan_id: string; created_at: string };

export function createBillingQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    async tenantBilling(tenantId: string, db: Executor = storeDb): Promise<TenantBilling> {
      const row = await db.selectFrom("tenants").select(["id", "plan_id", "created_at"]).where("id", "=", tenantId).executeTakeFirst();
      if (!row) throw notFound("tenant");
      return row;
    },

    async setTenantPlan(tenantId: string, planId: string, db: Executor = storeDb): Promise<void> {
      await db.updateTable("tenants").set({ plan_id: planId }).where("id", "=", tenantId).execute();
    },

    async findFinalized(tenantId: string, period: string, db: Executor = storeDb): Promise<BillingPeriodsTable | undefined> {
      return db.selectFrom("billing_periods").selectAll().where("tenant_id", "=", tenantId).where("period", "=", period).executeTakeFirst();
    },

    /** `YYYY-MM` strings sort in time order, so the greatest is the latest. */
    async latestFinalizedPeriod(tenantId: string, db: Executor = storeDb): Promise<string | undefined> {
      const row = await db
        .selectFrom("billing_periods")
        .select("period")
        .where("tenant_id", "=", tenantId)
        .orderBy("period", "desc")
        .limit(1)
        .executeTakeFirst();
      return row?.period;
    },

    async insertFinalized(row: BillingPeriodsTable, db: Executor = storeDb): Promise<void> {
      await db.insertInto("billing_periods").values(row).execute();
    },
  };
}

export type BillingQueries = ReturnType<typeof createBillingQueries>;
