/**
 * Issue 36, item 5: an API key sent in the query comes back percent-encoded (or JSON-escaped, or
 * base64) when an API quotes the request. Every such form is scrubbed from results, error
 * messages, `upstream_message`, stored invocations, the audit log and the logs.
 */
import type { IncomingMessage } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call, mintBrokerToken, type CallResult } from "./support/http.js";
import { answer, startRawUpstream, type RawUpstream } from "./support/raw-upstream.js";
import { execute, tenantRows } from "./support/tool-execution.js";

/** A key with every character that URL, form and JSON encodings change. */
const API_KEY = `sk+Live/8Qz=&pad x~'"\\é-0123456789`;
const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());

/** Every form the key may come back in; none of them may leave the broker. */
const FORMS = {
  raw: API_KEY,
  uriComponent: encodeURIComponent(API_KEY),
  uriComponentLowerHex: lowerHex(encodeURIComponent(API_KEY)),
  form: new URLSearchParams({ k: API_KEY }).toString().slice(2),
  formLowerHex: lowerHex(new URLSearchParams({ k: API_KEY }).toString().slice(2)),
  json: JSON.stringify(API_KEY).slice(1, -1),
  base64: Buffer.from(API_KEY).toString("base64"),
  basicUser: Buffer.from(`${API_KEY}:`).toString("base64"),
};

/** The query as the broker sent it (form-encoded by URLSearchParams), quoted back in several ways. */
function quote(request: IncomingMessage) {
  const url = request.url ?? "";
  const sentKey = new URL(url, "http://upstream").searchParams.get("api_key") ?? "";
  return { url, lowerHexUrl: lowerHex(url), uriComponent: encodeURIComponent(sentKey), json: JSON.stringify(sentKey).slice(1, -1), base64: Buffer.from(sentKey).toString("base64") };
}

describeEachDatabase("scrubbing a credential in every encoding it travels in", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let upstream: RawUpstream;
  let secretItemId: string;
  let token: string;
  const results: CallResult[] = [];

  beforeAll(async () => {
    upstream = await startRawUpstream((request, response) => {
      const q = quote(request);
      const path = q.url.split("?")[0];
      if (path === "/api/echo") {
        answer(response, 200, JSON.stringify({ requested: q.url, lower: q.lowerHexUrl, component: q.uriComponent, base64: q.base64, basic: `Basic ${Buffer.from(`${API_KEY}:`).toString("base64")}` }));
      } else if (path === "/api/refuse") {
        answer(response, 400, JSON.stringify({ message: `bad request GET ${q.url} (${q.lowerHexUrl}) ${q.uriComponent}` }));
      } else {
        // Text that is not JSON (a truncated document) quoting the key JSON-escaped.
        answer(response, 503, `{"error":{"request":"${q.json}","url":"${q.url}"`, "text/plain");
      }
    });
    broker = await startBroker(kind, { env: { BROKER_LOG_LEVEL: "trace" } });
    tenant = await createTenant(broker);
    const declaration = { id: "quoting", display_name: "Quoting", api_base_url: `${upstream.url}/api`, auth: { type: "api_key", in: "query", name: "api_key" } };
    expect((await call(broker, "POST", "/v1/providers", { ...asOperator(tenant), body: { declaration } })).status).toBe(201);
    for (const name of ["echo", "refuse", "garble"]) {
      const tool = {
        name: `quoting.${name}`,
        description: `Calls /${name}.`,
        arguments_schema: { type: "object", properties: {} },
        risk: "low",
        side_effect: "read",
        request: { method: "GET", path: `/${name}` },
      };
      const created = await call(broker, "POST", "/v1/providers/quoting/tools", { ...asOperator(tenant), body: { declaration: tool } });
      expect(created.status, created.text).toBe(201);
    }
    const secret = await call(broker, "POST", "/v1/secrets", { ...asOperator(tenant), body: { provider: "quoting", env: "test", name: "quoting", value: API_KEY } });
    expect(secret.status, secret.text).toBe(201);
    secretItemId = secret.body.secret_item_id as string;
    token = await mintBrokerToken(broker, tenant);
  });
  afterAll(async () => {
    await broker?.close();
    await upstream?.close();
  });

  const run = async (tool: string) => {
    const result = await execute(broker, token, { tool_name: `quoting.${tool}`, secret_item_id: secretItemId });
    results.push(result);
    return result;
  };
  const leaksIn = (text: string) => Object.entries(FORMS).filter(([, form]) => text.includes(form)).map(([name]) => name);

  it("sends the key form-encoded in the query, as the API then quotes it", async () => {
    await run("echo");
    const sent = upstream.received.at(-1)!;
    expect(sent).toContain(`api_key=${FORMS.form}`);
    expect(FORMS.form).not.toBe(API_KEY);
  });

  it("scrubs the key from a result that quotes the request URL, percent-encoded, base64 and as the user name of Basic credentials", async () => {
    const result = await run("echo");
    expect(result.status, result.text).toBe(200);
    expect(leaksIn(result.text)).toEqual([]);
    expect(result.body.result.requested).toBe("/api/echo?api_key=[redacted]");
    expect(result.body.result.basic).toBe("Basic [redacted]");
  });

  it("scrubs the key from an upstream error's message and upstream_message", async () => {
    const result = await run("refuse");
    expect(result.status).toBe(502);
    expect(leaksIn(result.text)).toEqual([]);
    expect(result.body.error.details.upstream_message).toBe("bad request GET /api/refuse?api_key=[redacted] (/api/refuse?api_key=[redacted]) [redacted]");
    expect(result.body.error.message).toContain("api_key=[redacted]");
  });

  it("scrubs the key JSON-escaped inside an answer that is not JSON", async () => {
    const result = await run("garble");
    expect(result.status).toBe(502);
    expect(leaksIn(result.text)).toEqual([]);
    expect(result.body.error.details.upstream_message).toContain('"request":"[redacted]"');
  });

  it("stores and shows no form of the key: invocations read back, their rows, the audit log and the logs", async () => {
    for (const result of results) {
      const id = result.body.invocation_id ?? result.body.error?.details?.invocation_id;
      const invocation = await call(broker, "GET", `/v1/tools/invocations/${id}`, { token });
      expect(invocation.status).toBe(200);
      expect(leaksIn(invocation.text)).toEqual([]);
    }
    const audit = await call(broker, "GET", "/v1/audit?limit=200", asOperator(tenant));
    expect(audit.status).toBe(200);
    expect(leaksIn(audit.text)).toEqual([]);
    for (const table of ["invocations", "audit_events"] as const) expect(leaksIn(JSON.stringify(await tenantRows(broker, table, tenant.tenantId)))).toEqual([]);
    expect(broker.logs.flatMap(leaksIn)).toEqual([]);
  });
});
