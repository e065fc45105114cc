/**
 * The Grafana dashboard in deploy/grafana cannot rot: every metric its PromQL names is one the
 * broker registers (with the scrape-time readings and a PostgreSQL pool, so that all of them
 * exist), and every panel reads the dashboard's own Prometheus data source.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../src/observability/metrics.js";
import { registerReadings } from "../src/observability/metrics-readings.js";

const DASHBOARD = fileURLToPath(new URL("../../../deploy/grafana/toolbroker.json", import.meta.url));

type Panel = { type: string; title: string; datasource?: { uid: string }; targets?: { expr: string; datasource?: { uid: string } }[] };
const dashboard = JSON.parse(readFileSync(DASHBOARD, "utf8")) as { panels: Panel[]; templating: { list: { name: string; query: unknown }[] } };
const queryPanels = dashboard.panels.filter((panel) => panel.type !== "row");

async function registeredNames(): Promise<Set<string>> {
  const metrics = createMetrics({ enabled: true, tenantLabels: false, builtIn: { tools: new Map(), providers: new Set() } });
  registerReadings(metrics.registry, {
    pendingApprovals: async () => 0,
    pendingWebhookDeliveries: async () => 0,
    undispatchedEvents: async () => 0,
    storeStats: () => ({ transactionRetries: 0, pool: { total: 1, idle: 1, waiting: 0 } }),
  });
  const described = await metrics.registry.getMetricsAsJSON();
  const names = new Set<string>();
  for (const metric of described) {
    names.add(metric.name);
    if (String(metric.type) === "histogram") for (const suffix of ["_bucket", "_sum", "_count"]) names.add(metric.name + suffix);
  }
  return names;
}

/** Metric names in a PromQL expression: every `toolbroker_…` identifier. */
const metricNamesIn = (expr: string) => [...expr.matchAll(/\btoolbroker_[a-z0-9_]+/g)].map((match) => match[0]);

describe("the Grafana dashboard (deploy/grafana/toolbroker.json)", () => {
  it("names only metrics the broker registers", async () => {
    const registered = await registeredNames();
    const used = new Set([
      ...queryPanels.flatMap((panel) => (panel.targets ?? []).flatMap((target) => metricNamesIn(target.expr))),
      ...dashboard.templating.list.flatMap((variable) => metricNamesIn(JSON.stringify(variable.query ?? ""))),
    ]);
    expect(used.size).toBeGreaterThan(15);
    expect([...used].filter((name) => !registered.has(name))).toEqual([]);
  });

  it("shows calls, errors, broker and upstream latency, approvals, refreshes and webhooks", () => {
    const exprs = queryPanels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)).join("\n");
    for (const name of [
      "toolbroker_tool_calls_total",
      "toolbroker_upstream_errors_total",
      "toolbroker_tool_call_broker_duration_seconds_bucket",
      "toolbroker_tool_call_upstream_duration_seconds_bucket",
      "toolbroker_approvals_pending",
      "toolbroker_token_refreshes_total",
      "toolbroker_webhook_delivery_attempts_total",
    ]) {
      expect(exprs).toContain(name);
    }
  });

  it("has a query in every panel, each on the dashboard's data source variable, and no tenant label", () => {
    for (const panel of queryPanels) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      expect(panel.datasource?.uid, panel.title).toBe("${datasource}");
      for (const target of panel.targets ?? []) {
        expect(target.datasource?.uid, panel.title).toBe("${datasource}");
        expect(target.expr, panel.title).not.toMatch(/\btenant\b/);
      }
    }
  });
});
