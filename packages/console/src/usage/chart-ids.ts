import { useId } from "react";

/** Ids for one chart's title and hatch pattern: unique per chart, and safe inside `url(#…)`. */
export function useChartIds() {
  const base = useId().replace(/[^A-Za-z0-9_-]/g, "");
  return { titleId: `chart-${base}-title`, hatchId: `chart-${base}-hatch` };
}
