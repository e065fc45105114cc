/**
 * What the route fuzz adds for the catalogue's limits (issue 36): declarations just past each
 * limit, sent where a `declaration` goes, and a tenant-defined tool whose upstream answers more
 * than one call may map, so execute and continue meet `response_too_large` among their outcomes.
 */
import fc from "fast-check";
import type { TestBroker, TestTenant } from "./broker.js";
import { asOperator, call } from "./http.js";
import { answer, startRawUpstream, type RawUpstream } from "./raw-upstream.js";

const tool = (name: string, extra: Record<string, unknown>) => ({
  name: `scm.${name}`,
  description: "Past a limit.",
  arguments_schema: { type: "object", properties: { text: { type: "string" } } },
  risk: "low",
  side_effect: "write",
  request: { method: "POST", path: "/limits" },
  ...extra,
});

let nested: unknown = "{text}";
for (let i = 0; i < 17; i += 1) nested = { n: nested };

/** One declaration past each limit, and providers whose auth is not an object. */
export const declarationsPastLimits = fc.constantFrom<unknown>(
  { id: "fuzz-auth", display_name: "Fuzz", api_base_url: "http://127.0.0.1:9/api", auth: "x" },
  { id: "fuzz-auth", display_name: "Fuzz", api_base_url: "http://127.0.0.1:9/api", auth: [] },
  { auth: 7 },
  tool("many_fields", { response: { fields: Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`f${i}`, `/f${i}`])) } }),
  tool("deep_pointer", { response: { root: "/a".repeat(33) } }),
  tool("many_queries", { request: { method: "GET", path: "/limits", query: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`q${i}`, "{text}"])) } }),
  tool("deep_body", { request: { method: "POST", path: "/limits", body: nested } }),
  tool("many_strings", { request: { method: "POST", path: "/limits", body: Array.from({ length: 501 }, () => "{text}") } }),
  tool("unique_objects", { response: { schema: { type: "array", uniqueItems: true } } }),
);

/** A provider "bulk" with one tool of 200 fields over an answer of 20,000 elements: beyond the mapping budget. */
export async function seedOversizedAnswer(broker: TestBroker, tenant: TestTenant): Promise<{ upstream: RawUpstream; secretItemId: string }> {
  const body = `[${Array.from({ length: 20_000 }, (_, i) => `{"f0":${i}}`).join(",")}]`;
  const upstream = await startRawUpstream((_request, response) => answer(response, 200, body));
  const operator = asOperator(tenant);
  const declaration = { id: "bulk", display_name: "Bulk", api_base_url: `${upstream.url}/api`, auth: { type: "api_key", in: "header", name: "X-Api-Key" } };
  const steps = [
    await call(broker, "POST", "/v1/providers", { ...operator, body: { declaration } }),
    await call(broker, "POST", "/v1/providers/bulk/tools", {
      ...operator,
      body: {
        declaration: {
          name: "bulk.list_all",
          description: "Lists everything.",
          arguments_schema: { type: "object", properties: {}, additionalProperties: false },
          risk: "low",
          side_effect: "read",
          request: { method: "GET", path: "/all" },
          response: { fields: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`f${i}`, `/f${i}`])) },
        },
      },
    }),
    await call(broker, "POST", "/v1/secrets", { ...operator, body: { provider: "bulk", env: "test", name: "bulk", value: "bulk-key-0123456789" } }),
  ];
  const failed = steps.find((step) => step.status !== 201);
  if (failed) throw new Error(`fuzz world setup: ${failed.status} ${failed.text}`);
  return { upstream, secretItemId: steps[2]!.body.secret_item_id as string };
}
