/**
 * Where metered usage goes: a payment processor's metering API. The broker only ever talks to
 * this interface. Each meter event carries an idempotency key, and an implementation must count
 * a key at most once, so a retried or repeated report never double counts.
 *
 * `test` mode reports to the test ledger in the broker's own database (test-ledger.ts); `off`
 * reports nothing. A real processor is a third implementation (docs/billing.md).
 */
import type { TestOrLive } from "../ids.js";

export type MeteringMode = "test" | "off";

/** The one meter the broker reports: tool executions that reached the upstream. */
export const EXECUTIONS_METER = "tool_executions";

export type MeterEvent = {
  /** Stable per unit of usage: the usage event's id. */
  idempotencyKey: string;
  tenantId: string;
  meter: typeof EXECUTIONS_METER;
  env: TestOrLive;
  /** `YYYY-MM`, UTC: the billing period the usage belongs to. */
  period: string;
  quantity: number;
  occurredAt: string;
};

export type ReportResult = { recorded: number; duplicates: number };

export interface MeteringReporter {
  readonly mode: MeteringMode;
  /** Records the events; events whose key was already recorded count as duplicates. */
  report(events: readonly MeterEvent[]): Promise<ReportResult>;
}

export const offReporter: MeteringReporter = {
  mode: "off",
  report: async () => ({ recorded: 0, duplicates: 0 }),
};
