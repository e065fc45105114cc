/**
 * Every chart of the Usage page, drawn by recharts: columns over time (months, days, minutes) or
 * bars per tool. Each chart has a title and a description (the SVG's <title> and <desc>), axes
 * that say their unit, a tooltip on hover and on the keyboard (recharts' accessibility layer: Tab
 * to the chart, then the arrow keys), and the same numbers in a visually hidden table. Series
 * differ in shape as well as colour (hatched or solid, named in the legend), as everywhere in the
 * console. Colours come from classes in components.css: the CSP allows no inline style attribute.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { useChartIds } from "./chart-ids";

/** One column (or bar): `label` in full (table, tooltip), `short` on the axis, then a number per series. */
export type Datum = { label: string; short: string } & Record<string, number | string>;

export type Series = {
  key: string;
  /** In the legend, the tooltip and the table (e.g. "test", "errors"). */
  name: string;
  /** Colour class suffix (components.css: `.chart-fill-<tone>` solid, `.chart-pattern-<tone>` hatched). */
  tone: "test" | "live" | "calls" | "errors";
  hatched?: boolean;
  /** Series with the same stack are drawn on top of each other. */
  stack?: string;
};

/** Test solid, live hatched: told apart by shape as well as colour. */
export const ENV_SERIES: Record<"test" | "live", Series> = {
  test: { key: "test", name: "test", tone: "test" },
  live: { key: "live", name: "live", tone: "live", hatched: true },
};

/** What the tooltip and the table list for each datum (by default the series themselves). */
export type Column = { key: string; name: string };

type Props = {
  title: string;
  description: string;
  data: Datum[];
  series: Series[];
  columns?: Column[];
  /** Axis titles, with their unit. */
  categoryLabel: string;
  valueLabel: string;
  /** The table's first column. */
  firstColumn: string;
  /** "bars": one horizontal bar per datum (categories down the side). */
  layout?: "columns" | "bars";
  /** Height of the plot (columns); bars grow with their number. */
  height?: number;
};

const AXIS_TICK = { className: "chart-tick" };

export function UsageChart({ title, description, data, series, columns, categoryLabel, valueLabel, firstColumn, layout = "columns", height = 240 }: Props) {
  const ids = useChartIds();
  const listed = columns ?? series.map(({ key, name }) => ({ key, name }));
  const bars = layout === "bars";
  const widestLabel = Math.max(4, ...data.map((datum) => datum.short.length));
  const categoryWidth = Math.min(200, widestLabel * 7 + 12);
  const chartHeight = bars ? data.length * series.length * 16 + data.length * 14 + 70 : height;
  const fillOf = (entry: Series) => `url(#${ids.patternId(entry.tone)})`;
  const category = bars ? (
    <YAxis type="category" dataKey="short" width={categoryWidth} tick={AXIS_TICK} interval={0} label={{ value: categoryLabel, position: "top", offset: 8, className: "chart-axis-title" }} />
  ) : (
    <XAxis dataKey="short" tick={AXIS_TICK} interval="preserveEnd" minTickGap={8} height={44} label={{ value: categoryLabel, position: "insideBottom", className: "chart-axis-title" }} />
  );
  const value = bars ? (
    <XAxis type="number" allowDecimals={false} tick={AXIS_TICK} height={44} label={{ value: valueLabel, position: "insideBottom", className: "chart-axis-title" }} />
  ) : (
    <YAxis allowDecimals={false} tick={AXIS_TICK} width={52} label={{ value: valueLabel, angle: -90, position: "insideLeft", className: "chart-axis-title" }} />
  );
  return (
    <figure className="stack chart-figure">
      <svg className="chart-defs" aria-hidden="true" focusable="false">
        <defs>
          {series
            .filter((entry) => entry.hatched)
            .map((entry) => (
              <pattern key={entry.key} id={ids.patternId(entry.tone)} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
                <rect width="6" height="6" className={`chart-pattern-${entry.tone}`} />
                <line x1="0" y1="0" x2="0" y2="6" className="chart-hatch" />
              </pattern>
            ))}
        </defs>
      </svg>
      <div className="chart-box">
        <ResponsiveContainer width="100%" height={chartHeight}>
          <BarChart
            data={data}
            layout={bars ? "vertical" : "horizontal"}
            title={title}
            desc={description}
            accessibilityLayer
            margin={{ top: bars ? 22 : 8, right: 16, bottom: 4, left: bars ? 4 : 0 }}
            barCategoryGap={bars ? 6 : "12%"}
          >
            <CartesianGrid className="chart-grid" vertical={bars} horizontal={!bars} />
            {bars ? value : category}
            {bars ? category : value}
            <Tooltip content={(props) => <ChartTooltip active={props.active} payload={props.payload} columns={listed} />} cursor={{ className: "chart-cursor" }} isAnimationActive={false} />
            {series.map((entry) => (
              <Bar
                key={entry.key}
                dataKey={entry.key}
                name={entry.name}
                // recharts puts the class on every bar: a solid series' colour, or none (the pattern's fill stays).
                {...(entry.hatched ? { fill: fillOf(entry) } : { className: `chart-fill-${entry.tone}` })}
                {...(entry.stack ? { stackId: entry.stack } : {})}
                isAnimationActive={false}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{firstColumn}</th>
              {listed.map((column) => (
                <th key={column.key} scope="col">
                  {column.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.map((datum) => (
              <tr key={datum.label}>
                <th scope="row">{datum.label}</th>
                {listed.map((column) => (
                  <td key={column.key}>{datum[column.key]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <figcaption className="legend">
        {series.map((entry) => (
          <span key={entry.key}>
            <span className={`swatch chart-swatch-${entry.tone}${entry.hatched ? " swatch-hatched" : ""}`} aria-hidden="true" />
            {entry.name} ({entry.hatched ? "hatched" : "solid"})
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** The hovered (or keyboard-selected) datum in words: its full label and every listed number. */
function ChartTooltip({ active, payload, columns }: Pick<TooltipContentProps, "active" | "payload"> & { columns: Column[] }) {
  const datum = payload?.[0]?.payload as Datum | undefined;
  if (!active || !datum) return null;
  return (
    <div className="chart-tooltip" role="status">
      <strong>{datum.label}</strong>
      {columns.map((column) => (
        <span key={column.key}>
          {column.name}: {datum[column.key]}
        </span>
      ))}
    </div>
  );
}
