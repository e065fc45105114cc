/**
 * Issue 40, metrics: GET /metrics counts what the broker did — tool calls by tool, provider,
 * channel and outcome, the broker's and the upstream's time apart, policy decisions, approvals,
 * token refreshes, upstream errors by kind, rate-limit refusals, HTTP requests by route pattern —
 * and never shows a token, an argument value, a tenant or end-user id.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { continueInvocation, decide, putPolicy, requestApproval } from "./support/approvals.js";
import { connectThroughBrowser } from "./support/connect.js";
import { executeTool, startConnectionsWorld, type ConnectionsWorld } from "./support/connections.js";
import { describeEachDatabase } from "./support/databases.js";
import { call, mintBrokerToken } from "./support/http.js";
import { connectLegacyClient } from "./support/mcp-clients.js";
import { parseSamples, scrape, sumOf, type Sample } from "./support/metrics.js";
import { startWebhookReceiver, type WebhookReceiver } from "./support/webhook-receiver.js";
import { registerEndpoint } from "./support/webhooks.js";

describeEachDatabase("GET /metrics after real traffic", (kind) => {
  const clock = manualClock();
  let world: ConnectionsWorld;
  let jwt: string;
  let laterJwt: string;
  let connectionId: string;
  let receiver: WebhookReceiver;
  let webhookSecret: string;
  let scraped: { status: number; text: string; contentType: string | null };
  let samples: Sample[];
  const argumentCanary = `canary-${randomBytes(6).toString("hex")}`;
  const endUserId = `end-user-${randomBytes(6).toString("hex")}`;
  const invocationIds: string[] = [];

  const run = async (body: Record<string, unknown>, token = jwt) => {
    const result = await executeTool(world.broker, world.tenant, { connected_account_id: connectionId, ...body }, token);
    const id = result.body?.invocation_id ?? result.body?.error?.details?.invocation_id;
    if (id) invocationIds.push(id);
    return result;
  };

  beforeAll(async () => {
    world = await startConnectionsWorld(kind, { clock, env: { BROKER_RATE_LIMIT_TOKEN: "3" } });
    world.fakes.github.echoCredentials(true);
    connectionId = (await connectThroughBrowser(world.broker, world.tenant, "scm")).callback.body.connected_account_id;
    jwt = await mintBrokerToken(world.broker, world.tenant);
    await putPolicy(world.broker, world.tenant, [{ id: "no-listing", effect: "deny", tools: ["scm.list_repositories"] }]);
    receiver = await startWebhookReceiver();
    webhookSecret = (await registerEndpoint(world.broker, world.tenant, { url: receiver.url, events: ["approval.requested"] })).secret;

    for (let i = 0; i < 3; i += 1) expect((await run({ tool_name: "scm.get_authenticated_user" })).status).toBe(200);
    expect((await run({ tool_name: "scm.get_repository", arguments: { owner: "octocat", repo: argumentCanary } })).status).toBe(502);
    world.fakes.github.failNext(1, { status: 503, body: { message: "down for maintenance" } });
    expect((await run({ tool_name: "scm.get_authenticated_user" })).status).toBe(502);
    expect((await run({ tool_name: "scm.list_repositories" })).status).toBe(403);
    expect((await run({ tool_name: "nothing.like_this" })).status).toBe(404);
    // A control key acting for an end user (the shared connection serves them): their id must not become a label.
    const asEndUser = await call(world.broker, "POST", "/v1/tools/execute", {
      token: world.tenant.testKey,
      body: { tool_name: "scm.get_authenticated_user", arguments: {}, agent_app_id: world.tenant.agentAppId, end_user_id: endUserId },
    });
    expect(asEndUser.status).toBe(200);

    const pending = await requestApproval(world.broker, { token: jwt, tool: "scm.delete_repository", args: { owner: "octocat", repo: "spoon-knife" }, connectionId });
    invocationIds.push(pending.invocation_id);
    expect((await decide(world.broker, world.tenant, pending.approval_id, "approve")).status).toBe(200);
    expect((await continueInvocation(world.broker, jwt, pending.invocation_id)).status).toBe(200);
    await receiver.waitFor(1);

    const mcp = await connectLegacyClient(`${world.broker.url}/mcp`, jwt);
    await mcp.callTool({ name: "scm.get_authenticated_user", arguments: {} });
    await mcp.close();

    // Tokens due: the next call refreshes them first.
    clock.advance(2 * 3600_000);
    laterJwt = await mintBrokerToken(world.broker, world.tenant);
    expect((await run({ tool_name: "scm.get_authenticated_user" }, laterJwt)).status).toBe(200);

    // BROKER_RATE_LIMIT_TOKEN=3: two mints were made above, the fourth is refused.
    const mints = [];
    for (let i = 0; i < 2; i += 1) mints.push((await call(world.broker, "POST", "/v1/broker/token", { token: world.tenant.testKey, body: { agent_app_id: world.tenant.agentAppId, env: "test" } })).status);
    expect(mints).toEqual([200, 429]);

    // The delivery's attempt is recorded right after the receiver answered it.
    for (let tries = 0; tries < 50; tries += 1) {
      scraped = await scrape(world.broker.url);
      samples = parseSamples(scraped.text);
      if (sumOf(samples, "toolbroker_webhook_delivery_attempts_total") > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }, 90_000);
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  it("answers the Prometheus text format, open outside production", () => {
    expect(scraped.status).toBe(200);
    expect(scraped.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(scraped.text).toContain("# TYPE toolbroker_tool_calls_total counter");
  });

  it("counts tool calls by tool, provider, channel and outcome", () => {
    const calls = (labels: Record<string, string>) => sumOf(samples, "toolbroker_tool_calls_total", labels);
    expect(calls({ tool: "scm.get_authenticated_user", provider: "scm", channel: "rest", outcome: "succeeded" })).toBe(5);
    expect(calls({ tool: "scm.get_authenticated_user", channel: "rest", outcome: "upstream_error" })).toBe(1);
    expect(calls({ tool: "scm.get_repository", outcome: "upstream_error" })).toBe(1);
    expect(calls({ tool: "scm.list_repositories", outcome: "policy_denied" })).toBe(1);
    expect(calls({ tool: "unknown", provider: "unknown", outcome: "rejected" })).toBe(1);
    expect(calls({ tool: "scm.delete_repository", outcome: "approval_required" })).toBe(1);
    expect(calls({ tool: "scm.delete_repository", outcome: "succeeded" })).toBe(1);
    expect(calls({ tool: "scm.get_authenticated_user", channel: "mcp", outcome: "succeeded" })).toBe(1);
  });

  it("times the broker and the upstream apart", () => {
    const count = (name: string, labels: Record<string, string>) => sumOf(samples, `${name}_count`, labels);
    expect(count("toolbroker_tool_call_duration_seconds", { tool: "scm.get_authenticated_user", channel: "rest" })).toBe(6);
    // The upstream answered every call that reached it: 5 + 1 (503) + 1 (404) + the approved deletion on rest.
    expect(count("toolbroker_tool_call_upstream_duration_seconds", { provider: "scm", channel: "rest" })).toBe(8);
    // The broker's own time also covers the calls that never left (denied, waiting for approval).
    expect(count("toolbroker_tool_call_broker_duration_seconds", { provider: "scm", channel: "rest" })).toBe(10);
    const upstreamSum = sumOf(samples, "toolbroker_tool_call_upstream_duration_seconds_sum", { provider: "scm", channel: "rest" });
    const totalSum = sumOf(samples, "toolbroker_tool_call_duration_seconds_sum", { provider: "scm", channel: "rest" });
    expect(upstreamSum).toBeGreaterThan(0);
    expect(totalSum).toBeGreaterThan(upstreamSum);
  });

  it("counts policy decisions, approvals, refreshes, upstream errors by kind and rate-limit refusals", () => {
    expect(sumOf(samples, "toolbroker_policy_decisions_total", { decision: "deny" })).toBe(1);
    expect(sumOf(samples, "toolbroker_policy_decisions_total", { decision: "require_approval" })).toBe(1);
    expect(sumOf(samples, "toolbroker_policy_decisions_total", { decision: "allow" })).toBeGreaterThanOrEqual(7);
    expect(sumOf(samples, "toolbroker_approvals_requested_total")).toBe(1);
    expect(sumOf(samples, "toolbroker_approvals_decided_total", { decision: "approved" })).toBe(1);
    expect(sumOf(samples, "toolbroker_approvals_pending")).toBe(0);
    expect(sumOf(samples, "toolbroker_token_refreshes_total", { provider: "scm", outcome: "succeeded" })).toBe(1);
    expect(sumOf(samples, "toolbroker_upstream_errors_total", { provider: "scm", kind: "status_5xx" })).toBe(1);
    expect(sumOf(samples, "toolbroker_upstream_errors_total", { provider: "scm", kind: "status_4xx" })).toBe(1);
    expect(sumOf(samples, "toolbroker_rate_limited_total", { limit: "token" })).toBe(1);
    expect(sumOf(samples, "toolbroker_metrics_reading_ok", { reading: "approvals_pending" })).toBe(1);
    expect(sumOf(samples, "toolbroker_webhook_delivery_attempts_total", { outcome: "succeeded" })).toBe(1);
    expect(sumOf(samples, "toolbroker_webhook_deliveries_pending")).toBe(0);
  });

  it("labels HTTP requests by route pattern, never by path", () => {
    expect(sumOf(samples, "toolbroker_http_requests_total", { method: "POST", route: "/v1/tools/execute", status_code: "200" })).toBeGreaterThanOrEqual(5);
    expect(sumOf(samples, "toolbroker_http_requests_total", { route: "/v1/tools/invocations/:id/continue" })).toBe(1);
    const routes = new Set(samples.filter((s) => s.name === "toolbroker_http_requests_total").map((s) => s.labels.route));
    for (const route of routes) expect(route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}/);
  });

  it("shows the PostgreSQL pool, and nothing of a pool on SQLite", () => {
    const pool = samples.filter((sample) => sample.name === "toolbroker_db_pool_connections");
    if (kind === "sqlite") {
      expect(pool).toEqual([]);
      return;
    }
    expect(sumOf(samples, "toolbroker_db_pool_connections", { state: "total" })).toBeGreaterThan(0);
    expect(samples.some((sample) => sample.name === "toolbroker_db_pool_waiting_requests")).toBe(true);
  });

  it("shows Node's own metrics with the prefix, event-loop lag included", () => {
    expect(samples.some((s) => s.name === "toolbroker_nodejs_eventloop_lag_seconds")).toBe(true);
    expect(samples.some((s) => s.name === "toolbroker_process_resident_memory_bytes")).toBe(true);
  });

  it("shows no token, argument value, tenant, end-user or invocation id", () => {
    const secrets = [
      ...world.fakes.github.issuedSecrets(),
      world.fakes.github.clientSecret,
      jwt,
      laterJwt,
      world.tenant.testKey,
      world.tenant.liveKey,
      world.tenant.operatorToken,
      webhookSecret,
    ];
    expect(secrets.length).toBeGreaterThan(6);
    for (const secret of secrets) expect(scraped.text.includes(secret), secret.slice(0, 8)).toBe(false);
    for (const id of [world.tenant.tenantId, world.tenant.agentAppId, endUserId, connectionId, argumentCanary, ...invocationIds]) {
      expect(scraped.text.includes(id), id).toBe(false);
    }
    expect(invocationIds.length).toBeGreaterThan(5);
  });
});
