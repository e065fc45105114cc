/**
 * What one tenant sees in one env: the built-in providers and tools plus the ones it declared.
 * Declarations are read at most every 2 s per tenant (and at once after a change on this
 * instance); a tool's compiled validators are kept for as long as its declaration is unchanged,
 * in a bucket of the tenant's own (compiled-tools.ts).
 */
import type { Clock } from "../clock.js";
import type { TestOrLive } from "../ids.js";
import { providerCatalogueOf, resolveTenantDefined, type ProviderCatalogue, type ResolvedProvider } from "../providers/catalogue.js";
import { createTtlCache } from "../ttl-cache.js";
import { toolCatalogueOf, type createToolCompiler, type ToolCatalogue } from "./tool-catalogue.js";
import type { CatalogueQueries, CatalogueEnv, StoredProvider, StoredTool } from "./catalogue-queries.js";
import { createCompiledTools } from "./compiled-tools.js";
import { storedProviderProblem } from "./declaration-checks.js";
import { providerFromDeclaration } from "../providers/declared-provider.js";

/** A tenant, and the env it acts in (none: every env, for views that span both). */
export type CatalogueScope = { tenantId: string; env?: TestOrLive | undefined };
export type CatalogueView = { providers: ProviderCatalogue; tools: ToolCatalogue };

const DECLARATIONS_TTL_MS = 2_000;

type TenantDeclarations = { providers: StoredProvider[]; tools: StoredTool[]; views: Map<string, CatalogueView> };

type TenantCatalogueDeps = {
  builtIn: CatalogueView;
  queries: Pick<CatalogueQueries, "listProviders" | "listTools">;
  compiler: ReturnType<typeof createToolCompiler>;
  clock: Clock;
};

const servesEnv = (declared: CatalogueEnv, env: TestOrLive | undefined) => env === undefined || declared === "both" || declared === env;

export function createTenantCatalogue({ builtIn, queries, compiler, clock }: TenantCatalogueDeps) {
  const declarations = createTtlCache<TenantDeclarations>({ clock, ttlMs: DECLARATIONS_TTL_MS });
  const compiled = createCompiledTools({ compiler });

  async function load(tenantId: string): Promise<TenantDeclarations> {
    const cached = declarations.get(tenantId);
    if (cached) return cached;
    const [providers, tools] = await Promise.all([queries.listProviders(tenantId), queries.listTools(tenantId)]);
    const loaded = { providers, tools, views: new Map<string, CatalogueView>() };
    declarations.set(tenantId, loaded);
    compiled.keepOnly(tenantId, tools);
    return loaded;
  }

  function buildView({ providers, tools }: TenantDeclarations, env: TestOrLive | undefined): CatalogueView {
    // A declaration stored before a check existed is left out (its tenant sees it flagged), not a 500 for every caller.
    const own = providers.filter((p) => servesEnv(p.env, env) && storedProviderProblem(p.declaration) === undefined);
    const resolved = new Map<string, { provider: ResolvedProvider; version: string }>();
    for (const provider of builtIn.providers.list()) resolved.set(provider.id, { provider, version: "built-in" });
    for (const stored of own) {
      resolved.set(stored.declaration.id, { provider: resolveTenantDefined(providerFromDeclaration(stored.declaration, [])), version: stored.updatedAt });
    }
    const ownTools = tools.flatMap((stored) => {
      const target = resolved.get(stored.providerId);
      return target && servesEnv(stored.env, env) ? [compiled.compiled(stored, target.provider, target.version)] : [];
    });
    const allProviders = [...resolved.values()].map(({ provider }) => {
      const added = ownTools.filter((entry) => entry.provider.id === provider.id).map((entry) => entry.tool);
      return added.length ? { ...provider, tools: [...provider.tools, ...added] } : provider;
    });
    // The tenant's own tools after the built-in ones, in code-unit order of their names (whatever the
    // database's collation): model-safe names go to the first tool that has them, the same on every instance.
    const ordered = [...ownTools].sort((a, b) => (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0));
    return { providers: providerCatalogueOf(allProviders), tools: toolCatalogueOf([...builtInEntries(), ...ordered]) };
  }

  const builtInEntries = () => builtIn.tools.names().map((name) => builtIn.tools.resolve(name));

  return {
    async view({ tenantId, env }: CatalogueScope): Promise<CatalogueView> {
      const loaded = await load(tenantId);
      if (loaded.providers.length === 0 && loaded.tools.length === 0) return builtIn;
      const key = env ?? "all";
      let view = loaded.views.get(key);
      if (!view) {
        view = buildView(loaded, env);
        loaded.views.set(key, view);
        compiled.recount(tenantId);
      }
      return view;
    },
    /** After a change on this instance: the next view reads the declarations again. */
    invalidate: (tenantId: string) => declarations.delete(tenantId),
    /** How many compiled tools of the tenant's own are held. */
    compiledToolsOf: (tenantId: string) => compiled.heldBy(tenantId),
    builtIn,
  };
}

export type TenantCatalogue = ReturnType<typeof createTenantCatalogue>;
