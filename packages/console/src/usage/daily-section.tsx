/** Executions per UTC day of one month, test and live, as columns (with a table for screen readers). */
import { useState } from "react";
import type { DailyUsageRow } from "../api/types";
import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { Section } from "../ui/page";
import { ENV_SERIES, UsageChart, type Datum, type Series } from "./usage-chart";
import { currentMonth, useDailyUsage, type DailyUsageQuery } from "./usage-queries";

type Column = Datum & { test: number; live: number };

function byDay(rows: DailyUsageRow[]): Column[] {
  const columns = new Map<string, Column>();
  for (const row of rows) {
    const column = columns.get(row.day) ?? { label: row.day, short: String(Number(row.day.slice(8, 10))), test: 0, live: 0 };
    column[row.env] += row.executions;
    columns.set(row.day, column);
  }
  return [...columns.values()].sort((a, b) => a.label.localeCompare(b.label));
}

export function DailyUsageSection() {
  const [month, setMonth] = useState(currentMonth);
  const [env, setEnv] = useState<DailyUsageQuery["env"]>(undefined);
  const daily = useDailyUsage({ ...(month ? { month } : {}), ...(env ? { env } : {}) });
  const data = daily.data;
  const columns = byDay(data?.data ?? []);
  const series: Series[] = env ? [ENV_SERIES[env]] : [ENV_SERIES.test, ENV_SERIES.live];
  const total = columns.reduce((sum, column) => sum + column.test + column.live, 0);
  const busiest = columns.reduce<Column | undefined>((best, column) => (!best || column.test + column.live > best.test + best.live ? column : best), undefined);

  return (
    <Section title="Executions per day" id="usage-daily-heading">
      <div className="filters card">
        <div className="field">
          <label htmlFor="usage-daily-month">Month</label>
          <input id="usage-daily-month" type="month" value={month} onChange={(event) => setMonth(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="usage-daily-env">Environment</label>
          <select id="usage-daily-env" value={env ?? ""} onChange={(event) => setEnv((event.target.value || undefined) as DailyUsageQuery["env"])}>
            <option value="">Both</option>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </div>
      </div>
      {daily.isPending ? <Loading label="Loading executions per day…" /> : null}
      <ErrorMessage error={daily.error} prefix="The executions per day could not be loaded" />
      {data && total > 0 ? (
        <p>
          <strong>{total}</strong> executions in {data.month}
          {env ? ` (${env})` : ""}, per day in UTC.
        </p>
      ) : null}
      {data && total === 0 ? <EmptyState>
          No executions in {data.month}
          {env ? ` (${env})` : ""}.
        </EmptyState> : null}
      {data && total > 0 ? (
        <UsageChart
          data={columns}
          series={series}
          title={`Executions per day, ${data.month}${env ? `, ${env}` : ""}`}
          description={`${total} executions in total; the busiest day was ${busiest!.label} with ${busiest!.test + busiest!.live}.`}
          categoryLabel="Day of the month (UTC)"
          valueLabel="Executions"
          firstColumn="Day"
        />
      ) : null}
    </Section>
  );
}
