import { useId } from "react";

/** Ids for one chart's fill patterns: unique per chart, and safe inside `url(#…)`. */
export function useChartIds() {
  const base = useId().replace(/[^A-Za-z0-9_-]/g, "");
  return { patternId: (name: string) => `chart-${base}-${name}` };
}
