/**
 * The broker's Prometheus metrics, registered on a `Registry` of their own per app (tests build
 * several apps in one process). Every recording call is synchronous and touches memory only: the
 * hot path pays a few counter and histogram updates, never a query or an await. What the database
 * knows (pending approvals, webhook backlog, pool use) is read when Prometheus scrapes
 * (observability/metrics-readings.ts).
 *
 * Labels stay bounded: tool and provider labels name built-in tools and providers only (a tenant's
 * own are `custom`, a name that resolves to nothing is `unknown`), outcomes and kinds are fixed
 * sets, and no tenant, end user, invocation or argument appears unless the operator turns the
 * `tenant` label on (BROKER_METRICS_TENANT_LABELS), and then only on the tool-call metrics.
 */
import { collectDefaultMetrics, Counter, Histogram, Registry } from "prom-client";
import { createToolCallTimers, type BuiltInNames, type ToolCallTimers } from "./metrics-tool-calls.js";

export type { BuiltInNames, ToolCallTimer } from "./metrics-tool-calls.js";
export { timeOutcome } from "./metrics-tool-calls.js";

export const METRIC_PREFIX = "toolbroker_";

/** Seconds; from a cached lookup (a millisecond) to an upstream that takes its whole timeout. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type PolicyEffect = "allow" | "deny" | "require_approval";
export type UpstreamErrorKind = "timeout" | "connection" | "refused" | "status_4xx" | "status_5xx" | "bad_response" | "too_large" | "other";
/**
 * Prometheus metrics: `port` set means their own listener (on `host`) and none on the main port;
 * `token` guards the main port's /metrics in production; `tenantLabels` adds a tenant label to
 * the tool-call metrics.
 */
export type MetricsConfig = { enabled: boolean; port: number | undefined; host: string; token: string | undefined; tenantLabels: boolean };

export type WebhookAttemptOutcome = "succeeded" | "retrying" | "failed";


export type MetricsOptions = {
  enabled: boolean;
  tenantLabels: boolean;
  builtIn: BuiltInNames;
};

/** The recording side: what the services call. A disabled set has the same calls, doing nothing. */
export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(options: MetricsOptions) {
  const registry = new Registry();
  const { builtIn } = options;
  const providerLabel = (provider: string | null | undefined) => (provider ? (builtIn.providers.has(provider) ? provider : "custom") : "none");
  const counter = (name: string, help: string, labelNames: readonly string[] = []) => new Counter({ name: METRIC_PREFIX + name, help, labelNames, registers: [registry] });
  const histogram = (name: string, help: string, labelNames: readonly string[]) =>
    new Histogram({ name: METRIC_PREFIX + name, help, labelNames, buckets: LATENCY_BUCKETS, registers: [registry] });

  const httpRequests = counter("http_requests_total", "HTTP requests answered, by route pattern, method and status code", ["method", "route", "status_code"]);
  const httpDuration = histogram("http_request_duration_seconds", "Time to answer an HTTP request, by route pattern and method", ["method", "route"]);
  const policyDecisions = counter("policy_decisions_total", "The policy's decision on each tool call as it arrives at execute, by decision", ["decision"]);
  const approvalsRequested = counter("approvals_requested_total", "Approvals asked for (a call parked until a person decides)");
  const approvalsDecided = counter("approvals_decided_total", "Approvals decided for good, by decision", ["decision"]);
  const approvalsExpired = counter("approvals_expired_total", "Approvals that expired undecided");
  const tokenRefreshes = counter("token_refreshes_total", "OAuth token refreshes at a provider's token endpoint, by provider and outcome", ["provider", "outcome"]);
  const upstreamErrors = counter("upstream_errors_total", "Tool calls the provider's API failed, by provider and kind", ["provider", "kind"]);
  const rateLimited = counter("rate_limited_total", "Requests refused by a rate limit, by limit", ["limit"]);
  const webhookAttempts = counter("webhook_delivery_attempts_total", "Webhook delivery attempts, by outcome (retrying: failed, tried again later)", ["outcome"]);
  const toolCalls = createToolCallTimers({ registry, prefix: METRIC_PREFIX, buckets: LATENCY_BUCKETS, tenantLabels: options.tenantLabels, builtIn, providerLabel });
  if (options.enabled) collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });

  const live = {
    enabled: true,
    registry,
    /** `route` is the route's pattern (`/v1/tools/invocations/:id/continue`), or `unmatched`. */
    httpRequest(method: string, route: string, statusCode: number, seconds: number) {
      httpRequests.inc({ method, route, status_code: statusCode });
      httpDuration.observe({ method, route }, seconds);
    },
    /** A timer for one tool call from its arrival; see metrics-tool-calls.ts. */
    startToolCall: toolCalls.start,
    policyDecision: (effect: PolicyEffect) => policyDecisions.inc({ decision: effect }),
    approvalRequested: () => approvalsRequested.inc(),
    approvalDecided: (decision: "approved" | "denied") => approvalsDecided.inc({ decision }),
    approvalsExpired: (count: number) => {
      if (count > 0) approvalsExpired.inc(count);
    },
    tokenRefresh: (provider: string, outcome: "succeeded" | "failed") => tokenRefreshes.inc({ provider: providerLabel(provider), outcome }),
    upstreamError: (provider: string, kind: UpstreamErrorKind) => upstreamErrors.inc({ provider: providerLabel(provider), kind }),
    rateLimited: (limit: string) => rateLimited.inc({ limit }),
    webhookAttempt: (outcome: WebhookAttemptOutcome) => webhookAttempts.inc({ outcome }),
  };
  return options.enabled ? live : disabledLike(live, registry);
}

/** The same calls doing nothing (BROKER_METRICS=off): nothing is registered that a scrape could show. */
function disabledLike<T extends { enabled: boolean; registry: Registry; startToolCall: ToolCallTimers["start"] }>(live: T, registry: Registry): T {
  registry.clear();
  const noop = () => {};
  const stopped = Object.fromEntries(Object.keys(live).map((key) => [key, noop])) as unknown as T;
  return { ...stopped, enabled: false, registry, startToolCall: () => DISABLED_TIMER };
}

const DISABLED_TIMER: ReturnType<ToolCallTimers["start"]> = { named: () => {}, upstream: () => {}, succeeded: () => {}, failed: () => {} };

/** Built-in tool → provider and the built-in provider ids, from the built-in catalogue. */
export function builtInNamesOf(catalogue: { tools(): readonly { tool: { name: string }; provider: { id: string } }[]; list(): readonly { id: string }[] }): BuiltInNames {
  return {
    tools: new Map(catalogue.tools().map(({ tool, provider }) => [tool.name, provider.id])),
    providers: new Set(catalogue.list().map((provider) => provider.id)),
  };
}
