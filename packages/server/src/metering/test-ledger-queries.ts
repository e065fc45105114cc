/** Every query on `metering_ledger`, the test-mode processor's store; bound to the store once in app.ts. */
import type { Store } from "../store/database.js";
import type { MeteringLedgerTable } from "../store/schema.js";

export type LedgerRow = MeteringLedgerTable;

export function createTestLedgerQueries({ db }: Pick<Store, "db">) {
  return {
    /** Inserts the rows whose idempotency key is new; answers how many were. */
    async insertNew(rows: readonly LedgerRow[]): Promise<number> {
      const result = await db
        .insertInto("metering_ledger")
        .values([...rows])
        .onConflict((oc) => oc.column("idempotency_key").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n);
    },

    /** Sum of the quantities the ledger holds for a tenant's period, per env. */
    async totals(tenantId: string, period: string): Promise<{ test: number; live: number }> {
      const rows = await db
        .selectFrom("metering_ledger")
        .select(["env", (eb) => eb.fn.sum<number | string>("quantity").as("quantity")])
        .where("tenant_id", "=", tenantId)
        .where("period", "=", period)
        .groupBy("env")
        .execute();
      const totals = { test: 0, live: 0 };
      for (const row of rows) if (row.env === "test" || row.env === "live") totals[row.env] = Number(row.quantity);
      return totals;
    },
  };
}

export type TestLedgerQueries = ReturnType<typeof createTestLedgerQueries>;
