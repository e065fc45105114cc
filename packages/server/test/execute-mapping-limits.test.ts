/**
 * Issue 36, item 2: one tenant's response mapping cannot stall every tenant. Declarations are
 * bounded (response fields, templates, pointer depth, body nesting), and each call's work is
 * bounded too: an answer beyond the mapping budget is a precise 502 upstream_error (reason
 * response_too_large), while another tenant's requests keep answering; arguments that would fill a
 * request past 2 MiB are a 422 before anything is built.
 */
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { answer, startRawUpstream, type RawUpstream } from "./support/raw-upstream.js";
import { execute } from "./support/tool-execution.js";

const API_KEY = "mapping-key-0123456789abcdef";
/** Elements of the hostile answer: with 200 fields, 40 million pointer lookups for the mapping as it was (seconds). */
const ELEMENTS = 200_000;
const FIELDS = 200;

const fieldsOf = (count: number, pointer = (i: number) => `/f${i}`) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, pointer(i)]));

const listTool = (name: string, path: string, fields: Record<string, string>) => ({
  name: `bulk.${name}`,
  description: "Lists everything.",
  arguments_schema: { type: "object", properties: {}, additionalProperties: false },
  risk: "low",
  side_effect: "read",
  request: { method: "GET", path },
  response: { fields },
});

describeEachDatabase("response mapping bounded per declaration and per call", (kind) => {
  let broker: TestBroker;
  let attacker: TestTenant;
  let neighbour: TestTenant;
  let upstream: RawUpstream;
  let secretItemId: string;

  beforeAll(async () => {
    const bigArray = `[${Array.from({ length: ELEMENTS }, (_, i) => `{"f0":${i}}`).join(",")}]`;
    const wideObject = JSON.stringify(Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i])));
    upstream = await startRawUpstream((request, response) => answer(response, 200, request.url?.startsWith("/api/wide") ? wideObject : bigArray));
    broker = await startBroker(kind);
    attacker = await createTenant(broker, "Attacker");
    neighbour = await createTenant(broker, "Neighbour");
    const provider = await call(broker, "POST", "/v1/providers", {
      ...asOperator(attacker),
      body: { declaration: { id: "bulk", display_name: "Bulk", api_base_url: `${upstream.url}/api`, auth: { type: "api_key", in: "header", name: "X-Api-Key" } } },
    });
    expect(provider.status, provider.text).toBe(201);
    const secret = await call(broker, "POST", "/v1/secrets", { ...asOperator(attacker), body: { provider: "bulk", env: "test", name: "bulk", value: API_KEY } });
    expect(secret.status, secret.text).toBe(201);
    secretItemId = secret.body.secret_item_id as string;
  });
  afterAll(async () => {
    await broker?.close();
    await upstream?.close();
  });

  const declare = (tool: unknown) => call(broker, "POST", "/v1/providers/bulk/tools", { ...asOperator(attacker), body: { declaration: tool } });
  const expectRefused = async (tool: unknown, path: string) => {
    const refused = await declare(tool);
    expectError(refused, 422, "invalid_declaration");
    expect(refused.body.error.details.path, refused.text).toBe(path);
  };

  it("refuses declarations beyond the published limits with 422 invalid_declaration and the path", async () => {
    await expectRefused(listTool("too_many_fields", "/all", fieldsOf(2_000)), "/response/fields");
    await expectRefused(listTool("deep_pointer", "/all", { deep: "/a".repeat(33) }), "/response/fields/deep");
    await expectRefused({ ...listTool("deep_root", "/all", {}), response: { root: "/a".repeat(33) } }, "/response/root");
    const tooManyQueries = { ...listTool("queries", "/all", { a: "/a" }), request: { method: "GET", path: "/all", query: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`q${i}`, "x"])) } };
    await expectRefused(tooManyQueries, "/request/query");
    let nested: unknown = "{text}";
    for (let i = 0; i < 17; i += 1) nested = { n: nested };
    const deepBody = {
      ...listTool("deep_body", "/all", { a: "/a" }),
      arguments_schema: { type: "object", properties: { text: { type: "string" } } },
      side_effect: "write",
      request: { method: "POST", path: "/all", body: nested },
    };
    await expectRefused(deepBody, "/request/body");
    const manyStrings = { ...deepBody, name: "bulk.many_strings", request: { method: "POST", path: "/all", body: Array.from({ length: 501 }, () => "x") } };
    await expectRefused(manyStrings, "/request/body");
    // uniqueItems over objects is checked pair by pair: 100,000 items would take minutes.
    await expectRefused({ ...listTool("unique_answer", "/all", {}), response: { schema: { type: "array", uniqueItems: true } } }, "/response/schema/uniqueItems");
    const uniqueArgument = { type: "object", properties: { tags: { type: "array", uniqueItems: true, items: { type: "object" } } } };
    await expectRefused({ ...listTool("unique_argument", "/all", {}), arguments_schema: uniqueArgument }, "/arguments_schema/properties/tags/uniqueItems");
    expect((await call(broker, "GET", "/v1/providers/bulk/tools", asOperator(attacker))).body.data).toEqual([]);
    const scalarTags = { type: "object", properties: { tags: { type: "array", uniqueItems: true, items: { type: "string" } }, few: { type: "array", uniqueItems: true, maxItems: 100 } } };
    const hashed = await declare({ ...listTool("unique_scalars", "/all", {}), arguments_schema: scalarTags });
    expect(hashed.status, hashed.text).toBe(201);
    // Every limit leaves room: 200 fields of 32-token pointers are accepted.
    const widest = await declare(listTool("widest", "/all", fieldsOf(FIELDS, (i) => `/f${i}${"/x".repeat(31)}`)));
    expect(widest.status, widest.text).toBe(201);
  });

  it("answers a mapping beyond the per-call budget with 502 response_too_large, while another tenant's requests keep answering under 1 s", async () => {
    expect((await declare(listTool("list_all", "/all", fieldsOf(FIELDS)))).status).toBe(201);
    const attackerToken = await mintBrokerToken(broker, attacker);
    const neighbourToken = await mintBrokerToken(broker, neighbour);
    let attackDone = false;
    const attack = execute(broker, attackerToken, { tool_name: "bulk.list_all", secret_item_id: secretItemId }).finally(() => {
      attackDone = true;
    });
    const latencies: number[] = [];
    // The neighbour keeps asking until the attack has answered, and at least five times.
    while (!attackDone || latencies.length < 5) {
      const started = performance.now();
      const listed = await call(broker, "GET", "/v1/tools", { token: neighbourToken });
      latencies.push(performance.now() - started);
      expect(listed.status).toBe(200);
    }
    const refused = await attack;
    expect(upstream.received.some((line) => line.startsWith("GET /api/all"))).toBe(true);
    expect(Math.max(...latencies), `neighbour latencies ${latencies.map(Math.round).join(", ")} ms`).toBeLessThan(1_000);
    expectError(refused, 502, "upstream_error");
    expect(refused.body.error.details).toMatchObject({ upstream_status: 200, reason: "response_too_large", limit: 200_000 });
    const invocation = await call(broker, "GET", `/v1/tools/invocations/${refused.body.error.details.invocation_id}`, { token: attackerToken });
    expect(invocation.body).toMatchObject({ status: "failed", error: { code: "upstream_error", details: { reason: "response_too_large" } } });
  });

  it("refuses a mapping that repeats the answer in every field: more than 100,000 result values", async () => {
    expect((await declare(listTool("echo_wide", "/wide", fieldsOf(FIELDS, () => "")))).status).toBe(201);
    const token = await mintBrokerToken(broker, attacker);
    const refused = await execute(broker, token, { tool_name: "bulk.echo_wide", secret_item_id: secretItemId });
    expectError(refused, 502, "upstream_error");
    expect(refused.body.error.details).toMatchObject({ upstream_status: 200, reason: "response_too_large", limit: 100_000 });
  });

  it("refuses arguments that would fill a request of many placeholders past 2 MiB with 422, before anything is sent", async () => {
    const amplifier = {
      ...listTool("amplify", "/all", { a: "/a" }),
      arguments_schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
      request: { method: "GET", path: "/all", query: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`q${i}`, "{a}".repeat(600)])) },
    };
    expect((await declare(amplifier)).status).toBe(201);
    const sent = upstream.received.length;
    const refused = await execute(broker, await mintBrokerToken(broker, attacker), { tool_name: "bulk.amplify", arguments: { a: "x".repeat(20_000) }, secret_item_id: secretItemId });
    expectError(refused, 422, "invalid_tool_args");
    expect(refused.body.error.details).toMatchObject({ reason: "request_too_large", limit: 2 * 1024 * 1024 });
    expect(refused.body.error.message).toBe("the arguments fill this tool's request with more than 2 MiB (2,097,152 bytes), the most one request may carry");
    expect(upstream.received.length).toBe(sent);
  });

  it("still maps an answer within the budget", async () => {
    expect((await declare({ ...listTool("one", "/wide", { first: "/k0", last: "/k19999" }) }))).toMatchObject({ status: 201 });
    const mapped = await execute(broker, await mintBrokerToken(broker, attacker), { tool_name: "bulk.one", secret_item_id: secretItemId });
    expect(mapped.status, mapped.text).toBe(200);
    expect(mapped.body.result).toEqual({ first: 0, last: 19_999 });
  });
});
