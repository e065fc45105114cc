/**
 * The test-mode payment processor: meter events stored in `metering_ledger`, whose UNIQUE
 * idempotency key makes a repeated report a no-op (counted as a duplicate).
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import type { MeterEvent, MeteringReporter, ReportResult } from "./metering-reporter.js";
import type { TestLedgerQueries } from "./test-ledger-queries.js";

type TestLedgerDeps = { queries: TestLedgerQueries; clock: Clock };

export function createTestLedger({ queries, clock }: TestLedgerDeps) {
  const reporter: MeteringReporter = {
    mode: "test",
    async report(events: readonly MeterEvent[]): Promise<ReportResult> {
      if (events.length === 0) return { recorded: 0, duplicates: 0 };
      const recordedAt = clock.now().toISOString();
      const recorded = await queries.insertNew(
        events.map((event) => ({
          id: randomUUID(),
          idempotency_key: event.idempotencyKey,
          tenant_id: event.tenantId,
          meter: event.meter,
          env: event.env,
          period: event.period,
          quantity: event.quantity,
          occurred_at: event.occurredAt,
          recorded_at: recordedAt,
        })),
      );
      return { recorded, duplicates: events.length - recorded };
    },
  };

  return {
    reporter,
    /** Sum of the quantities the ledger holds for a tenant's period, per env. */
    totals: (tenantId: string, period: string) => queries.totals(tenantId, period),
  };
}

export type TestLedger = ReturnType<typeof createTestLedger>;
