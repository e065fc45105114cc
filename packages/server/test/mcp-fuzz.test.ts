/**
 * Issue 16: /mcp joins the fuzzing (it is JSON-RPC, not an OpenAPI operation, so the route fuzz
 * does not reach it). Requests of both protocol generations, valid-looking with one hostile part —
 * odd methods, ids and params, hostile strings and numbers, deep nesting, batches, bodies that are
 * not JSON, missing or contradicting headers — must never get a 5xx, must carry `x-request-id`,
 * and must leave the deletion that needs an approval unsent.
 */
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createScmTenant, deleteCalls, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { describeEachDatabase } from "./support/databases.js";
import { hostileString, hostileValue, toJsonText, wrongType } from "./support/fuzz-values.js";

const RUNS = Number(process.env.BROKER_FUZZ_RUNS || 250);
const SEED = Number(process.env.BROKER_FUZZ_SEED || 20_261_125);

const METHODS = ["tools/call", "tools/list", "initialize", "ping", "notifications/initialized", "notifications/cancelled", "resources/list", "server/discover", "subscriptions/listen", "no/such_method", ""];
// Dotted, model-safe (as tools/list names them) and aliased names of the same tools, and names of none.
const TOOL_NAMES = ["scm.get_repository", "scm_get_repository", "github.delete_repository", "scm.delete_repository", "scm.no_such_tool", "scm_no_such_tool", "github_", "", "__proto__"];
const VERSIONS = ["2025-06-18", "2025-11-25", "2026-07-28", "1999-01-01", undefined];

describeEachDatabase("MCP fuzz", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;

  beforeAll(async () => {
    world = await startScmWorld(kind, { env: { BROKER_RATE_LIMIT_EXECUTE: "100000" } });
    tenant = await createScmTenant(world);
  });
  afterAll(async () => world?.close());

  const params = fc.oneof(
    fc.record({ name: fc.constantFrom(...TOOL_NAMES), arguments: fc.oneof(fc.dictionary(fc.constantFrom("owner", "repo", "__proto__", "x"), hostileValue), wrongType) }),
    fc.record({ name: fc.constantFrom(...TOOL_NAMES), arguments: fc.constant({ owner: "octo", repo: "hello-world" }), requestState: fc.oneof(hostileString, fc.constant("mk1.a.b.c.d")), inputResponses: hostileValue }),
    fc.record({ protocolVersion: fc.oneof(fc.constantFrom(...VERSIONS.filter(Boolean)), hostileString), capabilities: hostileValue, clientInfo: hostileValue }),
    fc.record({ cursor: hostileString, _meta: hostileValue }),
    hostileValue,
  );
  const message = fc.record({
    jsonrpc: fc.oneof({ weight: 5, arbitrary: fc.constant("2.0") }, { weight: 1, arbitrary: hostileValue }),
    id: fc.oneof(fc.integer(), fc.constant(null), hostileString, wrongType),
    method: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...METHODS) }, { weight: 1, arbitrary: hostileString }),
    params,
  });
  /** A well-formed tools/call of either generation whose arguments, state or answers are hostile: it reaches the handler. */
  const wellFormedCall = fc
    .record({
      modern: fc.boolean(),
      name: fc.constantFrom(...TOOL_NAMES),
      arguments: fc.oneof(fc.dictionary(fc.constantFrom("owner", "repo", "__proto__", "x"), hostileValue), fc.constant({ owner: "octo", repo: "hello-world" })),
      requestState: fc.option(fc.oneof(hostileString, fc.constant("mk1.test-1.AAAA.BBBB.CCCC"))),
      inputResponses: fc.option(hostileValue),
    })
    .map(({ modern, name, ...rest }) => {
      const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientInfo": { name: "fuzz", version: "1" }, "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } } };
      const params = modern ? { name, ...rest, _meta: meta } : { name, arguments: rest.arguments };
      const headers: Record<string, string> = modern ? { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": name } : { "mcp-protocol-version": "2025-11-25" };
      return { text: toJsonText({ jsonrpc: "2.0", id: 1, method: "tools/call", params }), headers };
    });
  const body = fc.oneof(
    { weight: 6, arbitrary: message.map((m) => ({ text: toJsonText(m), headers: {} })) },
    { weight: 6, arbitrary: wellFormedCall },
    { weight: 1, arbitrary: fc.array(message, { maxLength: 3 }).map((batch) => ({ text: toJsonText(batch), headers: {} })) },
    { weight: 1, arbitrary: fc.constantFrom("", "{", "null", "[]", "\u0000", '{"jsonrpc":"2.0"', "x".repeat(10_000)).map((text) => ({ text, headers: {} })) },
  );
  const usually = <T>(common: T, ...odd: T[]) => fc.oneof({ weight: 6, arbitrary: fc.constant(common) }, { weight: 1, arbitrary: fc.constantFrom(...odd) });
  const headers = fc.record({
    version: fc.constantFrom(...VERSIONS),
    accept: usually<string | undefined>("application/json, text/event-stream", "application/json", "text/html", undefined),
    contentType: usually<string | undefined>("application/json", "text/plain", "application/x-www-form-urlencoded", undefined),
    method: fc.constantFrom("tools/call", "tools/list", "bogus", undefined),
    httpMethod: usually("POST", "GET", "DELETE", "PUT"),
  });

  it(`answers ${RUNS} hostile requests without a 5xx`, { timeout: 240_000 }, async () => {
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(body, headers, async ({ text, headers: bodyHeaders }, h) => {
        const requestHeaders: Record<string, string> = { authorization: `Bearer ${tenant.token}` };
        if (h.version) requestHeaders["mcp-protocol-version"] = h.version;
        if (h.accept) requestHeaders.accept = h.accept;
        if (h.contentType) requestHeaders["content-type"] = h.contentType;
        if (h.method) requestHeaders["mcp-method"] = h.method;
        Object.assign(requestHeaders, bodyHeaders);
        const hasBody = h.httpMethod === "POST" || h.httpMethod === "PUT";
        const response = await fetch(`${world.broker.url}/mcp`, { method: h.httpMethod, headers: requestHeaders, body: hasBody ? text : undefined });
        const answer = await response.text();
        if (response.status >= 500 || !response.headers.get("x-request-id")) {
          failures.push(`${h.httpMethod} ${JSON.stringify(h)} ${text.slice(0, 200)} → ${response.status} ${answer.slice(0, 200)}`);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(failures.slice(0, 5)).toEqual([]);
    expect(deleteCalls(world, tenant, "hello-world")).toBe(0);
  });
});
