/** The Markdown report: every scenario, and its ratio to the baseline at the same concurrency. */
import type { LoadResult } from "./load.js";

/** `cpuMicrosPerCall`: CPU time of the measured process (the broker, or the bare proxy for the baseline) ÷ requests. */
export type ScenarioResult = LoadResult & { database: string; scenario: string; concurrency: number; brokerRssMb: number | null; cpuMicrosPerCall: number };
type Growth = { database: string; history: number; empty: LoadResult & { cpuMicrosPerCall: number }; after: LoadResult & { cpuMicrosPerCall: number } };
type Report = { when: string; node: string; metrics?: string; quick: boolean; durationSeconds: number; runs: number; warmupSeconds: number; results: ScenarioResult[]; growth: Growth[]; seconds: number };

const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "–");

export function renderReport(report: Report): string {
  const lines = [
    `# Toolbroker benchmark — ${report.when}`,
    "",
    `Node ${report.node}; metrics ${report.metrics ?? "on"} (BROKER_METRICS); per scenario a ${report.warmupSeconds}s warm-up, then ${report.runs} run(s) of ${report.durationSeconds}s, each figure the median of the runs (requests, non-2xx and errors summed)${report.quick ? " (quick)" : ""}; total ${report.seconds}s.`,
    "",
    "| database | concurrency | scenario | req/s | p50 ms | p99 ms | max ms | non-2xx | errors | broker RSS MB | CPU µs/call | × baseline req/s | added p50 ms | × baseline CPU µs/call |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of report.results) {
    const baseline = report.results.find((b) => b.database === r.database && b.concurrency === r.concurrency && b.scenario === "baseline proxy");
    const ratio = baseline && r.scenario !== "baseline proxy" ? fixed(r.rps / baseline.rps) : "";
    const added = baseline && r.scenario !== "baseline proxy" ? fixed(r.p50 - baseline.p50) : "";
    const cpuRatio = baseline && r.scenario !== "baseline proxy" ? fixed(r.cpuMicrosPerCall / baseline.cpuMicrosPerCall, 1) : "";
    lines.push(`| ${r.database} | ${r.concurrency} | ${r.scenario} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.max} | ${r.non2xx} | ${r.errors} | ${r.brokerRssMb ?? ""} | ${r.cpuMicrosPerCall} | ${ratio} | ${added} | ${cpuRatio} |`);
  }
  lines.push("", "## Growth: execute (JWT) at concurrency 32", "", "| database | prior invocations + audit events | req/s empty | req/s after | ratio | CPU µs/call empty | CPU µs/call after |", "|---|---|---|---|---|---|---|");
  for (const g of report.growth) lines.push(`| ${g.database} | ${g.history} | ${g.empty.rps} | ${g.after.rps} | ${fixed(g.after.rps / g.empty.rps)} | ${g.empty.cpuMicrosPerCall} | ${g.after.cpuMicrosPerCall} |`);
  return `${lines.join("\n")}\n`;
}
