/**
 * Every built-in tool, with its declared example arguments, executed through the broker against
 * its provider's sandbox: 200 with a non-empty result (unless the vendor answers 204), one audit event and one usage event for
 * the invocation, and exactly one request at the sandbox, which the described sandboxes found
 * valid against the vendor's description. One connection (or API key) per provider, shared by its tools.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_IN_PROVIDERS } from "../src/providers/built-in.js";
import type { BuiltInProvider } from "../src/providers/built-in-provider.js";
import { putPolicy } from "./support/approvals.js";
import { describeEachDatabase } from "./support/databases.js";
import { handleFor, sandboxOf, type Handle } from "./support/described/every-tool.js";
import { startFakeUpstreams, type FakeUpstreams } from "./support/fake-upstreams/index.js";
import { asOperator, call } from "./support/http.js";
import { execute, meteredExecutionsOf, startToolWorld, type ToolWorld } from "./support/tool-execution.js";
import { vendorOf } from "../src/sandbox/described/vendors/index.js";

const CASES = BUILT_IN_PROVIDERS.flatMap((provider) => provider.tools.map((tool) => ({ provider, tool: tool.name })));

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

const DESCRIBED = BUILT_IN_PROVIDERS.filter((provider) => !["scm", "chat", "tracker"].includes(provider.declaration.id));

describe("the sandbox of every described provider", () => {
  let fakes: FakeUpstreams;
  beforeAll(async () => {
    fakes = await startFakeUpstreams();
  });
  afterAll(() => fakes?.close());

  it.each(DESCRIBED.map((provider) => ({ id: provider.declaration.id, provider })))("$id serves the vendor's own description when the vendor publishes one", ({ id, provider }) => {
    const source = fakes.described[id]!.descriptionSource;
    if (provider.vendorDescription && "package" in provider.vendorDescription) {
      expect(source, `${id}: run scripts/vendor-openapi.ts to write vendor/openapi/${id}.json`).toBe("vendored");
    } else {
      expect(source, `${id}: its vendor publishes no description; the sandbox serves a derived one unless vendor/sandbox/${id}.json is written`).not.toBe("vendored");
    }
  });
});

describeEachDatabase("every built-in tool against its sandbox", (kind) => {
  let world: ToolWorld;
  const handles = new Map<string, Promise<Handle>>();

  beforeAll(async () => {
    world = await startToolWorld(kind);
    // High-risk tools would wait for a person; this test is about the request each tool sends.
    await putPolicy(world.broker, world.tenant, [{ id: "every-tool", effect: "allow", tools: ["*"] }]);
  }, 60_000);
  afterAll(() => world?.close());

  const handleOf = (provider: BuiltInProvider) => {
    const id = provider.declaration.id;
    if (!handles.has(id)) handles.set(id, handleFor(world, provider));
    return handles.get(id)!;
  };

  it.each(CASES)("$tool", async ({ provider, tool }) => {
    const example = provider.examples?.[tool];
    expect(example, `${tool} has no example arguments (BuiltInProvider.examples)`).toBeDefined();
    const handle = await handleOf(provider);
    const sandbox = sandboxOf(world.fakes, provider.declaration.id);
    const before = sandbox.stats.apiCalls.length;

    const result = await execute(world.broker, world.jwt, { tool_name: tool, arguments: example, ...handle });
    const calls = sandbox.stats.apiCalls.slice(before);
    const problems = calls.flatMap((recorded) => recorded.problems ?? []);
    expect({ status: result.status, problems }, `${result.text}\nsandbox records: ${JSON.stringify(calls)}`).toEqual({ status: 200, problems: [] });
    expect(calls, "the sandbox saw exactly one request for the call").toHaveLength(1);
    if (!calls[0]!.emptyAnswer) expect(isEmpty(result.body.result), `${tool} answered an empty result: ${result.text}`).toBe(false);

    const invocationId = result.body.invocation_id as string;
    const audit = await call(world.broker, "GET", `/v1/audit?tool=${encodeURIComponent(tool)}&limit=50`, asOperator(world.tenant));
    expect(audit.body.data.filter((event: { target?: { id?: string } }) => event.target?.id === invocationId).map((event: { action: string }) => event.action)).toEqual(["tool.executed"]);
    const metered = (await meteredExecutionsOf(world.broker, world.tenant.tenantId)).filter((execution) => execution.invocation_id === invocationId);
    expect(metered.map((execution) => execution.tool_name)).toEqual([tool]);
  });

  // Each vendor's refresh as it really is: Google and Dropbox send no new refresh token (the first
  // stays), Microsoft, Atlassian, Zoom and Box rotate it, HubSpot sends the same one back.
  const REFRESHING = DESCRIBED.filter((provider) => provider.declaration.auth.type === "oauth2" && (vendorOf(provider.declaration.id).oauth?.refresh ?? "none") !== "none");
  it.each(REFRESHING.map((provider) => ({ id: provider.declaration.id, refresh: vendorOf(provider.declaration.id).oauth!.refresh, provider })))(
    "$id: an expired access token is refreshed ($refresh refresh tokens), twice",
    async ({ id, provider }) => {
      const read = provider.tools.find((tool) => tool.side_effect === "read" && provider.examples?.[tool.name]) ?? provider.tools[0]!;
      const handle = await handleOf(provider);
      const sandbox = world.fakes.described[id]!;
      const before = sandbox.stats.refreshGrants;
      for (let round = 1; round <= 2; round += 1) {
        sandbox.expireAllAccessTokens();
        const result = await execute(world.broker, world.jwt, { tool_name: read.name, arguments: provider.examples?.[read.name] ?? {}, ...handle });
        expect(result.status, `round ${round}: ${result.text}`).toBe(200);
        expect(sandbox.stats.refreshGrants).toBe(before + round);
      }
    },
  );
});
