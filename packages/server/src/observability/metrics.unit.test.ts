import { describe, expect, it } from "vitest";
import { BrokerError } from "../errors.js";
import { createMetrics } from "./metrics.js";
import { cachedReading } from "./metrics-readings.js";
import { toolCallOutcomeOf } from "./metrics-tool-calls.js";

const builtIn = { tools: new Map([["scm.get_authenticated_user", "scm"]]), providers: new Set(["scm"]) };
const metricsText = (metrics: ReturnType<typeof createMetrics>) => metrics.registry.metrics();

describe("tool-call labels", () => {
  it("name built-in tools, count a tenant's own as custom and anything unresolved as unknown", async () => {
    const metrics = createMetrics({ enabled: true, tenantLabels: false, builtIn });
    for (const [name, known] of [["scm.get_authenticated_user", true], ["acme_crm.find_customer", true], ["no.such_tool", false]] as const) {
      const timer = metrics.startToolCall("rest");
      timer.named(name, "tenant-1", known);
      timer.succeeded();
    }
    const text = await metricsText(metrics);
    expect(text).toContain('toolbroker_tool_calls_total{tool="scm.get_authenticated_user",provider="scm",channel="rest",outcome="succeeded"} 1');
    expect(text).toContain('toolbroker_tool_calls_total{tool="custom",provider="custom",channel="rest",outcome="succeeded"} 1');
    expect(text).toContain('toolbroker_tool_calls_total{tool="unknown",provider="unknown",channel="rest",outcome="succeeded"} 1');
    expect(text).not.toContain("acme_crm");
    expect(text).not.toContain("tenant-1");
  });

  it("label a tenant's own provider as custom in refreshes and upstream errors", async () => {
    const metrics = createMetrics({ enabled: true, tenantLabels: false, builtIn });
    metrics.tokenRefresh("acme_crm", "failed");
    metrics.upstreamError("scm", "timeout");
    const text = await metricsText(metrics);
    expect(text).toContain('toolbroker_token_refreshes_total{provider="custom",outcome="failed"} 1');
    expect(text).toContain('toolbroker_upstream_errors_total{provider="scm",kind="timeout"} 1');
  });

  it("split the broker's time from the upstream's, and leave both out when the upstream time is unknown", async () => {
    const metrics = createMetrics({ enabled: true, tenantLabels: false, builtIn });
    const answered = metrics.startToolCall("mcp");
    answered.named("scm.get_authenticated_user", "t", true);
    answered.upstream(40);
    answered.succeeded();
    const timedOut = metrics.startToolCall("mcp");
    timedOut.named("scm.get_authenticated_user", "t", true);
    timedOut.upstream(null);
    timedOut.failed(new BrokerError("upstream_error", "the upstream did not answer", { reason: "timeout" }));
    const text = await metricsText(metrics);
    expect(text).toContain('toolbroker_tool_call_duration_seconds_count{tool="scm.get_authenticated_user",provider="scm",channel="mcp"} 2');
    expect(text).toContain('toolbroker_tool_call_upstream_duration_seconds_sum{provider="scm",channel="mcp"} 0.04');
    expect(text).toContain('toolbroker_tool_call_upstream_duration_seconds_count{provider="scm",channel="mcp"} 1');
    expect(text).toContain('toolbroker_tool_call_broker_duration_seconds_count{provider="scm",channel="mcp"} 1');
  });

  it("map every error to one of a fixed set of outcomes", () => {
    expect(toolCallOutcomeOf(new BrokerError("approval_required", "x"))).toBe("approval_required");
    expect(toolCallOutcomeOf(new BrokerError("policy_denied", "x"))).toBe("policy_denied");
    expect(toolCallOutcomeOf(new BrokerError("upstream_error", "x"))).toBe("upstream_error");
    expect(toolCallOutcomeOf(new BrokerError("invalid_tool_args", "x"))).toBe("rejected");
    expect(toolCallOutcomeOf(new BrokerError("outcome_unknown", "x"))).toBe("rejected");
    expect(toolCallOutcomeOf(new BrokerError("vault_unavailable", "x"))).toBe("error");
    expect(toolCallOutcomeOf(new Error("boom"))).toBe("error");
  });

  it("add a tenant label only when asked to", async () => {
    const metrics = createMetrics({ enabled: true, tenantLabels: true, builtIn });
    const timer = metrics.startToolCall("rest");
    timer.named("scm.get_authenticated_user", "tenant-42", true);
    timer.succeeded({ replayed: true });
    expect(await metricsText(metrics)).toContain('toolbroker_tool_calls_total{tool="scm.get_authenticated_user",provider="scm",channel="rest",tenant="tenant-42",outcome="replayed"} 1');
  });
});

describe("disabled metrics (BROKER_METRICS=off)", () => {
  it("accept every call and show nothing", async () => {
    const metrics = createMetrics({ enabled: false, tenantLabels: false, builtIn });
    const timer = metrics.startToolCall("rest");
    timer.named("scm.get_authenticated_user", "t", true);
    timer.succeeded();
    metrics.httpRequest("GET", "/health", 200, 0.001);
    metrics.rateLimited("execute");
    expect(metrics.enabled).toBe(false);
    expect((await metricsText(metrics)).trim()).toBe("");
  });
});

describe("a scrape-time reading", () => {
  const timing = (now: { t: number }) => ({ ttlMs: 5_000, timeoutMs: 50, now: () => now.t });

  it("is cached for its interval: one query for many scrapes", async () => {
    const now = { t: 0 };
    let queries = 0;
    const read = cachedReading(async () => ++queries, timing(now));
    expect([await read(), await read(), await read()]).toEqual([1, 1, 1]);
    now.t = 5_000;
    expect(await read()).toBe(2);
    expect(queries).toBe(2);
  });

  it("gives up after its timeout on a database that does not answer, without starting a second query", async () => {
    const now = { t: 0 };
    let queries = 0;
    let answer: (value: number) => void = () => {};
    const read = cachedReading(() => {
      queries += 1;
      return new Promise<number>((resolve) => (answer = resolve));
    }, timing(now));
    const started = Date.now();
    expect(await read()).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await read()).toBeUndefined();
    expect(queries).toBe(1);
    answer(7);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await read()).toBe(7);
  });

  it("answers undefined when the query fails, and tries again at the next scrape", async () => {
    let fail = true;
    const read = cachedReading(async () => {
      if (fail) throw new Error("database gone");
      return 3;
    }, timing({ t: 0 }));
    expect(await read()).toBeUndefined();
    fail = false;
    expect(await read()).toBe(3);
  });
});
