/**
 * Executions over time as columns, test and live side by side, in the style of the bar chart:
 * live columns carry a hatch (shape as well as colour), each column has a tooltip, and a visually
 * hidden table carries the same numbers for screen readers.
 */
import { useChartIds } from "./chart-ids";

export type Column = {
  /** Full label, for the table and the tooltips (e.g. 2025-06-12). */
  label: string;
  /** Axis label (e.g. 12). */
  short: string;
  test: number;
  live: number;
};
export type Series = "test" | "live";

const LEFT = 44;
const TOP = 10;
const PLOT_WIDTH = 590;
const PLOT_HEIGHT = 170;
const BOTTOM = 24;

/** A round axis maximum at or above `value` whose half is a whole number too (but for 1). */
function niceMax(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 4, 6, 8, 10].find((factor) => factor * power >= value)!;
  return Math.max(2, step * power);
}

export function ColumnChart({ columns, series, title, description, firstColumn }: { columns: Column[]; series: Series[]; title: string; description: string; firstColumn: string }) {
  const { titleId, hatchId } = useChartIds();
  const max = niceMax(Math.max(0, ...columns.flatMap((column) => series.map((name) => column[name]))));
  const slot = PLOT_WIDTH / Math.max(1, columns.length);
  const gap = Math.min(6, slot * 0.25);
  const barWidth = (slot - gap) / series.length;
  const height = TOP + PLOT_HEIGHT + BOTTOM;
  const width = LEFT + PLOT_WIDTH + 10;
  const y = (value: number) => TOP + PLOT_HEIGHT - (value / max) * PLOT_HEIGHT;
  // Label every column while the labels fit, otherwise every second (third, …) one, and always the last.
  const widest = Math.max(1, ...columns.map((column) => column.short.length));
  const labelEvery = Math.max(1, Math.ceil((widest * 7 + 6) / slot));
  return (
    <figure className="stack chart-figure">
      <div className="chart-wrap">
        <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId}>
          <title id={titleId}>{`${title}. ${description}`}</title>
          <defs>
            <pattern id={hatchId} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <rect width="6" height="6" className="chart-bar-live" />
              <line x1="0" y1="0" x2="0" y2="6" stroke="#fff" strokeWidth="2" />
            </pattern>
          </defs>
          {(max > 1 ? [0, max / 2, max] : [0, max]).map((tick) => (
            <g key={tick}>
              <line x1={LEFT} x2={LEFT + PLOT_WIDTH} y1={y(tick)} y2={y(tick)} className="chart-grid" />
              <text x={LEFT - 6} y={y(tick) + 4} textAnchor="end" className="chart-label">
                {tick}
              </text>
            </g>
          ))}
          {columns.map((column, index) => {
            const x = LEFT + index * slot + gap / 2;
            return (
              <g key={column.label}>
                {series.map((name, position) => (
                  <rect
                    key={name}
                    x={x + position * barWidth}
                    y={y(column[name])}
                    width={Math.max(1, barWidth - 1)}
                    height={TOP + PLOT_HEIGHT - y(column[name])}
                    className={name === "test" ? "chart-bar" : undefined}
                    fill={name === "live" ? `url(#${hatchId})` : undefined}
                  >
                    <title>{`${column.label}, ${name}: ${column[name]}`}</title>
                  </rect>
                ))}
                {index % labelEvery === 0 || (index === columns.length - 1 && index % labelEvery >= labelEvery / 2) ? (
                  <text x={LEFT + index * slot + slot / 2} y={TOP + PLOT_HEIGHT + 16} textAnchor="middle" className="chart-label">
                    {column.short}
                  </text>
                ) : null}
              </g>
            );
          })}
        </svg>
      </div>
      <div className="visually-hidden">
        <table>
          <caption>{title}</caption>
          <thead>
            <tr>
              <th scope="col">{firstColumn}</th>
              {series.map((name) => (
                <th key={name} scope="col">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {columns.map((column) => (
              <tr key={column.label}>
                <th scope="row">{column.label}</th>
                {series.map((name) => (
                  <td key={name}>{column[name]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <figcaption className="legend">
        {series.includes("test") ? (
          <span>
            <span className="swatch swatch-test" aria-hidden="true" />
            test ({series.length > 1 ? "left, solid" : "solid"})
          </span>
        ) : null}
        {series.includes("live") ? (
          <span>
            <span className="swatch swatch-live" aria-hidden="true" />
            live ({series.length > 1 ? "right, hatched" : "hatched"})
          </span>
        ) : null}
      </figcaption>
    </figure>
  );
}
