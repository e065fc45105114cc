/**
 * Issue 40, traces: a broker configured by OTEL_* variables exports one span tree per tool call to
 * an OTLP/HTTP receiver on loopback. The span tree of an approved call, span by span; the caller's
 * trace joined from `traceparent`; the trace id in the invocation and its audit entries; the trace
 * context passed to the upstream only when the tenant allows it; nothing secret in any span.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asOperator, call } from "./support/http.js";
import { continueInvocation, createScmTenant, decide, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { callerTraceContext, startOtlpReceiver, tracingEnvironment, type ExportedSpan, type OtlpReceiver } from "./support/otlp-receiver.js";

const SERVER = 2;
const CLIENT = 3;
const INTERNAL = 1;

describeEachDatabase("traces of tool calls (OTLP/HTTP JSON)", (kind) => {
  let receiver: OtlpReceiver;
  let world: ScmWorld;
  let tenant: ScmTenant;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    world = await startScmWorld(kind, { env: tracingEnvironment(receiver) });
    tenant = await createScmTenant(world, "Traced");
  });
  afterAll(async () => {
    await world?.close();
    await receiver?.close();
  });

  /** The spans of one trace, once the broker has exported at least `count` of them. */
  async function spansOfTrace(traceId: string, count: number): Promise<ExportedSpan[]> {
    await world.broker.services.tracing.flush();
    return receiver.spansOfTrace(traceId, count);
  }
  const only = (spans: ExportedSpan[], predicate: (span: ExportedSpan) => boolean) => {
    const found = spans.filter(predicate);
    expect(found, JSON.stringify(spans.map((span) => span.name))).toHaveLength(1);
    return found[0]!;
  };
  const childrenOf = (spans: ExportedSpan[], parent: ExportedSpan) => spans.filter((span) => span.parentSpanId === parent.spanId);
  const named = (name: string) => (span: ExportedSpan) => span.name === name;

  const executeWith = (traceparent: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    call(world.broker, "POST", "/v1/tools/execute", { token: tenant.token, headers: { traceparent, ...headers }, body });
  const deletion = (repo: string) => ({ tool_name: "scm.delete_repository", arguments: { owner: tenant.owner, repo }, connected_account_id: tenant.connectionId });

  it("exports the approved call span by span: execute → policy, approval request → records; continue → policy, approval consumption, upstream request, records", async () => {
    const caller = callerTraceContext();
    const asked = await executeWith(caller.traceparent, deletion("hello-world"));
    expectError(asked, 409, "approval_required");
    const { approval_id: approvalId, invocation_id: invocationId } = asked.body.error.details;
    expect((await decide(world.broker, tenant, approvalId, "approve")).status).toBe(200);
    const later = callerTraceContext(caller.traceId);
    const continued = await call(world.broker, "POST", `/v1/tools/invocations/${invocationId}/continue`, { token: tenant.token, headers: { traceparent: later.traceparent } });
    expect(continued.status, continued.text).toBe(200);

    const spans = await spansOfTrace(caller.traceId, 10);
    const execute = only(spans, named("toolbroker.execute"));
    expect(execute).toMatchObject({ kind: SERVER, parentSpanId: caller.spanId, resource: { "service.name": "toolbroker-under-test" } });
    expect(execute.attributes).toMatchObject({
      "toolbroker.invocation_id": invocationId,
      "toolbroker.tool": "scm.delete_repository",
      "gen_ai.tool.name": "scm.delete_repository",
      "toolbroker.provider": "scm",
      "toolbroker.channel": "rest",
      "toolbroker.tenant_id": tenant.tenantId,
      "toolbroker.agent_app_id": tenant.agentAppId,
      "toolbroker.env": "test",
      "toolbroker.outcome": "approval_required",
      "toolbroker.argument_keys": ["owner", "repo"],
      "error.type": "approval_required",
    });
    expect(execute.statusCode, "a 4xx answer is not the broker's fault").toBe(0);
    const executeChildren = childrenOf(spans, execute);
    expect(executeChildren.map((span) => span.name).sort()).toEqual(["toolbroker.approval.request", "toolbroker.policy"]);
    expect(only(executeChildren, named("toolbroker.policy")).attributes).toMatchObject({ "toolbroker.policy.effect": "require_approval" });
    const request = only(executeChildren, named("toolbroker.approval.request"));
    expect(request.attributes).toMatchObject({ "toolbroker.approval_id": approvalId });
    expect(childrenOf(spans, request).map((span) => [span.name, span.attributes["toolbroker.records.step"]])).toEqual([["toolbroker.records", "park"]]);

    const resumed = only(spans, named("toolbroker.continue"));
    expect(resumed).toMatchObject({ kind: SERVER, parentSpanId: later.spanId });
    expect(resumed.attributes).toMatchObject({ "toolbroker.invocation_id": invocationId, "toolbroker.tool": "scm.delete_repository", "toolbroker.provider": "scm", "toolbroker.outcome": "succeeded" });
    const resumedChildren = childrenOf(spans, resumed);
    expect(resumedChildren.map((span) => span.name).sort()).toEqual(["DELETE /repos/{owner}/{repo}", "toolbroker.approval.consume", "toolbroker.policy", "toolbroker.records"]);
    const consume = only(resumedChildren, named("toolbroker.approval.consume"));
    expect(consume.attributes).toMatchObject({ "toolbroker.approval_id": approvalId });
    expect(childrenOf(spans, consume).map((span) => span.attributes["toolbroker.records.step"])).toEqual(["start"]);
    expect(only(resumedChildren, named("toolbroker.records")).attributes).toMatchObject({ "toolbroker.records.step": "finish" });

    const upstream = only(resumedChildren, named("DELETE /repos/{owner}/{repo}"));
    const github = new URL(world.github.url);
    expect(upstream.kind).toBe(CLIENT);
    expect(upstream.attributes).toEqual({
      "http.request.method": "DELETE",
      "server.address": "127.0.0.1",
      "server.port": Number(github.port),
      "url.full": `${github.origin}/repos/{owner}/{repo}`,
      "url.template": "/repos/{owner}/{repo}",
      "http.response.status_code": 204,
      "toolbroker.trace_context_sent": false,
    });
    expect(spans.every((span) => span.kind === SERVER || span.kind === CLIENT || span.kind === INTERNAL)).toBe(true);
  });

  it("keeps the trace id in the invocation and in its audit entries, and the audit chain stays valid", async () => {
    const caller = callerTraceContext();
    const asked = await executeWith(caller.traceparent, deletion("spoon-knife"));
    const { approval_id: approvalId, invocation_id: invocationId } = asked.body.error.details;
    await decide(world.broker, tenant, approvalId, "approve");
    const resumed = callerTraceContext();
    expect((await call(world.broker, "POST", `/v1/tools/invocations/${invocationId}/continue`, { token: tenant.token, headers: { traceparent: resumed.traceparent } })).status).toBe(200);

    const shown = await call(world.broker, "GET", `/v1/tools/invocations/${invocationId}`, { token: tenant.token });
    expect(shown.body).toMatchObject({ invocation_id: invocationId, status: "succeeded", trace_id: caller.traceId });
    const audit = await call(world.broker, "GET", "/v1/audit?tool=scm.delete_repository&limit=200", asOperator(tenant));
    expect(audit.status, audit.text).toBe(200);
    const entries = (audit.body.data as { action: string; target: { id: string } | null; data: { trace_id?: string } }[]).filter((entry) => entry.target?.id === invocationId);
    const traces = Object.fromEntries(entries.map((entry) => [entry.action, entry.data.trace_id]));
    // Each entry carries the trace of the request that wrote it: the ask, then the continue.
    expect(traces).toEqual({ "tool.approval_requested": caller.traceId, "tool.executed": resumed.traceId });
    expect(await world.broker.services.audit.verify(tenant.tenantId)).toMatchObject({ ok: true });
    const spans = await spansOfTrace(resumed.traceId, 6);
    expect(only(spans, named("toolbroker.continue")).attributes["toolbroker.invocation_id"]).toBe(invocationId);
  });

  it("starts a trace of its own for a request without traceparent, and ignores a malformed one", async () => {
    const before = new Set(receiver.spans().map((span) => span.traceId));
    const plain = await call(world.broker, "POST", "/v1/tools/execute", { token: tenant.token, headers: { traceparent: "00-not-a-trace-01" }, body: { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: tenant.connectionId } });
    expect(plain.status, plain.text).toBe(200);
    const shown = await call(world.broker, "GET", `/v1/tools/invocations/${plain.body.invocation_id}`, { token: tenant.token });
    expect(shown.body.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(before.has(shown.body.trace_id)).toBe(false);
    const execute = only(await spansOfTrace(shown.body.trace_id, 4), named("toolbroker.execute"));
    expect(execute.parentSpanId).toBe("");
    expect(execute.attributes).toMatchObject({ "toolbroker.outcome": "succeeded", "toolbroker.argument_keys": [] });
  });

  it("re-executing with approval_id is one execute span with the approval's consumption, the upstream request and the records", async () => {
    const caller = callerTraceContext();
    const asked = await executeWith(caller.traceparent, deletion("private-notes"));
    const { approval_id: approvalId, invocation_id: invocationId } = asked.body.error.details;
    await decide(world.broker, tenant, approvalId, "approve");
    const again = callerTraceContext(caller.traceId);
    const ran = await executeWith(again.traceparent, { ...deletion("private-notes"), approval_id: approvalId });
    expect(ran.status, ran.text).toBe(200);
    const spans = await spansOfTrace(caller.traceId, 10);
    const reexecute = only(spans, (span) => span.name === "toolbroker.execute" && span.parentSpanId === again.spanId);
    expect(reexecute.attributes).toMatchObject({ "toolbroker.invocation_id": invocationId, "toolbroker.outcome": "succeeded" });
    expect(childrenOf(spans, reexecute).map((span) => span.name).sort()).toEqual(["DELETE /repos/{owner}/{repo}", "toolbroker.approval.consume", "toolbroker.policy", "toolbroker.records"]);
  });

  describe("the trace context at the upstream (GET/PUT /v1/tracing-settings)", () => {
    const whoAmI = (traceparent: string) =>
      executeWith(traceparent, { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: tenant.connectionId }, { tracestate: "caller=abc" });
    const lastUpstreamHeaders = () => world.github.stats.apiCalls.at(-1)!.headers;

    it("is off by default: the upstream gets no traceparent although the caller sent one", async () => {
      const settings = await call(world.broker, "GET", "/v1/tracing-settings", asOperator(tenant));
      expect(settings.body).toEqual({ propagate_trace_context: false, updated_at: null, updated_by: null });
      expect((await whoAmI(callerTraceContext().traceparent)).status).toBe(200);
      expect(lastUpstreamHeaders()).toMatchObject({ traceparent: undefined, tracestate: undefined });
    });

    it("once an admin turns it on, sends the upstream request span's traceparent and the caller's tracestate", async () => {
      const put = await call(world.broker, "PUT", "/v1/tracing-settings", { ...asOperator(tenant), body: { propagate_trace_context: true } });
      expect(put.status, put.text).toBe(200);
      expect(put.body).toMatchObject({ propagate_trace_context: true, updated_by: expect.stringContaining(tenant.operatorSubject) });
      const caller = callerTraceContext();
      expect((await whoAmI(caller.traceparent)).status).toBe(200);
      const upstream = only(await spansOfTrace(caller.traceId, 4), (span) => span.kind === CLIENT);
      expect(lastUpstreamHeaders()).toMatchObject({ traceparent: `00-${caller.traceId}-${upstream.spanId}-01`, tracestate: "caller=abc" });
      expect(upstream.attributes["toolbroker.trace_context_sent"]).toBe(true);

      const [entry] = (await call(world.broker, "GET", "/v1/audit?action=tracing_settings.updated", asOperator(tenant))).body.data;
      expect(entry).toMatchObject({ action: "tracing_settings.updated", data: { propagate_trace_context: true } });
      expect((await call(world.broker, "PUT", "/v1/tracing-settings", { ...asOperator(tenant), body: { propagate_trace_context: false } })).status).toBe(200);
      expect((await whoAmI(callerTraceContext().traceparent)).status).toBe(200);
      expect(lastUpstreamHeaders().traceparent).toBeUndefined();
    });

    it("is another tenant's own: one tenant's setting never sends another's trace context", async () => {
      const other = await createScmTenant(world, "Other");
      expect((await call(world.broker, "PUT", "/v1/tracing-settings", { ...asOperator(other), body: { propagate_trace_context: true } })).status).toBe(200);
      expect((await call(world.broker, "GET", "/v1/tracing-settings", asOperator(tenant))).body.propagate_trace_context).toBe(false);
      expect((await whoAmI(callerTraceContext().traceparent)).status).toBe(200);
      expect(lastUpstreamHeaders().traceparent).toBeUndefined();
    });

    it("refuses agents, control keys and bad bodies before anything is stored", async () => {
      expectError(await call(world.broker, "GET", "/v1/tracing-settings", { token: tenant.token }), 401, "unauthorized");
      expectError(await call(world.broker, "PUT", "/v1/tracing-settings", { token: tenant.testKey, body: { propagate_trace_context: true } }), 401, "unauthorized");
      expectError(await call(world.broker, "PUT", "/v1/tracing-settings", { ...asOperator(tenant), body: { propagate_trace_context: "yes" } }), 400, "invalid_request");
      expectError(await call(world.broker, "PUT", "/v1/tracing-settings", { ...asOperator(tenant), body: { propagate_trace_context: true, extra: 1 } }), 400, "invalid_request");
      expect((await call(world.broker, "GET", "/v1/tracing-settings", asOperator(tenant))).body.propagate_trace_context).toBe(false);
    });
  });

  it("never puts a credential, a token or an argument value in any exported span", async () => {
    const token = world.github.stats.apiCalls.find((apiCall) => apiCall.authorization)!.authorization!.replace(/^Bearer /, "");
    const exported = receiver.rawText();
    expect(exported.length).toBeGreaterThan(1000);
    for (const secret of [token, tenant.token, tenant.testKey, tenant.liveKey, tenant.operatorToken, tenant.owner, "hello-world", "spoon-knife", "private-notes"]) {
      expect(exported.includes(secret), `exported spans contain ${secret.slice(0, 12)}…`).toBe(false);
    }
  });
});
