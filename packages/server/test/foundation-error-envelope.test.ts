/**
 * SPEC §7: every failure is `{ok: false, error: {code, message, details?, request_id}}` with a
 * stable code, and no body ever carries a stack trace or an internal error message.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, expect, it, vi } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError, STACK_TRACE } from "./support/expect.js";
import { asOperator, call, type CallResult } from "./support/http.js";

type Field = { location: string; field: string; message: string };
const fieldsOf = (result: CallResult): Field[] => result.body.error.details.fields;

describeEachDatabase("error envelope", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker);
  });
  afterAll(() => broker.close());
  afterEach(() => vi.restoreAllMocks());

  const mint = (options: { body?: unknown; rawBody?: string; headers?: Record<string, string> }) =>
    call(broker, "POST", "/v1/broker/token", { token: tenant.testKey, ...options });

  it("answers an unknown route with 404 not_found", async () => {
    for (const [method, path] of [["GET", "/v1/nope"], ["POST", "/v1/tools/nope"], ["GET", "/"], ["DELETE", "/v1/keys"]] as const) {
      const result = await call(broker, method, path, asOperator(tenant));
      expectError(result, 404, "not_found");
      expect(Object.keys(result.body.error).sort()).toEqual(["code", "message", "request_id"]);
    }
  });

  it("gives every response a request id that the error envelope repeats", async () => {
    const first = await call(broker, "GET", "/v1/nope");
    const second = await call(broker, "GET", "/v1/nope");
    expect(first.body.error.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.body.error.request_id).not.toBe(second.body.error.request_id);
  });

  it("answers malformed JSON with 400 invalid_json", async () => {
    expectError(await mint({ rawBody: '{"agent_app_id": ', headers: { "content-type": "application/json" } }), 400, "invalid_json");
    const operatorCall = await call(broker, "POST", "/v1/agent-apps", { ...asOperator(tenant), rawBody: "{name: 'x'}", headers: { "content-type": "application/json" } });
    expectError(operatorCall, 400, "invalid_json");
  });

  it("treats an empty body declared as JSON as no body: 400 invalid_request where a body is required", async () => {
    const result = await mint({ rawBody: "", headers: { "content-type": "application/json" } });
    expectError(result, 400, "invalid_request");
    expect(fieldsOf(result)).toEqual([{ location: "body", field: "/", message: expect.any(String) }]);
  });

  it("answers a body over 1 MiB with 413 payload_too_large", async () => {
    const body = { agent_app_id: tenant.agentAppId, env: "test", padding: "x".repeat(1024 * 1024) };
    const refused = await mint({ body });
    expectError(refused, 413, "payload_too_large");
    expect(refused.body.error.message).toBe("the request body is larger than 1 MiB (1,048,576 bytes), this route's limit");
    expect(refused.body.error.details).toEqual({ limit_bytes: 1024 * 1024 });
  });

  it("accepts a body just under the limit far enough to validate it", async () => {
    const body = { agent_app_id: tenant.agentAppId, env: "test", padding: "x".repeat(1000 * 1000) };
    const result = await mint({ body });
    expectError(result, 400, "invalid_request");
    expect(fieldsOf(result).map((f) => f.field)).toEqual(["/padding"]);
  });

  it("refuses a body nested deeper than 64 levels with 400 invalid_request, on every route, never a 500", async () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    const execute = await call(broker, "POST", "/v1/tools/execute", {
      token: tenant.testKey,
      rawBody: `{"tool_name":"scm.get_authenticated_user","agent_app_id":"${tenant.agentAppId}","arguments":${nested(20_000)}}`,
      headers: { "content-type": "application/json" },
    });
    expectError(execute, 400, "invalid_request");
    expect(fieldsOf(execute)).toEqual([{ location: "body", field: "/", message: "nests deeper than 64 levels" }]);
    expectError(await mint({ rawBody: `${"[".repeat(50_000)}${"]".repeat(50_000)}`, headers: { "content-type": "application/json" } }), 400, "invalid_request");
    // 64 levels are still read, and then judged by the route's schema.
    const deepest = await mint({ rawBody: `{"env":"test","x":${nested(63)}}`, headers: { "content-type": "application/json" } });
    expectError(deepest, 400, "invalid_request");
    expect(fieldsOf(deepest).map((f) => f.field)).toContain("/x");
  });

  it("answers a text/plain or form body with 415 unsupported_media_type", async () => {
    const json = JSON.stringify({ agent_app_id: tenant.agentAppId, env: "test" });
    expectError(await mint({ rawBody: json, headers: { "content-type": "text/plain" } }), 415, "unsupported_media_type");
    expectError(await mint({ rawBody: "env=test", headers: { "content-type": "application/x-www-form-urlencoded" } }), 415, "unsupported_media_type");
  });

  it("names an invalid enum value in error.details.fields", async () => {
    const result = await mint({ body: { agent_app_id: tenant.agentAppId, env: "prod" } });
    expectError(result, 400, "invalid_request");
    expect(fieldsOf(result)).toEqual([{ location: "body", field: "/env", message: expect.any(String) }]);
  });

  it("names an unknown property in error.details.fields", async () => {
    const result = await mint({ body: { agent_app_id: tenant.agentAppId, env: "test", foo: 1 } });
    expectError(result, 400, "invalid_request");
    expect(fieldsOf(result)).toEqual([{ location: "body", field: "/foo", message: "is not an allowed property" }]);
  });

  it("names a missing property in error.details.fields", async () => {
    const result = await mint({ body: { env: "test" } });
    expectError(result, 400, "invalid_request");
    expect(fieldsOf(result).map((f) => f.field)).toEqual(["/agent_app_id"]);
  });

  it("names every offending field at once", async () => {
    const result = await mint({ body: { agent_app_id: "not-a-uuid", env: "staging", foo: true } });
    expectError(result, 400, "invalid_request");
    expect(fieldsOf(result).map((f) => f.field).sort()).toEqual(["/agent_app_id", "/env", "/foo"]);
  });

  it("refuses a body that is not an object", async () => {
    expectError(await mint({ body: ["test"] }), 400, "invalid_request");
    expectError(await mint({ rawBody: "null", headers: { "content-type": "application/json" } }), 400, "invalid_request");
  });

  it("refuses a path id that is not a uuid with 400 invalid_request naming /id", async () => {
    for (const [method, path] of [["DELETE", "/v1/keys/not-a-uuid"], ["GET", "/v1/agent-apps/123"], ["DELETE", `/v1/agent-apps/${randomUUID()}x`]] as const) {
      const result = await call(broker, method, path, asOperator(tenant));
      expectError(result, 400, "invalid_request");
      expect(fieldsOf(result)).toEqual([{ location: "params", field: "/id", message: expect.any(String) }]);
    }
  });

  it("refuses an invalid or unknown query parameter naming it", async () => {
    const limit = await call(broker, "GET", "/v1/audit?limit=0", asOperator(tenant));
    expectError(limit, 400, "invalid_request");
    expect(fieldsOf(limit)).toEqual([{ location: "querystring", field: "/limit", message: expect.any(String) }]);
    const unknown = await call(broker, "GET", "/v1/audit?foo=1", asOperator(tenant));
    expectError(unknown, 400, "invalid_request");
    expect(fieldsOf(unknown).map((f) => f.field)).toEqual(["/foo"]);
  });

  it("checks the credential before the body, so an anonymous caller learns nothing about the schema", async () => {
    const result = await call(broker, "POST", "/v1/broker/token", { body: { env: "prod" } });
    expectError(result, 401, "unauthorized");
    expect(result.body.error).not.toHaveProperty("details");
  });

  it("turns an unexpected failure into 500 internal_error without its message or stack", async () => {
    vi.spyOn(broker.services.agentApps, "list").mockRejectedValue(new Error("connection to db-7.internal refused"));
    const result = await call(broker, "GET", "/v1/agent-apps", asOperator(tenant));
    expectError(result, 500, "internal_error");
    expect(result.body.error.message).toBe("internal error");
    expect(result.text).not.toContain("db-7.internal");
    // The full error stays in the server log, under the same request id.
    const logged = broker.logs.find((line) => line.includes("db-7.internal"));
    expect(logged).toContain(result.body.error.request_id);
  });

  it("never put a stack trace in any body this suite received", () => {
    expect(broker.responses.length).toBeGreaterThan(20);
    expect(broker.responses.filter((text) => STACK_TRACE.test(text))).toEqual([]);
  });
});
