/**
 * Strings the databases cannot store the same way — U+0000 (PostgreSQL refuses it in text and
 * jsonb) and unpaired UTF-16 surrogates (refused by jsonb, replaced differently by each engine
 * in text) — are refused at validation on every route, with the schema-error envelope and the
 * field path, identically on SQLite and PostgreSQL.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findUnstorableText } from "../src/http/storable-text.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken, type CallResult } from "./support/http.js";

const NUL = "the NUL character (U+0000)";
const SURROGATE = "an unpaired UTF-16 surrogate";
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("findUnstorableText", () => {
  it("finds NUL and unpaired surrogates in values and property names, as JSON Pointers", () => {
    const value = { ok: "🙂 fine", "a/b": ["x", "y\u0000"], "~k": { deep: "\ud800" }, ["bad\u0000key"]: { hidden: "\u0000" }, tail: "\udc00z" };
    expect(findUnstorableText(value)).toEqual([
      { instancePath: "", message: `must not have a property name containing ${NUL}` },
      { instancePath: "/a~1b/1", message: `must not contain ${NUL}` },
      { instancePath: "/~0k/deep", message: `must not contain ${SURROGATE}` },
      { instancePath: "/tail", message: `must not contain ${SURROGATE}` },
    ]);
  });

  it("accepts paired surrogates (emoji) and other control characters", () => {
    expect(findUnstorableText({ text: "🙂\u0001\t\u007f\uffff", list: ["\ud83d\ude00"] })).toEqual([]);
  });

  it("walks a deeply nested value without recursion", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(findUnstorableText(deep)).toHaveLength(1);
  });
});

describeEachDatabase("text the database cannot store", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let jwt: string;

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker);
    jwt = await mintBrokerToken(broker, tenant);
  });
  afterAll(() => broker.close());

  const operator = (method: string, path: string, body?: unknown) => call(broker, method, path, { ...asOperator(tenant), ...(body === undefined ? {} : { body }) });
  const execute = (body: Record<string, unknown>) => call(broker, "POST", "/v1/tools/execute", { token: jwt, body: { tool_name: "scm.get_authenticated_user", arguments: {}, ...body } });

  function expectRefused(result: CallResult, status: number, location: string, field: string, message: string, code = "invalid_request") {
    expectError(result, status, code);
    expect(result.body.error.details).toEqual({ fields: [{ location, field, message }] });
    expect(result.body.error.message).toBe(`the request ${location} is invalid: ${field} ${message}`);
  }

  describe("on execute (422, the route's validation status)", () => {
    it.each([
      ["tool_name", { tool_name: "scm.get_authenticated_user\u0000" }, "/tool_name", `must not contain ${NUL}`],
      ["idempotency_key", { idempotency_key: "key-\u0000" }, "/idempotency_key", `must not contain ${NUL}`],
      ["idempotency_key (lone surrogate)", { idempotency_key: "key-\ud800" }, "/idempotency_key", `must not contain ${SURROGATE}`],
      ["a nested argument", { arguments: { labels: [{ name: "ok" }, { name: "x\u0000" }] } }, "/arguments/labels/1/name", `must not contain ${NUL}`],
      ["a nested argument's key", { arguments: { nested: { ["k\u0000"]: 1 } } }, "/arguments/nested", `must not have a property name containing ${NUL}`],
      ["an argument key with a lone surrogate", { arguments: { ["\udc00"]: 1 } }, "/arguments", `must not have a property name containing ${SURROGATE}`],
    ])("refuses %s", async (_what, body, field, message) => {
      expectRefused(await execute(body), 422, "body", field, message);
    });
  });

  it.each([
    ["an agent app name", "POST", "/v1/agent-apps", { name: "app\u0000" }, "/name", NUL],
    ["an agent app name (lone surrogate)", "POST", "/v1/agent-apps", { name: "app\ud800" }, "/name", SURROGATE],
    ["a control key name", "POST", "/v1/keys", { env: "test", name: "key\u0000" }, "/name", NUL],
    ["a secret item name", "POST", "/v1/secrets", { provider: "tracker", env: "test", name: "n\u0000", value: "v" }, "/name", NUL],
    ["a secret item value", "POST", "/v1/secrets", { provider: "tracker", env: "test", name: "n", value: "v\u0000" }, "/value", NUL],
    ["a webhook description", "POST", "/v1/webhooks", { url: "http://127.0.0.1:9/hooks", description: "d\u0000" }, "/description", NUL],
    ["a decide reason", "POST", `/v1/approvals/${randomUUID()}/decide`, { decision: "deny", reason: "because\u0000" }, "/reason", NUL],
    ["redirect_after", "POST", "/v1/connections/oauth/start", { provider: "scm", redirect_after: "https://app.example.test/\u0000" }, "/redirect_after", NUL],
    ["a policy document string", "PUT", "/v1/policy", { rules: [{ tool: "scm.\u0000" }] }, "/rules/0/tool", NUL],
  ])("refuses %s with the field path", async (_what, method, path, body, field, character) => {
    // PUT /v1/policy answers every schema error with 422 unprocessable; the others with 400.
    const [status, code] = path === "/v1/policy" ? [422, "unprocessable"] : [400, "invalid_request"];
    expectRefused(await operator(method, path, body), status, "body", field, `must not contain ${character}`, code);
  });

  it("refuses a webhook description on update too", async () => {
    const created = await operator("POST", "/v1/webhooks", { url: "http://127.0.0.1:9/hooks" });
    expect(created.status, created.text).toBe(201);
    expectRefused(await operator("PATCH", `/v1/webhooks/${created.body.id}`, { description: "\u0000" }), 400, "body", "/description", `must not contain ${NUL}`);
  });

  it.each([
    ["/v1/audit?tool=scm.%00", "/tool"],
    ["/v1/audit?action=agent_app.%00created", "/action"],
    ["/v1/audit?outcome=%00", "/outcome"],
    ["/v1/usage?tool=%00", "/tool"],
  ])("refuses a query filter holding a NUL: %s", async (path, field) => {
    expectRefused(await operator("GET", path), 400, "querystring", field, `must not contain ${NUL}`);
  });

  it("refuses a NUL in a path parameter", async () => {
    expectRefused(await operator("GET", "/v1/agent-apps/%00"), 400, "params", "/id", `must not contain ${NUL}`);
  });

  it("refuses a pagination cursor whose JSON holds a NUL or a lone surrogate", async () => {
    const webhook = await operator("POST", "/v1/webhooks", { url: "http://127.0.0.1:9/hooks" });
    const cursors: [string, unknown][] = [
      ["/v1/audit", { seq: 1, extra: "\u0000" }],
      ["/v1/approvals", { created_at: "2026-01-01T00:00:00.000Z\u0000", id: randomUUID() }],
      ["/v1/approvals", { created_at: "2026-01-01T00:00:00.000Z", id: "\ud800" }],
      [`/v1/webhooks/${webhook.body.id}/deliveries`, { c: "2026-01-01T00:00:00.000Z", i: "\u0000" }],
    ];
    for (const [path, cursor] of cursors) {
      const result = await operator("GET", `${path}?cursor=${cursorOf(cursor)}`);
      expectError(result, 400, "invalid_request");
      expect(result.body.error.details).toEqual({ fields: [{ location: "querystring", field: "/cursor", message: "is invalid" }] });
    }
  });

  it("checks the credential first, and answers an unknown route 404 whatever its query", async () => {
    expectError(await call(broker, "POST", "/v1/agent-apps", { body: { name: "\u0000" } }), 401, "unauthorized");
    expectError(await operator("GET", "/v1/nope?x=%00"), 404, "not_found");
  });

  it("stores and returns text with emoji and other control characters unchanged", async () => {
    const name = "app 🙂\u0001\t\u007f";
    const created = await operator("POST", "/v1/agent-apps", { name });
    expect(created.status, created.text).toBe(201);
    expect((await operator("GET", `/v1/agent-apps/${created.body.id}`)).body.name).toBe(name);
  });
});
