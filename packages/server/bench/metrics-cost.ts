/**
 * What recording one tool call's metrics costs, apart from everything else the broker does: the
 * calls execute makes (a timer, the tool's labels, the policy decision, the upstream time, the
 * outcome) and the HTTP request's, in a loop, CPU time per call with metrics on and off, alternated.
 * `node --import tsx bench/metrics-cost.ts` (a few seconds; no server, no database).
 */
import { createMetrics } from "../src/observability/metrics.js";

const builtIn = { tools: new Map([["scm.get_authenticated_user", "scm"]]), providers: new Set(["scm"]) };
const CALLS = 300_000;

function cpuMicrosPerCall(enabled: boolean): number {
  const metrics = createMetrics({ enabled, tenantLabels: false, builtIn });
  const recordOneCall = () => {
    const timer = metrics.startToolCall("rest");
    timer.named("scm.get_authenticated_user", "tenant", true);
    metrics.policyDecision("allow");
    timer.upstream(3);
    timer.succeeded();
    metrics.httpRequest("POST", "/v1/tools/execute", 200, 0.004);
  };
  for (let i = 0; i < CALLS / 6; i++) recordOneCall();
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) recordOneCall();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / CALLS;
}

for (const enabled of [true, false, true, false]) {
  process.stdout.write(`metrics ${enabled ? "on " : "off"}: ${cpuMicrosPerCall(enabled).toFixed(2)} µs CPU per call\n`);
}
