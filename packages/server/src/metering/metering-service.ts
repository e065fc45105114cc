/**
 * Metering: reads executions (the source of truth: one per invocation that reached the upstream,
 * written by the execute pipeline on the invocation row or as a usage event, see
 * usage/metered-execution-queries.ts) and reports them to the processor behind `MeteringReporter`.
 *
 * When usage is reported: not on the execute hot path. `sync` reports a tenant's unreported
 * executions, in batches, with idempotency key = the usage event's id, or the invocation's for a
 * call metered on its row. Billing runs it before answering status, invoice preview and
 * finalize; a worker may also run it on a timer. A report
 * is recorded in `metering_reports` after the processor accepted it, so a crash in between
 * re-reports the same keys, which the processor counts once.
 */
import type { Clock } from "../clock.js";
import type { TestOrLive } from "../ids.js";
import type { Executor } from "../store/database.js";
import type { MeteringQueries, PendingScope, UsageByEnv } from "./metering-queries.js";
import { EXECUTIONS_METER, type MeterEvent, type MeteringMode, type MeteringReporter, type ReportResult } from "./metering-reporter.js";

const SYNC_BATCH = 500;

/**
 * How far before the newest reported execution (or now, if that is later than now) a sync looks.
 * Executions are reported oldest first, so all before it were reported, but for a record committed
 * after a newer one: by a concurrent writer or another instance (whose clock may differ a little),
 * within seconds. One that commits later still is reported at the next finalization of its period
 * or a later one, which reads every period up to the one it closes.
 */
export const REPORT_LOOKBACK_MS = 10 * 60_000;

type MeteringServiceDeps = { clock: Clock; reporter: MeteringReporter; queries: MeteringQueries };

export type MeteringStatus = { mode: MeteringMode; reported_executions: number; unreported_executions: number };

export function createMeteringService({ clock, reporter, queries }: MeteringServiceDeps) {
  /**
   * Where a sync starts reading: undefined (all) while no report records when its execution
   * occurred. A report stamped in the future (a clock running ahead) counts as made now, so that
   * it cannot hide the executions of the minutes before it.
   */
  async function lookbackFrom(tenantId: string): Promise<string | undefined> {
    const newest = await queries.newestReported(tenantId);
    if (newest === undefined) return undefined;
    return new Date(Math.min(Date.parse(newest), clock.now().getTime()) - REPORT_LOOKBACK_MS).toISOString();
  }

  return {
    mode: reporter.mode,

    /** Executions of a tenant's period per env; pass a transaction to read inside it. */
    usageByEnv: (tenantId: string, period: string, db?: Executor): Promise<UsageByEnv> => queries.usageByEnv(tenantId, period, db),

    /**
     * Reports up to `maxEvents` unreported executions of the tenant, oldest first: those of every
     * period up to `throughPeriod` when one is given (finalization), else those since shortly
     * before the newest one reported, so that the cost follows what is new rather than the
     * tenant's history. A no-op when metering is off.
     */
    async sync(tenantId: string, maxEvents = Number.POSITIVE_INFINITY, options: { throughPeriod?: string } = {}): Promise<ReportResult> {
      const total = { recorded: 0, duplicates: 0 };
      if (reporter.mode === "off") return total;
      const scope: PendingScope = options.throughPeriod !== undefined ? { throughPeriod: options.throughPeriod } : { since: await lookbackFrom(tenantId) };
      let remaining = maxEvents;
      while (remaining > 0) {
        const pending = await queries.pendingUsage(tenantId, Math.min(SYNC_BATCH, remaining), scope);
        if (pending.length === 0) break;
        const events: MeterEvent[] = pending.map((usage) => ({
          idempotencyKey: usage.id,
          tenantId: usage.tenant_id,
          meter: EXECUTIONS_METER,
          env: usage.env as TestOrLive,
          period: usage.period,
          quantity: 1,
          occurredAt: usage.occurred_at,
        }));
        const result = await reporter.report(events);
        await queries.markReported(pending, reporter.mode, clock.now().toISOString());
        total.recorded += result.recorded;
        total.duplicates += result.duplicates;
        remaining -= pending.length;
      }
      return total;
    },

    async status(tenantId: string, period: string, executions: number, db?: Executor): Promise<MeteringStatus> {
      const reported = await queries.reportedCount(tenantId, period, db);
      return { mode: reporter.mode, reported_executions: reported, unreported_executions: Math.max(0, executions - reported) };
    },
  };
}

export type MeteringService = ReturnType<typeof createMeteringService>;
