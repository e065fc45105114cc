/**
 * Every execute attempt that reaches the pipeline, allowed or not, leaves one invocation row and
 * one audit event (who, agent app, env, tool, handle, outcome, error code, upstream status,
 * latency). Agents read their own invocations back; operators page through the audit log.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { createTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { connect, execute, secondAgentApp, startToolWorld, tenantRows, type ExecuteRequest, type ToolWorld } from "./support/tool-execution.js";

type AuditEvent = { id: string; seq: number; occurred_at: string; actor: { type: string; id: string }; action: string; target: { type: string; id: string } | null; outcome: string; agent_app_id: string | null; tool_name: string | null; data: Record<string, any> };

describeEachDatabase("invocations and the audit log of execute", (kind) => {
  const clock = manualClock(new Date());
  let world: ToolWorld;
  let scm: string;
  let chat: string;

  beforeAll(async () => {
    world = await startToolWorld(kind, { clock });
    [scm, chat] = [await connect(world, "scm"), await connect(world, "chat")];
  });
  afterAll(() => world.close());

  const audit = async (query = "") => (await call(world.broker, "GET", `/v1/audit${query}`, asOperator(world.tenant))).body as { data: AuditEvent[]; next_cursor: string | null };
  const eventFor = async (invocationId: string) => (await audit("?limit=200")).data.filter((e) => e.target?.id === invocationId);
  const counts = async () => ({
    invocations: (await tenantRows(world.broker, "invocations", world.tenant.tenantId)).length,
    events: (await tenantRows(world.broker, "audit_events", world.tenant.tenantId)).filter((e) => e.action.startsWith("tool.")).length,
  });

  it("records a succeeded call as an invocation and a tool.executed event naming who, what and how it went", async () => {
    const result = await execute(world.broker, world.jwt, { tool_name: "scm.get_repository", arguments: { owner: "octocat", repo: "hello-world" }, connected_account_id: scm });
    expect(result.status).toBe(200);
    const [event, ...more] = await eventFor(result.body.invocation_id);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      actor: { type: "agent_app", id: world.tenant.agentAppId },
      action: "tool.executed",
      target: { type: "invocation", id: result.body.invocation_id },
      outcome: "success",
      agent_app_id: world.tenant.agentAppId,
      tool_name: "scm.get_repository",
      data: { env: "test", status: "succeeded", connected_account_id: scm, secret_item_id: null, error_code: null, upstream_status: 200, arguments: { owner: "octocat", repo: "hello-world" } },
    });
    expect(event!.data.latency_ms).toBeGreaterThanOrEqual(0);
    const row = (await tenantRows(world.broker, "invocations", world.tenant.tenantId)).find((r) => r.id === result.body.invocation_id);
    expect(row).toMatchObject({ status: "succeeded", tool_name: "scm.get_repository", provider: "scm", env: "test", agent_app_id: world.tenant.agentAppId, connection_id: scm, upstream_status: 200 });
  });

  it("records a control key's call with the control key as actor and the named agent app", async () => {
    const result = await execute(world.broker, world.tenant.testKey, { tool_name: "scm.get_authenticated_user", connected_account_id: scm, agent_app_id: world.tenant.agentAppId });
    const [event] = await eventFor(result.body.invocation_id);
    expect(event!.actor.type).toBe("control_key");
    expect(event!.agent_app_id).toBe(world.tenant.agentAppId);
  });

  const refusals: [string, ExecuteRequest | (() => ExecuteRequest), { status: string; outcome: string; error_code: string; action?: string }][] = [
    ["an unknown tool", { tool_name: "scm.nope" }, { status: "rejected", outcome: "failure", error_code: "not_found" }],
    ["invalid arguments", { tool_name: "scm.get_repository", arguments: { owner: "octocat" } }, { status: "rejected", outcome: "failure", error_code: "invalid_tool_args" }],
    ["a missing handle (no tracker account is connected)", { tool_name: "tracker.list_issues" }, { status: "rejected", outcome: "failure", error_code: "credential_required" }],
    ["a handle of another provider", () => ({ tool_name: "scm.get_authenticated_user", connected_account_id: chat }), { status: "rejected", outcome: "failure", error_code: "credential_mismatch" }],
    ["a high-risk tool awaiting approval", () => ({ tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "spoon-knife" }, connected_account_id: scm }), { status: "awaiting_approval", outcome: "success", error_code: "approval_required", action: "tool.approval_requested" }],
  ];
  for (const [name, request, expected] of refusals) {
    it(`records a call refused for ${name}: one invocation row and one audit event, error code ${expected.error_code}`, async () => {
      const before = await counts();
      const result = await execute(world.broker, world.jwt, typeof request === "function" ? request() : request);
      expect(result.body.error.code).toBe(expected.error_code);
      expect(await counts()).toEqual({ invocations: before.invocations + 1, events: before.events + 1 });
      const [latest] = (await audit("?limit=1")).data;
      expect(latest).toMatchObject({ action: expected.action ?? "tool.executed", outcome: expected.outcome, agent_app_id: world.tenant.agentAppId, data: { status: expected.status, error_code: expected.error_code, upstream_status: null } });
    });
  }

  it("records a policy denial with outcome denied", async () => {
    await call(world.broker, "PUT", "/v1/policy", { ...asOperator(world.tenant), body: { env: "test", rules: [{ id: "read-only-chat", effect: "deny", tools: ["chat.post_message"] }] } });
    const result = await execute(world.broker, world.jwt, { tool_name: "chat.post_message", arguments: { channel: "general", text: "x" }, connected_account_id: chat });
    expectError(result, 403, "policy_denied");
    const [latest] = (await audit("?limit=1")).data;
    expect(latest).toMatchObject({ action: "tool.executed", outcome: "denied", tool_name: "chat.post_message", data: { status: "denied", error_code: "policy_denied" } });
    await call(world.broker, "PUT", "/v1/policy", { ...asOperator(world.tenant), body: { env: "test", rules: [] } });
  });

  it("records an upstream failure with the upstream status", async () => {
    world.fakes.github.failNext(1, { status: 503, body: { message: "down" } });
    const result = await execute(world.broker, world.jwt, { tool_name: "scm.get_authenticated_user", connected_account_id: scm });
    const [event] = await eventFor(result.body.error.details.invocation_id);
    expect(event).toMatchObject({ outcome: "failure", data: { status: "failed", error_code: "upstream_error", upstream_status: 503 } });
  });

  it("lets the same agent app read an invocation back: status and the scrubbed result", async () => {
    const executed = await execute(world.broker, world.jwt, { tool_name: "chat.list_channels", arguments: { limit: 1 }, connected_account_id: chat });
    const read = await call(world.broker, "GET", `/v1/tools/invocations/${executed.body.invocation_id}`, { token: world.jwt });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ invocation_id: executed.body.invocation_id, status: "succeeded", tool_name: "chat.list_channels", env: "test", agent_app_id: world.tenant.agentAppId, connected_account_id: chat, error_code: null, upstream_status: 200 });
    expect(read.body.result).toEqual(executed.body.result);
    const byKey = await call(world.broker, "GET", `/v1/tools/invocations/${executed.body.invocation_id}`, { token: world.tenant.testKey });
    expect(byKey.body.result).toEqual(executed.body.result);
  });

  it("shows a failed invocation's error envelope", async () => {
    world.fakes.github.failNext(1, { status: 500, body: { message: "boom" } });
    const failed = await execute(world.broker, world.jwt, { tool_name: "scm.get_authenticated_user", connected_account_id: scm });
    const read = await call(world.broker, "GET", `/v1/tools/invocations/${failed.body.error.details.invocation_id}`, { token: world.jwt });
    expect(read.body).toMatchObject({ status: "failed", error_code: "upstream_error", upstream_status: 500, error: { code: "upstream_error", details: { upstream_status: 500 } } });
  });

  it("answers 404 for another agent app's invocation, another env's, another tenant's and an unknown id", async () => {
    const executed = await execute(world.broker, world.jwt, { tool_name: "scm.get_authenticated_user", connected_account_id: scm });
    const path = `/v1/tools/invocations/${executed.body.invocation_id}`;
    const other = await secondAgentApp(world);
    expectError(await call(world.broker, "GET", path, { token: other.jwt }), 404, "not_found");
    expectError(await call(world.broker, "GET", path, { token: await mintBrokerToken(world.broker, world.tenant, "live") }), 404, "not_found");
    expectError(await call(world.broker, "GET", path, { token: world.tenant.liveKey }), 404, "not_found");
    const stranger = await createTenant(world.broker, "Initech");
    expectError(await call(world.broker, "GET", path, { token: await mintBrokerToken(world.broker, stranger) }), 404, "not_found");
    expectError(await call(world.broker, "GET", path, { token: stranger.testKey }), 404, "not_found");
    expectError(await call(world.broker, "GET", "/v1/tools/invocations/00000000-0000-4000-8000-000000000000", { token: world.jwt }), 404, "not_found");
    expectError(await call(world.broker, "GET", path, asOperator(world.tenant)), 401, "unauthorized");
  });

  it("lists audit events to operators only", async () => {
    expectError(await call(world.broker, "GET", "/v1/audit", { token: world.jwt }), 401, "unauthorized");
    expectError(await call(world.broker, "GET", "/v1/audit", { token: world.tenant.testKey }), 401, "unauthorized");
  });

  it("filters the audit log by agent app, tool, outcome and time", async () => {
    // Past the first broker JWT (15 min), well inside the operator token (1 h from real time).
    clock.advance(20 * 60_000);
    const since = clock.now().toISOString();
    const other = await secondAgentApp(world);
    const jwt = await mintBrokerToken(world.broker, world.tenant);
    const mine = await execute(world.broker, jwt, { tool_name: "chat.list_channels", connected_account_id: chat });
    expect(mine.status).toBe(200);
    const theirs = await execute(world.broker, other.jwt, { tool_name: "scm.get_authenticated_user", connected_account_id: scm });
    const ids = (events: AuditEvent[]) => events.map((e) => e.target?.id);

    expect(ids((await audit(`?agent_app_id=${other.agentAppId}&action=tool.executed`)).data)).toEqual([theirs.body.invocation_id]);
    expect(ids((await audit(`?since=${since}&tool=chat.list_channels`)).data)).toEqual([mine.body.invocation_id]);
    expect((await audit("?outcome=denied")).data.every((e) => e.outcome === "denied")).toBe(true);
    expect((await audit("?outcome=denied")).data.length).toBeGreaterThan(0);
    const recent = (await audit(`?since=${since}&action=tool.executed`)).data;
    expect(ids(recent).sort()).toEqual([mine.body.invocation_id, theirs.body.invocation_id].sort());
    expect((await audit(`?until=${since}&action=tool.executed`)).data.every((e) => e.occurred_at < since)).toBe(true);
  });

  it("pages through the audit log newest first with a cursor, each event exactly once", async () => {
    const all = (await audit("?limit=200")).data;
    const paged: AuditEvent[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: AuditEvent[]; next_cursor: string | null } = await audit(`?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.data.length).toBeLessThanOrEqual(3);
      paged.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    expect(paged.map((e) => e.id)).toEqual(all.map((e) => e.id));
    expect(all.map((e) => e.seq)).toEqual([...all.map((e) => e.seq)].sort((a, b) => b - a));
    expectError(await call(world.broker, "GET", "/v1/audit?cursor=not-a-cursor", asOperator(world.tenant)), 400, "invalid_request");
  });
});
