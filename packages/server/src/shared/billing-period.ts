/**
 * Billing periods are calendar months in UTC, named `YYYY-MM` (the key `usage_events.period` and
 * `invocations.metered_period` carry). Pure functions; no clock of their own.
 */
import { BrokerError } from "../errors.js";

export type Period = string;

export const PERIOD_PATTERN = "^[0-9]{4}-(0[1-9]|1[0-2])$";
const PERIOD = new RegExp(PERIOD_PATTERN);

const MONTH_NAMES = [
  "January", "February", "March", "April", "May", "June",
  "July", "August", "September", "October", "November", "December",
] as const;

export const isPeriod = (value: string): value is Period => PERIOD.test(value);

export function periodOf(date: Date): Period {
  return `${String(date.getUTCFullYear()).padStart(4, "0")}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
}

function parts(period: Period): { year: number; monthIndex: number } {
  if (!isPeriod(period)) throw new Error(`not a billing period: ${period}`);
  return { year: Number(period.slice(0, 4)), monthIndex: Number(period.slice(5, 7)) - 1 };
}

export function periodStart(period: Period): Date {
  const { year, monthIndex } = parts(period);
  return new Date(Date.UTC(year, monthIndex, 1));
}

/** The first instant after the period (exclusive end). */
export function periodEnd(period: Period): Date {
  const { year, monthIndex } = parts(period);
  return new Date(Date.UTC(year, monthIndex + 1, 1));
}

export const nextPeriod = (period: Period): Period => periodOf(periodEnd(period));

export function previousPeriod(period: Period): Period {
  const { year, monthIndex } = parts(period);
  return periodOf(new Date(Date.UTC(year, monthIndex - 1, 1)));
}

/** "January 2026": for the customer notice. */
export function periodLabel(period: Period): string {
  const { year, monthIndex } = parts(period);
  return `${MONTH_NAMES[monthIndex]} ${year}`;
}

/** Early in a month a few executions would project absurd totals; the first hour counts as one hour. */
export const MIN_ELAPSED_MS = 60 * 60 * 1000;

/**
 * Projected month-end executions: linear on the elapsed fraction of the month,
 * `floor(executions × month length ÷ elapsed)`, with elapsed at least `MIN_ELAPSED_MS` and at
 * most the whole month. Integer arithmetic (BigInt) so large counts stay exact.
 */
export function projectMonthEnd(executions: number, period: Period, now: Date): number {
  const start = periodStart(period).getTime();
  const length = periodEnd(period).getTime() - start;
  const elapsed = Math.min(length, Math.max(MIN_ELAPSED_MS, now.getTime() - start));
  return Number((BigInt(executions) * BigInt(length)) / BigInt(elapsed));
}

/** The first period a tenant can be billed for: the month it was created in (no proration). */
export const firstPeriodOf = (tenantCreatedAt: string): Period => periodOf(new Date(tenantCreatedAt));

export function assertNotBeforeFirstPeriod(tenantCreatedAt: string, period: Period) {
  const first = firstPeriodOf(tenantCreatedAt);
  if (period < first) {
    throw new BrokerError("period_out_of_range", `period ${period} is before this tenant's first billing period ${first}`, { period, first_period: first });
  }
}
