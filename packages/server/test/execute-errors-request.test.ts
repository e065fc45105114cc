/**
 * POST /v1/tools/execute refuses what it cannot run, with the SPEC §7 code, before any upstream
 * call: a missing or wrong credential (401), a malformed body (422 invalid_request, 413, 415),
 * a control key without agent_app_id (422), an unknown tool (404), arguments that fail the
 * tool's schema (422 invalid_tool_args naming each failing field).
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { connect, execute, secondAgentApp, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

describeEachDatabase("POST /v1/tools/execute: refused requests", (kind) => {
  let world: ToolWorld;
  let scm: string;
  let upstreamCallsBefore: number;

  beforeAll(async () => {
    world = await startToolWorld(kind);
    scm = await connect(world, "scm");
  });
  afterAll(() => world.close());

  const upstreamCalls = () => world.fakes.github.stats.apiCalls.length + world.fakes.slack.stats.apiCalls.length + world.fakes.linear.stats.apiCalls.length;
  beforeEach(() => {
    upstreamCallsBefore = upstreamCalls();
  });
  const expectNoUpstreamCall = () => expect(upstreamCalls()).toBe(upstreamCallsBefore);
  const valid = () => ({ tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: scm });
  const post = (body: unknown, token = world.jwt) => call(world.broker, "POST", "/v1/tools/execute", { token, body });

  it("refuses a missing, malformed or legacy credential with 401", async () => {
    expectError(await call(world.broker, "POST", "/v1/tools/execute", { body: valid() }), 401, "unauthorized");
    expectError(await post(valid(), "garbage"), 401, "unauthorized");
    expectError(await post(valid(), `${world.jwt.slice(0, -4)}AAAA`), 401, "unauthorized");
    expectError(await post(valid(), `sk_${world.tenant.testKey.slice(8)}`), 401, "unauthorized");
    expectNoUpstreamCall();
  });

  it("refuses an operator session with 401: execute takes a broker JWT or a control key", async () => {
    const result = await call(world.broker, "POST", "/v1/tools/execute", { ...asOperator(world.tenant), body: valid() });
    expectError(result, 401, "unauthorized");
    expectNoUpstreamCall();
  });

  it("refuses a control key call without agent_app_id with 422 invalid_request naming the field", async () => {
    const result = await post(valid(), world.tenant.testKey);
    expectError(result, 422, "invalid_request");
    expect(result.body.error.details.fields).toEqual([expect.objectContaining({ field: "/agent_app_id" })]);
    expectNoUpstreamCall();
  });

  it("refuses a control key call naming an agent app the tenant does not have with 404", async () => {
    const result = await post({ ...valid(), agent_app_id: "00000000-0000-4000-8000-000000000000" }, world.tenant.testKey);
    expectError(result, 404, "not_found");
    expectNoUpstreamCall();
  });

  it("refuses a control key call for a disabled agent app with 403", async () => {
    const other = await secondAgentApp(world);
    expect((await call(world.broker, "DELETE", `/v1/agent-apps/${other.agentAppId}`, asOperator(world.tenant))).status).toBe(200);
    expectError(await post({ ...valid(), agent_app_id: other.agentAppId }, world.tenant.testKey), 403, "forbidden");
    expectNoUpstreamCall();
  });

  it("refuses a broker JWT whose body names another agent app with 403", async () => {
    const other = await secondAgentApp(world);
    expectError(await post({ ...valid(), agent_app_id: other.agentAppId }), 403, "forbidden");
    expect((await post({ ...valid(), agent_app_id: world.tenant.agentAppId })).status).toBe(200);
  });

  const badBodies: [string, Record<string, unknown>, string][] = [
    ["without tool_name", { arguments: {}, connected_account_id: "x" }, "/tool_name"],
    ["with arguments that are not an object", { tool_name: "scm.get_authenticated_user", arguments: [1, 2] }, "/arguments"],
    ["with an empty tool_name", { tool_name: "", arguments: {} }, "/tool_name"],
    ["with a connected_account_id that is not a uuid", { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: "conn_1" }, "/connected_account_id"],
    ["with a secret_item_id that is not a uuid", { tool_name: "tracker.list_issues", arguments: {}, secret_item_id: 42 }, "/secret_item_id"],
    ["with an idempotency_key over 255 characters", { tool_name: "scm.get_authenticated_user", arguments: {}, idempotency_key: "k".repeat(256) }, "/idempotency_key"],
    ["with an approval_id that is not a uuid", { tool_name: "scm.get_authenticated_user", arguments: {}, approval_id: "yes" }, "/approval_id"],
    ["with a field SPEC §2.1 does not define", { tool_name: "scm.get_authenticated_user", arguments: {}, token: "ghu_x" }, "/token"],
  ];
  for (const [name, body, field] of badBodies) {
    it(`refuses a body ${name} with 422 invalid_request naming ${field}`, async () => {
      const result = await post(body);
      expectError(result, 422, "invalid_request");
      expect(result.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
      expectNoUpstreamCall();
    });
  }

  it("takes a body without arguments as arguments {}: a tool that needs none runs (issue 41, item 9)", async () => {
    const result = await post({ tool_name: "scm.get_authenticated_user", connected_account_id: scm });
    expect(result.status, result.text).toBe(200);
    expect(result.body.result.login).toBe("octocat");
    const shown = await call(world.broker, "GET", `/v1/tools/invocations/${result.body.invocation_id}`, { token: world.jwt });
    expect(shown.body).toMatchObject({ status: "succeeded", tool_name: "scm.get_authenticated_user" });
  });

  it("refuses a body without arguments for a tool that requires some with 422 invalid_tool_args naming each missing one", async () => {
    const result = await post({ tool_name: "scm.get_repository", connected_account_id: scm });
    expectError(result, 422, "invalid_tool_args");
    expect(result.body.error.details.fields).toEqual([
      { field: "/owner", message: "must have required property 'owner'" },
      { field: "/repo", message: "must have required property 'repo'" },
    ]);
    expect(result.body.error.message).toBe("arguments for scm.get_repository are invalid: /owner must have required property 'owner'; /repo must have required property 'repo'");
    expectNoUpstreamCall();
  });

  it("treats arguments left out and arguments {} as the same request under one idempotency key", async () => {
    const key = `same-${Date.now()}`;
    const first = await post({ tool_name: "scm.get_authenticated_user", connected_account_id: scm, idempotency_key: key });
    const second = await post({ tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: scm, idempotency_key: key });
    expect(first.status, first.text).toBe(200);
    expect(second.status, second.text).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.invocation_id).toBe(first.body.invocation_id);
  });

  it("refuses a body that is not JSON with 400 invalid_json, and one that is not declared JSON with 415", async () => {
    const headers = { "content-type": "application/json" };
    expectError(await call(world.broker, "POST", "/v1/tools/execute", { token: world.jwt, rawBody: "{", headers }), 400, "invalid_json");
    const text = await call(world.broker, "POST", "/v1/tools/execute", { token: world.jwt, rawBody: JSON.stringify(valid()), headers: { "content-type": "text/plain" } });
    expectError(text, 415, "unsupported_media_type");
    expectNoUpstreamCall();
  });

  it("refuses a body over the documented 1 MiB limit with 413", async () => {
    const result = await post({ ...valid(), tool_name: "scm.create_issue", arguments: { owner: "octocat", repo: "hello-world", title: "t", body: "x".repeat(1024 * 1024) } });
    expectError(result, 413, "payload_too_large");
    expectNoUpstreamCall();
  });

  it("answers 404 not_found for a tool it does not ship", async () => {
    for (const tool_name of ["scm.drop_database", "crm.list_contacts", "get_authenticated_user"]) {
      const result = await post({ ...valid(), tool_name });
      expectError(result, 404, "not_found");
      expect(result.body.error.message).toContain(tool_name);
    }
    expectNoUpstreamCall();
  });

  it("refuses arguments failing the tool's schema with 422 invalid_tool_args, one entry per failing field", async () => {
    const result = await post({
      tool_name: "scm.create_issue",
      arguments: { owner: 42, title: "", labels: "bug", milestone: 3 },
      connected_account_id: scm,
    });
    expectError(result, 422, "invalid_tool_args");
    const fields = result.body.error.details.fields as { field: string; message: string }[];
    expect(fields.map((f) => f.field).sort()).toEqual(["/labels", "/milestone", "/owner", "/repo", "/title"]);
    for (const f of fields) expect(f.message.length).toBeGreaterThan(0);
    expect(fields.find((f) => f.field === "/milestone")!.message).toBe("is not an allowed argument");
    expectNoUpstreamCall();
  });

  it("refuses arguments of the wrong type or out of range for each provider's tools", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["scm.list_repositories", { per_page: 101 }, "/per_page"],
      ["scm.list_issues", { owner: "octocat", repo: "hello-world", state: "merged" }, "/state"],
      ["scm.create_issue_comment", { owner: "octocat", repo: "hello-world", issue_number: "1", body: "x" }, "/issue_number"],
      ["chat.post_message", { channel: "general", text: "" }, "/text"],
      ["chat.list_channels", { types: "public_channel;drop" }, "/types"],
      ["tracker.create_issue", { team_id: "t", title: "x", priority: 9 }, "/priority"],
      ["tracker.list_issues", { first: 0 }, "/first"],
    ];
    for (const [tool_name, args, field] of cases) {
      const result = await post({ tool_name, arguments: args, connected_account_id: scm });
      expectError(result, 422, "invalid_tool_args");
      expect(result.body.error.details.fields, tool_name).toEqual([expect.objectContaining({ field })]);
    }
    expectNoUpstreamCall();
  });

  it("refuses arguments nested deeper than the documented 16 levels with 422 invalid_tool_args", async () => {
    let nested: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < 20; i++) nested = { nested };
    const result = await post({ tool_name: "scm.get_authenticated_user", arguments: nested, connected_account_id: scm });
    expectError(result, 422, "invalid_tool_args");
    expect(result.body.error.message).toContain("16");
    expectNoUpstreamCall();
  });

  it("checks the tool and its arguments before the credential handle", async () => {
    const unknownTool = await post({ tool_name: "scm.nope", arguments: {}, connected_account_id: "00000000-0000-4000-8000-000000000000" });
    expectError(unknownTool, 404, "not_found");
    expect(unknownTool.body.error.message).toContain("scm.nope");
    expectError(await post({ tool_name: "scm.get_repository", arguments: {} }), 422, "invalid_tool_args");
  });
});
