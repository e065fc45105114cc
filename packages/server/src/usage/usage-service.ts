/** The usage report: which months a request covers by default, and the total over its rows. */
import type { Clock } from "../clock.js";
import type { MinuteCount, UsageFilter, UsageQueries, UsageRow } from "./usage-queries.js";

export type UsageRequest = Omit<UsageFilter, "from" | "to"> & { from?: string | undefined; to?: string | undefined };
export type UsageReport = { from: string; to: string; total: number; data: UsageRow[] };

export type LastHour = { from: string; to: string; env?: "test" | "live"; calls: number; errors: number; data: MinuteCount[] };

const MINUTE_MS = 60_000;
/** The per-minute series covers this many minutes: the console polls it, so it stays one bounded range. */
export const LAST_HOUR_MINUTES = 60;

type UsageServiceDeps = { queries: UsageQueries; clock: Clock };

export function createUsageService({ queries, clock }: UsageServiceDeps) {
  return {
    /** Every UTC day of `month` (default: the current one), for each env asked, zero-filled. */
    async daily(tenantId: string, month: string | undefined, env: "test" | "live" | undefined) {
      const chosen = month ?? clock.now().toISOString().slice(0, 7);
      const counts = new Map((await queries.countDaily(tenantId, chosen, env)).map((row) => [`${row.day}|${row.env}`, row.executions]));
      const [year, monthIndex] = chosen.split("-").map(Number) as [number, number];
      const days = new Date(Date.UTC(year, monthIndex, 0)).getUTCDate();
      const data = [];
      for (let d = 1; d <= days; d += 1) {
        const day = `${chosen}-${String(d).padStart(2, "0")}`;
        for (const e of env ? [env] : (["test", "live"] as const)) data.push({ day, env: e, executions: counts.get(`${day}|${e}`) ?? 0 });
      }
      return { month: chosen, data };
    },

    /**
     * The last hour's calls and errors per UTC minute, oldest first: exactly 60 minutes, the
     * current (unfinished) one last, minutes without calls as zero.
     */
    async lastHour(tenantId: string, env: "test" | "live" | undefined): Promise<LastHour> {
      const end = Math.floor(clock.now().getTime() / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
      const start = end - LAST_HOUR_MINUTES * MINUTE_MS;
      const from = new Date(start).toISOString();
      const to = new Date(end).toISOString();
      const counts = new Map((await queries.countPerMinute(tenantId, from, to, env)).map((row) => [row.minute, row]));
      const data: MinuteCount[] = [];
      for (let at = start; at < end; at += MINUTE_MS) {
        const minute = new Date(at).toISOString();
        const found = counts.get(minute.slice(0, 16));
        data.push({ minute, calls: found?.calls ?? 0, errors: found?.errors ?? 0 });
      }
      return { from, to, ...(env ? { env } : {}), calls: data.reduce((sum, row) => sum + row.calls, 0), errors: data.reduce((sum, row) => sum + row.errors, 0), data };
    },

    /** Without months, the current one; with only one end of the range, up to (or from) it. */
    async report(request: UsageRequest): Promise<UsageReport> {
      const current = clock.now().toISOString().slice(0, 7);
      const from = request.from ?? request.to ?? current;
      const to = request.to ?? (request.from ? current : from);
      const data = await queries.countUsage({ ...request, from, to });
      return { from, to, total: data.reduce((sum, row) => sum + row.executions, 0), data };
    },
  };
}

export type UsageService = ReturnType<typeof createUsageService>;
