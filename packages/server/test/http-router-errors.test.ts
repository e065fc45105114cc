/**
 * Errors raised before any route runs — by the router (bad percent-encoding, an over-long path
 * parameter) or by Node's HTTP parser — are the envelope with an `x-request-id`, and no answer
 * echoes more than 200 characters of the request path.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { MAX_PARAM_LENGTH } from "../src/http/router-errors.js";

/** Sends raw bytes (which fetch refuses to send) and returns the raw answer. */
function rawRequest(broker: TestBroker, bytes: string): Promise<string> {
  const { hostname, port } = new URL(broker.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => socket.end(bytes, "latin1"));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

function parseRawResponse(raw: string) {
  const [head = "", body = ""] = raw.split("\r\n\r\n", 2);
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(":")).toLowerCase(), line.slice(line.indexOf(":") + 1).trim()]));
  return { status: Number(statusLine.split(" ")[1]), headers, body: JSON.parse(body) };
}

describeEachDatabase("router and parser errors", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker);
  });
  afterAll(() => broker.close());

  it.each([
    "/v1/agent-apps/%ZZ",
    "/v1/agent-apps/%C0%80",
    "/v1/agent-apps/%E0%A4%A",
    "/v1/agent-apps/%ED%A0%80",
    "/v1/webhooks/%ZZ/deliveries",
    "/v1/approvals/%FF/decide",
  ])("answers a path that is not valid percent-encoding (%s) with 400 invalid_request", async (path) => {
    const method = path.endsWith("/decide") ? "POST" : "GET";
    const result = await call(broker, method, path, asOperator(tenant));
    expectError(result, 400, "invalid_request");
    expect(result.body.error.message).toBe("the request path is not valid percent-encoded UTF-8");
    expect(result.text).not.toContain("%ZZ");
  });

  it("answers a bad percent-encoding on a route that does not exist with the envelope", async () => {
    const result = await call(broker, "GET", "/v1/nope/%ZZ", asOperator(tenant));
    expect([400, 404]).toContain(result.status);
    expectError(result, result.status, result.status === 400 ? "invalid_request" : "not_found");
  });

  it("answers an over-long path parameter with 400 invalid_request without echoing it", async () => {
    const long = "a".repeat(5000);
    for (const [method, path] of [["GET", `/v1/agent-apps/${long}`], ["DELETE", `/v1/keys/${long}`], ["GET", `/v1/webhooks/${long}/deliveries`]] as const) {
      const result = await call(broker, method, path, asOperator(tenant));
      expectError(result, 400, "invalid_request");
      expect(result.body.error.message).toBe(`a path parameter is longer than ${MAX_PARAM_LENGTH} characters`);
      expect(result.text).not.toContain("a".repeat(201));
    }
  });

  it("keeps the answer for a path parameter at the limit: the id's own validation", async () => {
    const result = await call(broker, "GET", `/v1/agent-apps/${"a".repeat(MAX_PARAM_LENGTH)}`, asOperator(tenant));
    expectError(result, 400, "invalid_request");
    expect(result.body.error.details.fields).toEqual([{ location: "params", field: "/id", message: expect.any(String) }]);
  });

  it("echoes at most 200 characters of an unknown path", async () => {
    const path = `/v1/${"x".repeat(1000)}`;
    const result = await call(broker, "GET", `${path}?q=${"y".repeat(300)}`);
    expectError(result, 404, "not_found");
    expect(result.body.error.message).toBe(`no route for GET ${path.slice(0, 200)}…`);
    expect(result.text).not.toContain("x".repeat(201));
    expect(result.text).not.toContain("yyy");
    const short = await call(broker, "GET", "/v1/nope");
    expect(short.body.error.message).toBe("no route for GET /v1/nope");
  });

  it("answers bytes that are not HTTP (a NUL in a header) with the envelope and a request id", async () => {
    const raw = await rawRequest(broker, `GET /v1/agent-apps HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\u0000b\r\n\r\n`);
    const response = parseRawResponse(raw);
    expect(response.status).toBe(400);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.body).toEqual({ ok: false, error: { code: "invalid_request", message: "malformed HTTP request", request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) } });
    expect(response.headers["x-request-id"]).toBe(response.body.error.request_id);
  });

  it("puts x-request-id on every kind of error", async () => {
    const results = [
      await call(broker, "GET", "/v1/agent-apps"),
      await call(broker, "GET", "/v1/agent-apps", { token: "bk_test_nope" }),
      await call(broker, "GET", "/v1/agent-apps/not-a-uuid", asOperator(tenant)),
      await call(broker, "POST", "/v1/agent-apps", { ...asOperator(tenant), rawBody: "{", headers: { "content-type": "application/json" } }),
      await call(broker, "POST", "/v1/agent-apps", { ...asOperator(tenant), rawBody: "x", headers: { "content-type": "text/plain" } }),
      await call(broker, "GET", "/v1/nope"),
      await call(broker, "GET", "/v1/agent-apps/%ZZ"),
    ];
    for (const result of results) {
      expect(result.status, result.text).toBeGreaterThanOrEqual(400);
      expectError(result, result.status, result.body.error.code);
    }
  });
});
