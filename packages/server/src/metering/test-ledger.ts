/**
 * The test-mode payment processor: meter events stored in `metering_ledger`, whose UNIQUE
 * idempotency key makes a repeated report a no-op (counted as a duplicate).
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import type { Db } from "../store/database.js";
import type { MeterEvent, MeteringReporter, ReportResult } from "./metering-reporter.js";

type TestLedgerDeps = { db: Db; clock: Clock };

export function createTestLedger({ db, clock }: TestLedgerDeps) {
  const reporter: MeteringReporter = {
    mode: "test",
    async report(events: readonly MeterEvent[]): Promise<ReportResult> {
      if (events.length === 0) return { recorded: 0, duplicates: 0 };
      const recordedAt = clock.now().toISOString();
      const rows = events.map((event) => ({
        id: randomUUID(),
        idempotency_key: event.idempotencyKey,
        tenant_id: event.tenantId,
        meter: event.meter,
        env: event.env,
        period: event.period,
        quantity: event.quantity,
        occurred_at: event.occurredAt,
        recorded_at: recordedAt,
      }));
      const result = await db
        .insertInto("metering_ledger")
        .values(rows)
        .onConflict((oc) => oc.column("idempotency_key").doNothing())
        .executeTakeFirst();
      const recorded = Number(result.numInsertedOrUpdatedRows ?? 0n);
      return { recorded, duplicates: events.length - recorded };
    },
  };

  return {
    reporter,
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

export type TestLedger = ReturnType<typeof createTestLedger>;
