/**
 * Executions per month for a range of months (by default the last 12, this one included): per
 * month and by tool as charts, and every row in a table.
 */
import { useState } from "react";
import type { UsageRow } from "../api/types";
import { useAgentAppNames } from "../approvals/approval-queries";
import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { Section } from "../ui/page";
import { ENV_SERIES, UsageChart, type Datum, type Series } from "./usage-chart";
import { addMonths, currentMonth, monthsBetween, useUsage, type UsageQuery } from "./usage-queries";

type EnvDatum = Datum & { test: number; live: number };

function byTool(rows: UsageRow[]): EnvDatum[] {
  const bars = new Map<string, EnvDatum>();
  for (const row of rows) {
    const bar = bars.get(row.tool_name) ?? { label: row.tool_name, short: row.tool_name, test: 0, live: 0 };
    bar[row.env] += row.executions;
    bars.set(row.tool_name, bar);
  }
  return [...bars.values()].sort((a, b) => b.test + b.live - (a.test + a.live));
}

const monthLabel = new Intl.DateTimeFormat(undefined, { month: "short", year: "2-digit", timeZone: "UTC" });

/** One column per month of the range, months without executions included. */
function byMonth(rows: UsageRow[], from: string, to: string): EnvDatum[] {
  const columns = new Map<string, EnvDatum>(
    monthsBetween(from, to).map((month) => [month, { label: month, short: monthLabel.format(new Date(`${month}-01T00:00:00Z`)), test: 0, live: 0 }]),
  );
  for (const row of rows) {
    const column = columns.get(row.period);
    if (column) column[row.env] += row.executions;
  }
  return [...columns.values()];
}

/** The last 12 months, this one included. */
const lastYear = (): UsageQuery => ({ from: addMonths(currentMonth(), -11), to: currentMonth() });

export function UsageSection() {
  const [query, setQuery] = useState<UsageQuery>(lastYear);
  const usage = useUsage(query);
  const appNames = useAgentAppNames();
  const set = (patch: Partial<UsageQuery>) => setQuery((current) => ({ ...current, ...patch }));
  const rows = usage.data?.data ?? [];
  const grouped = query.group_by === "end_user";
  const series: Series[] = query.env ? [ENV_SERIES[query.env]] : [ENV_SERIES.test, ENV_SERIES.live];
  const tools = byTool(rows);

  return (
    <Section title="Executions per month" id="usage-heading">
      <div className="filters card">
        <div className="field">
          <label htmlFor="usage-from">From month</label>
          <input id="usage-from" type="month" value={query.from ?? ""} onChange={(event) => set({ from: event.target.value || undefined })} />
        </div>
        <div className="field">
          <label htmlFor="usage-to">To month</label>
          <input id="usage-to" type="month" value={query.to ?? ""} onChange={(event) => set({ to: event.target.value || undefined })} />
        </div>
        <div className="field">
          <label htmlFor="usage-env">Environment</label>
          <select id="usage-env" value={query.env ?? ""} onChange={(event) => set({ env: (event.target.value || undefined) as UsageQuery["env"] })}>
            <option value="">Both</option>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={grouped} onChange={(event) => set({ group_by: event.target.checked ? "end_user" : undefined })} />
          Group by end user
        </label>
      </div>
      {usage.isPending ? <Loading label="Loading usage…" /> : null}
      <ErrorMessage error={usage.error} prefix="The usage could not be loaded" />
      {usage.data ? (
        <p>
          <strong>{usage.data.total}</strong> executions from {usage.data.from} to {usage.data.to} (calls that reached the provider; denials and replays are not counted).
        </p>
      ) : null}
      {usage.data && rows.length === 0 ? <EmptyState>No executions in this period.</EmptyState> : null}
      {rows.length > 0 ? (
        <>
          {usage.data ? (
            <>
              <h3>Per month</h3>
              <UsageChart
                data={byMonth(rows, usage.data.from, usage.data.to)}
                series={series}
                title={`Executions per month, ${usage.data.from} to ${usage.data.to}${query.env ? `, ${query.env}` : ""}`}
                description={`${usage.data.total} executions in total.`}
                categoryLabel="Month (UTC)"
                valueLabel="Executions"
                firstColumn="Month"
              />
            </>
          ) : null}
          <h3>By tool</h3>
          <UsageChart
            layout="bars"
            data={tools}
            series={series}
            title={`Executions by tool, ${usage.data?.from} to ${usage.data?.to}`}
            description={`${tools.length} ${tools.length === 1 ? "tool" : "tools"}; the most used is ${tools[0]?.label} with ${(tools[0]?.test ?? 0) + (tools[0]?.live ?? 0)}.`}
            categoryLabel="Tool"
            valueLabel="Executions"
            firstColumn="Tool"
          />
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Executions by month, env, agent app and tool</caption>
              <thead>
                <tr>
                  <th scope="col">Month</th>
                  <th scope="col">Env</th>
                  <th scope="col">Tool</th>
                  <th scope="col">Agent app</th>
                  {grouped ? <th scope="col">End user</th> : null}
                  <th scope="col">Executions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((row, index) => (
                  <tr key={index}>
                    <td>{row.period}</td>
                    <td>{row.env}</td>
                    <td>{row.tool_name}</td>
                    <td>{appNames.get(row.agent_app_id) ?? <span className="mono">{row.agent_app_id}</span>}</td>
                    {grouped ? <td>{row.end_user_id ?? <span className="muted">none</span>}</td> : null}
                    <td>{row.executions}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
    </Section>
  );
}
