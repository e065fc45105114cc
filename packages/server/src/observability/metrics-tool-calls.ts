/**
 * Tool-call metrics, timed from the call's arrival at execute, continue or MCP's tools/call to its
 * answer. The broker's own time is the total minus the upstream request's (both attempts when a
 * 401 led to a refresh and a retry), so a slow provider and a slow broker are told apart.
 */
import { Counter, Histogram, type Registry } from "prom-client";
import { BrokerError } from "../errors.js";

/** A bounded set: every answer a tool call can get falls in one of these. */
export type ToolCallOutcome = "succeeded" | "replayed" | "approval_required" | "policy_denied" | "upstream_error" | "rejected" | "error";
export type ToolCallChannel = "rest" | "mcp";

/** What the catalogue's built-in part holds, so that labels can name built-in tools and nothing else. */
export type BuiltInNames = { tools: ReadonlyMap<string, string>; providers: ReadonlySet<string> };

/** How one call is being timed; each call ends in exactly one of `succeeded` and `failed`. */
export type ToolCallTimer = {
  /** The tool the call resolved to (`known`: the tenant's catalogue has it) and whose call it is. */
  named(toolName: string, tenantId: string, known: boolean): void;
  /** The upstream request's time in ms, or null when it left but its time is unknown (a timeout, a cut connection). */
  upstream(latencyMs: number | null): void;
  succeeded(options?: { replayed?: boolean }): void;
  failed(error: unknown): void;
};

type ToolCallTimerDeps = {
  registry: Registry;
  prefix: string;
  buckets: number[];
  tenantLabels: boolean;
  builtIn: BuiltInNames;
  providerLabel: (provider: string) => string;
};

/** The outcome an error stands for; a 4xx the broker answered for the caller's request is `rejected`. */
export function toolCallOutcomeOf(error: unknown): ToolCallOutcome {
  if (!(error instanceof BrokerError)) return "error";
  if (error.code === "approval_required" || error.code === "policy_denied" || error.code === "upstream_error") return error.code;
  return error.status >= 500 ? "error" : "rejected";
}

export function createToolCallTimers(deps: ToolCallTimerDeps) {
  const tenant = deps.tenantLabels ? ["tenant"] : [];
  const { registry, prefix, buckets } = deps;
  const calls = new Counter({ name: `${prefix}tool_calls_total`, help: "Tool calls answered, by tool, provider, channel and outcome", labelNames: ["tool", "provider", "channel", "outcome", ...tenant], registers: [registry] });
  const histogram = (name: string, help: string, labelNames: string[]) => new Histogram({ name: prefix + name, help, labelNames: [...labelNames, ...tenant], buckets, registers: [registry] });
  const total = histogram("tool_call_duration_seconds", "Time from a tool call's arrival to its answer, by tool, provider and channel", ["tool", "provider", "channel"]);
  const brokerOwn = histogram("tool_call_broker_duration_seconds", "A tool call's time inside the broker (total minus the upstream request), by provider and channel", ["provider", "channel"]);
  const upstream = histogram("tool_call_upstream_duration_seconds", "A tool call's upstream request time (with its retry after a refresh), by provider and channel", ["provider", "channel"]);

  /** Built-in tools by name; a tenant's own tools as `custom` (their names are unbounded); anything else `unknown`. */
  const labelsOf = (toolName: string, known: boolean) => {
    const provider = deps.builtIn.tools.get(toolName);
    if (provider !== undefined) return { tool: toolName, provider: deps.providerLabel(provider) };
    return known ? { tool: "custom", provider: "custom" } : { tool: "unknown", provider: "unknown" };
  };

  return {
    start(channel: ToolCallChannel): ToolCallTimer {
      const startedAt = performance.now();
      let labels = { tool: "unknown", provider: "unknown" };
      let tenantId = "";
      // undefined: nothing was sent; null: sent, time unknown.
      let upstreamMs: number | null | undefined;
      const finish = (outcome: ToolCallOutcome) => {
        const seconds = (performance.now() - startedAt) / 1000;
        const base = deps.tenantLabels ? { ...labels, channel, tenant: tenantId } : { ...labels, channel };
        calls.inc({ ...base, outcome });
        total.observe(base, seconds);
        if (upstreamMs === null) return;
        const split = deps.tenantLabels ? { provider: labels.provider, channel, tenant: tenantId } : { provider: labels.provider, channel };
        const upstreamSeconds = (upstreamMs ?? 0) / 1000;
        if (upstreamMs !== undefined) upstream.observe(split, upstreamSeconds);
        brokerOwn.observe(split, Math.max(0, seconds - upstreamSeconds));
      };
      return {
        named(toolName, tenant, known) {
          labels = labelsOf(toolName, known);
          tenantId = tenant;
        },
        upstream(latencyMs) {
          upstreamMs = latencyMs === null || upstreamMs === null ? null : (upstreamMs ?? 0) + latencyMs;
        },
        succeeded: (options) => finish(options?.replayed ? "replayed" : "succeeded"),
        failed: (error) => finish(toolCallOutcomeOf(error)),
      };
    },
  };
}

export type ToolCallTimers = ReturnType<typeof createToolCallTimers>;

/** Tells `timer` how the call settled (succeeded, replayed or its error), and answers as the call does. */
export function timeOutcome<T extends { replayed: boolean }>(timer: ToolCallTimer, work: Promise<T>): Promise<T> {
  return work.then(
    (result) => {
      timer.succeeded({ replayed: result.replayed });
      return result;
    },
    (error: unknown) => {
      timer.failed(error);
      throw error;
    },
  );
}
