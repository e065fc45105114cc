/**
 * Issue 36: a tenant's compiled tools are its own. Tenants at the tools-per-tenant limit neither
 * evict another tenant's compiled tools nor recompile their own on every rebuild.
 */
import { describe, expect, it } from "vitest";
import { manualClock } from "../clock.js";
import { providerCatalogueOf } from "../providers/catalogue.js";
import { createToolCompiler, toolCatalogueOf } from "./tool-catalogue.js";
import type { StoredProvider, StoredTool } from "./catalogue-queries.js";
import { CATALOGUE_LIMITS } from "./catalogue-limits.js";
import { createTenantCatalogue } from "./tenant-catalogue.js";

const at = "2026-01-15T12:00:00.000Z";

const providerOf = (tenantId: string): StoredProvider => ({
  id: `${tenantId}-provider`,
  tenantId,
  env: "both",
  declaration: { id: "bulk", display_name: "Bulk", api_base_url: "http://127.0.0.1:9/api", auth: { type: "api_key", in: "header", name: "X-Key" } },
  createdAt: at,
  updatedAt: at,
});

const toolsOf = (tenantId: string, count: number): StoredTool[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `${tenantId}-tool-${i}`,
    tenantId,
    providerId: "bulk",
    env: "both",
    source: "openapi",
    declaration: {
      name: `bulk.get_${i}`,
      description: `Get ${i}`,
      arguments_schema: { type: "object", properties: { id: { type: "string", maxLength: i + 1 } }, required: ["id"] },
      risk: "low",
      side_effect: "read",
      request: { method: "GET", path: `/items/${i}/{id}` },
    },
    createdAt: at,
    updatedAt: at,
  }));

function catalogueOver(tenants: Record<string, StoredTool[]>) {
  const clock = manualClock(new Date(at));
  const compiler = createToolCompiler({ linearPatterns: true });
  const compiled: string[] = [];
  const counting = { ...compiler, compile: ((tool, provider) => (compiled.push(tool.name), compiler.compile(tool, provider))) as typeof compiler.compile };
  const queries = {
    listProviders: async (tenantId: string) => (tenants[tenantId] ? [providerOf(tenantId)] : []),
    listTools: async (tenantId: string) => tenants[tenantId] ?? [],
  };
  const builtIn = { providers: providerCatalogueOf([]), tools: toolCatalogueOf([]) };
  const catalogue = createTenantCatalogue({ builtIn, queries: queries as never, compiler: counting, clock });
  return { catalogue, clock, compiled };
}

describe("compiled tools of a tenant's own catalogue", () => {
  it("keeps another tenant's compiled tools while three tenants sit at the tools-per-tenant limit, and reuses theirs on every rebuild", async () => {
    const limit = CATALOGUE_LIMITS.toolsPerTenant;
    const crowd = ["a", "b", "c"];
    const tenants: Record<string, StoredTool[]> = { victim: toolsOf("victim", 1) };
    for (const tenantId of crowd) tenants[tenantId] = toolsOf(tenantId, limit);
    const { catalogue, clock, compiled } = catalogueOver(tenants);

    const victimView = await catalogue.view({ tenantId: "victim", env: "test" });
    victimView.tools.validateArguments(victimView.tools.resolve("bulk.get_0"), { id: "x" });
    for (const tenantId of crowd) expect((await catalogue.view({ tenantId, env: "test" })).tools.names()).toHaveLength(limit);
    expect(compiled).toHaveLength(1 + 3 * limit);

    // Every declaration is read again after 2 s; nothing changed, so nothing is compiled again.
    clock.advance(2_000);
    for (const tenantId of crowd) await catalogue.view({ tenantId, env: "test" });
    const victimAgain = await catalogue.view({ tenantId: "victim", env: "test" });
    expect(compiled).toHaveLength(1 + 3 * limit);
    expect(victimAgain.tools.resolve("bulk.get_0")).toBe(victimView.tools.resolve("bulk.get_0"));
    expect(catalogue.compiledToolsOf("victim")).toBe(1);
    expect(catalogue.compiledToolsOf("a")).toBe(limit);
  });

  it("recompiles only the tool whose declaration changed, and drops the ones removed", async () => {
    const tenants: Record<string, StoredTool[]> = { t: toolsOf("t", 3) };
    const { catalogue, clock, compiled } = catalogueOver(tenants);
    await catalogue.view({ tenantId: "t" });
    expect(compiled).toEqual(["bulk.get_0", "bulk.get_1", "bulk.get_2"]);
    tenants.t = [{ ...tenants.t![0]!, updatedAt: "2026-01-15T12:00:01.000Z" }, tenants.t![1]!];
    clock.advance(2_000);
    const view = await catalogue.view({ tenantId: "t" });
    expect(compiled).toEqual(["bulk.get_0", "bulk.get_1", "bulk.get_2", "bulk.get_0"]);
    expect(view.tools.names()).toEqual(["bulk.get_0", "bulk.get_1"]);
    expect(catalogue.compiledToolsOf("t")).toBe(2);
  });
});
