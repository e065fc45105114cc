/**
 * The last hour's tool calls and errors per UTC minute, refreshed every 30 seconds: every call the
 * broker recorded (not only metered ones), errors stacked on top of the rest.
 */
import { useState } from "react";
import type { ApiResult } from "../api/types";
import { ErrorMessage, Loading } from "../ui/feedback";
import { Section } from "../ui/page";
import { UsageChart, type Datum, type Series } from "./usage-chart";
import { useLastHour, type LastHourQuery } from "./usage-queries";

type Minute = ApiResult<"get", "/v1/usage/last-hour">["data"][number];

/** The calls without an error and the errors stack up to the minute's calls. */
const SERIES: Series[] = [
  { key: "ok", name: "calls without error", tone: "calls", stack: "calls" },
  { key: "errors", name: "errors", tone: "errors", hatched: true, stack: "calls" },
];
const COLUMNS = [
  { key: "calls", name: "calls" },
  { key: "errors", name: "errors" },
];

const plural = (n: number, word: string) => (n === 1 ? word : `${word}s`);
const count = (n: number, word: string) => `${n} ${plural(n, word)}`;

const byMinute = (minutes: Minute[]): Datum[] =>
  minutes.map((minute) => ({
    label: `${minute.minute.slice(0, 10)} ${minute.minute.slice(11, 16)} UTC`,
    short: minute.minute.slice(11, 16),
    calls: minute.calls,
    errors: minute.errors,
    ok: minute.calls - minute.errors,
  }));

export function LastHourSection() {
  const [env, setEnv] = useState<LastHourQuery["env"]>(undefined);
  const lastHour = useLastHour(env ? { env } : {});
  const data = lastHour.data;
  const scope = env ? ` (${env})` : "";
  return (
    <Section title="Calls in the last hour" id="usage-last-hour-heading">
      <div className="filters card">
        <div className="field">
          <label htmlFor="usage-last-hour-env">Environment</label>
          <select id="usage-last-hour-env" value={env ?? ""} onChange={(event) => setEnv((event.target.value || undefined) as LastHourQuery["env"])}>
            <option value="">Both</option>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </div>
      </div>
      {lastHour.isPending ? <Loading label="Loading the last hour's calls…" /> : null}
      <ErrorMessage error={lastHour.error} prefix="The last hour's calls could not be loaded" />
      {data ? (
        <>
          <p>
            <strong>{data.calls}</strong> {plural(data.calls, "call")} and <strong>{data.errors}</strong> {plural(data.errors, "error")}
            {scope} from {data.from.slice(11, 16)} to {data.to.slice(11, 16)} UTC, per minute. Every recorded call counts, denied and waiting ones too; errors are
            calls that failed, were malformed or were lost.
          </p>
          <UsageChart
            data={byMinute(data.data)}
            series={SERIES}
            columns={COLUMNS}
            title={`Calls and errors per minute, the last hour${scope}`}
            description={`${count(data.calls, "call")} and ${count(data.errors, "error")} from ${data.from.slice(11, 16)} to ${data.to.slice(11, 16)} UTC.`}
            categoryLabel="Minute (UTC)"
            valueLabel="Calls"
            firstColumn="Minute"
            height={220}
          />
        </>
      ) : null}
    </Section>
  );
}
