/**
 * Issue 40, traces beyond REST: MCP tools/call joins the trace context of its `params._meta`
 * (`traceparent`, `tracestate`: MCP's convention for W3C trace context); the protobuf flavour of
 * OTLP/HTTP exports too; and with no OTEL_* configuration nothing is exported, nothing is sent on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asOperator, call } from "./support/http.js";
import { createScmTenant, decide, deleteCalls, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { connectLegacyClient, connectModernClient, type ToolCallResult } from "./support/mcp-clients.js";
import { callerTraceContext, startOtlpReceiver, tracingEnvironment, type ExportedSpan, type OtlpReceiver } from "./support/otlp-receiver.js";

const approvalIdOf = (url: string) => /\/console\/approvals\/([0-9a-f-]{36})\?/.exec(url)?.[1];

describe("traces over MCP (params._meta trace context)", () => {
  let receiver: OtlpReceiver;
  let world: ScmWorld;
  let tenant: ScmTenant;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    world = await startScmWorld("sqlite", { env: tracingEnvironment(receiver) });
    tenant = await createScmTenant(world, "Traced over MCP");
  });
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  const spansOfTrace = async (traceId: string, count: number): Promise<ExportedSpan[]> => {
    await world.broker.services.tracing.flush();
    return receiver.spansOfTrace(traceId, count);
  };

  it("a 2026-07-28 client's approved call: both rounds of tools/call join the caller's trace, the second consumes the approval and calls the upstream", async () => {
    const caller = callerTraceContext();
    const { client } = await connectModernClient(`${world.broker.url}/mcp`, tenant.token, async ({ url }) => {
      expect((await decide(world.broker, tenant, approvalIdOf(url)!, "approve")).status).toBe(200);
      return "accept";
    });
    const result = (await client.callTool({ name: "scm.delete_repository", arguments: { owner: tenant.owner, repo: "hello-world" }, _meta: { traceparent: caller.traceparent, tracestate: "agent=1" } })) as ToolCallResult;
    await client.close();
    expect(result.isError ?? false, JSON.stringify(result)).toBe(false);
    expect(deleteCalls(world, tenant, "hello-world")).toBe(1);
    const invocationId = result._meta?.["dev.toolbroker/invocation_id"];

    const spans = await spansOfTrace(caller.traceId, 10);
    const executes = spans.filter((span) => span.name === "toolbroker.execute");
    expect(executes.map((span) => span.attributes["toolbroker.outcome"])).toEqual(["approval_required", "succeeded"]);
    for (const execute of executes) {
      expect(execute.parentSpanId).toBe(caller.spanId);
      expect(execute.attributes).toMatchObject({ "toolbroker.channel": "mcp", "mcp.method.name": "tools/call", "toolbroker.invocation_id": invocationId, "toolbroker.tool": "scm.delete_repository" });
    }
    const [asked, ran] = executes as [ExportedSpan, ExportedSpan];
    const namesUnder = (parent: ExportedSpan) => spans.filter((span) => span.parentSpanId === parent.spanId).map((span) => span.name).sort();
    expect(namesUnder(asked)).toEqual(["toolbroker.approval.request", "toolbroker.policy"]);
    expect(namesUnder(ran)).toEqual(["DELETE /repos/{owner}/{repo}", "toolbroker.approval.consume", "toolbroker.policy", "toolbroker.records"]);
    const shown = await call(world.broker, "GET", `/v1/tools/invocations/${invocationId}`, { token: tenant.token });
    expect(shown.body.trace_id).toBe(caller.traceId);
  });

  it("a 2025 client's call joins the trace of its _meta too, and one without _meta starts its own", async () => {
    const caller = callerTraceContext();
    const client = await connectLegacyClient(`${world.broker.url}/mcp`, tenant.token);
    await client.callTool({ name: "scm.get_authenticated_user", arguments: {}, _meta: { traceparent: caller.traceparent } });
    const untraced = (await client.callTool({ name: "scm.get_authenticated_user", arguments: {} })) as ToolCallResult;
    await client.close();
    const [execute] = (await spansOfTrace(caller.traceId, 4)).filter((span) => span.name === "toolbroker.execute");
    expect(execute).toMatchObject({ parentSpanId: caller.spanId, attributes: { "toolbroker.channel": "mcp", "toolbroker.outcome": "succeeded" } });
    const own = await call(world.broker, "GET", `/v1/tools/invocations/${untraced._meta!["dev.toolbroker/invocation_id"]}`, { token: tenant.token });
    expect(own.body.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(own.body.trace_id).not.toBe(caller.traceId);
  });

  it("puts no token and no argument value in the exported spans", async () => {
    const upstreamToken = world.github.stats.apiCalls.find((apiCall) => apiCall.authorization)!.authorization!.replace(/^Bearer /, "");
    const exported = receiver.rawText();
    for (const secret of [upstreamToken, tenant.token, tenant.testKey, tenant.operatorToken, tenant.owner, "hello-world"]) {
      expect(exported.includes(secret), `exported spans contain ${secret.slice(0, 12)}…`).toBe(false);
    }
  });
});

describe("OTLP/HTTP protobuf export", () => {
  it("exports the call's spans as protobuf to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, with the collector's headers", async () => {
    const receiver = await startOtlpReceiver();
    const world = await startScmWorld("sqlite", {
      env: {
        ...tracingEnvironment(receiver, "http/protobuf"),
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9/unused",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
        OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=collector%20secret",
      },
    });
    try {
      const tenant = await createScmTenant(world, "Protobuf");
      const caller = callerTraceContext();
      const ran = await call(world.broker, "POST", "/v1/tools/execute", { token: tenant.token, headers: { traceparent: caller.traceparent }, body: { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: tenant.connectionId } });
      expect(ran.status, ran.text).toBe(200);
      await world.broker.services.tracing.flush();
      // An export the batch processor's timer started may still be on its way when the flush resolves.
      const names = ["toolbroker.execute", "toolbroker.policy", "toolbroker.records", "GET /user", "toolbroker-under-test"];
      const receivedBytes = () => Buffer.concat(receiver.exports.map((one) => one.body));
      for (const deadline = Date.now() + 5_000; Date.now() < deadline && !names.every((name) => receivedBytes().includes(name)); ) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(receiver.exports.length).toBeGreaterThan(0);
      for (const received of receiver.exports) {
        expect(received.contentType).toBe("application/x-protobuf");
        expect(received.headers["x-collector-key"]).toBe("collector secret");
      }
      // Protobuf keeps strings and ids as raw bytes: the span names and the caller's trace id are in the body.
      const body = receivedBytes();
      expect(body.includes(Buffer.from(caller.traceId, "hex"))).toBe(true);
      for (const name of names) expect(body.includes(name), name).toBe(true);
      expect(body.includes(tenant.token)).toBe(false);
    } finally {
      await world.close();
      await receiver.close();
    }
  });
});

describe("tracing off (no OTEL_* configuration)", () => {
  it("sends no trace context upstream even where the tenant allows it, and records no trace id", async () => {
    // Naming the service or the collector's headers is not enough: only an endpoint or OTEL_TRACES_EXPORTER=otlp turns tracing on.
    const world = await startScmWorld("sqlite", { env: { OTEL_SERVICE_NAME: "not-enough-to-turn-tracing-on", OTEL_EXPORTER_OTLP_HEADERS: "x=1" } });
    try {
      expect(world.broker.services.tracing.enabled).toBe(false);
      const tenant = await createScmTenant(world, "Untraced");
      expect((await call(world.broker, "PUT", "/v1/tracing-settings", { ...asOperator(tenant), body: { propagate_trace_context: true } })).status).toBe(200);
      const ran = await call(world.broker, "POST", "/v1/tools/execute", { token: tenant.token, headers: { traceparent: callerTraceContext().traceparent }, body: { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: tenant.connectionId } });
      expect(ran.status, ran.text).toBe(200);
      expect(world.github.stats.apiCalls.at(-1)!.headers.traceparent).toBeUndefined();
      const shown = await call(world.broker, "GET", `/v1/tools/invocations/${ran.body.invocation_id}`, { token: tenant.token });
      expect(shown.body.trace_id).toBeNull();
      const audit = await call(world.broker, "GET", "/v1/audit?action=tool.executed", asOperator(tenant));
      expect(audit.body.data[0].data).not.toHaveProperty("trace_id");
    } finally {
      await world.close();
    }
  });

  it("stays off with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, whatever endpoint is set", async () => {
    const receiver = await startOtlpReceiver();
    for (const off of [{ OTEL_SDK_DISABLED: "true" }, { OTEL_TRACES_EXPORTER: "none" }] as Record<string, string>[]) {
      const world = await startScmWorld("sqlite", { env: { ...tracingEnvironment(receiver), ...off } });
      try {
        expect(world.broker.services.tracing.enabled, JSON.stringify(off)).toBe(false);
        const tenant = await createScmTenant(world, "Disabled");
        const ran = await call(world.broker, "POST", "/v1/tools/execute", { token: tenant.token, body: { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: tenant.connectionId } });
        expect(ran.status).toBe(200);
      } finally {
        await world.close();
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(receiver.exports).toEqual([]);
    await receiver.close();
  });
});
