/**
 * Executions per tool as horizontal bars, test and live side by side. Test and live differ in
 * shape as well as colour (live bars carry a hatch), and the same numbers are in the table below.
 */
import { useChartIds } from "./chart-ids";

export type Bar = { label: string; test: number; live: number };

const ROW = 34;
const LABEL_WIDTH = 190;
const CHART_WIDTH = 340;

export function BarChart({ bars, title }: { bars: Bar[]; title: string }) {
  const max = Math.max(1, ...bars.flatMap((bar) => [bar.test, bar.live]));
  const height = bars.length * ROW + 10;
  const width = LABEL_WIDTH + CHART_WIDTH + 60;
  const scale = (value: number) => (value / max) * CHART_WIDTH;
  const { titleId, hatchId } = useChartIds();
  return (
    <figure className="stack chart-figure">
      <div className="chart-wrap">
        <svg className="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={titleId}>
          <title id={titleId}>{title}</title>
          <defs>
            <pattern id={hatchId} width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
              <rect width="6" height="6" className="chart-bar-live" />
              <line x1="0" y1="0" x2="0" y2="6" stroke="#fff" strokeWidth="2" />
            </pattern>
          </defs>
          {bars.map((bar, index) => {
            const y = index * ROW + 4;
            return (
              <g key={bar.label}>
                <text x={LABEL_WIDTH - 8} y={y + 17} textAnchor="end" className="chart-label">
                  {bar.label}
                </text>
                <rect x={LABEL_WIDTH} y={y} width={scale(bar.test)} height={12} className="chart-bar" />
                <text x={LABEL_WIDTH + scale(bar.test) + 4} y={y + 10} className="chart-label">
                  {bar.test}
                </text>
                <rect x={LABEL_WIDTH} y={y + 14} width={scale(bar.live)} height={12} fill={`url(#${hatchId})`} />
                <text x={LABEL_WIDTH + scale(bar.live) + 4} y={y + 24} className="chart-label">
                  {bar.live}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
      <figcaption className="legend">
        <span>
          <span className="swatch swatch-test" aria-hidden="true" />
          test (upper, solid)
        </span>
        <span>
          <span className="swatch swatch-live" aria-hidden="true" />
          live (lower, hatched)
        </span>
      </figcaption>
    </figure>
  );
}
