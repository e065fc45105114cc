/**
 * The provider catalogue with each provider's effective settings: the vendor's real URLs unless
 * `BROKER_PROVIDER_<NAME>_*` overrides them, and its OAuth client credentials.
 */
import { providerFromDeclaration } from "./declared-provider.js";
import type { Config, ProviderOverrides } from "../config.js";
import { BrokerError } from "../errors.js";
import { BUILT_IN_PROVIDERS } from "./built-in.js";
import { basePlaceholders } from "./connection-values.js";
import type { OAuthSettings, ProviderDefinition, ToolDefinition } from "./provider-types.js";

/** Built by the same code as a tenant's providers, with each built-in's hooks. */
export const PROVIDERS: readonly ProviderDefinition[] = BUILT_IN_PROVIDERS.map(({ declaration, tools, hooks, aliases, oauthClientFamily }) => ({
  ...providerFromDeclaration(declaration, tools, hooks),
  ...(aliases?.length ? { aliases } : {}),
  ...(oauthClientFamily ? { oauthClientFamily } : {}),
}));

export type ResolvedProvider = ProviderDefinition & {
  apiBaseUrl: string;
  /** BROKER_PROVIDER_<ID>_API_BASE_URL replaced the declared base URL (a sandbox): see connection-values.ts. */
  apiBaseOverridden?: boolean;
  oauth: (OAuthSettings & { revokeUrl?: string }) | undefined;
  client: { clientId: string; clientSecret: string } | undefined;
  /** Environment variables still needed before operators can connect it through OAuth. */
  missing: string[];
};

const envName = (providerId: string, field: string) => `BROKER_PROVIDER_${providerId.toUpperCase()}_${field}`;

/**
 * The environment variables a built-in provider needs before operators can connect it (the
 * provider table in docs/catalogue.md): its family's client for a family member (its own pair may
 * replace it).
 */
export const requiredEnvironment = (definition: Pick<ProviderDefinition, "id" | "oauth" | "oauthClientFamily">): string[] => {
  if (!definition.oauth) return [];
  const owner = definition.oauthClientFamily ?? definition.id;
  return [envName(owner, "CLIENT_ID"), envName(owner, "CLIENT_SECRET")];
};

/** A client id and secret given together; a lone id or secret is no client. */
const clientOf = (overrides: ProviderOverrides) => (overrides.clientId && overrides.clientSecret ? { clientId: overrides.clientId, clientSecret: overrides.clientSecret } : undefined);

/**
 * `family`: BROKER_PROVIDER_<FAMILY>_* of a family member. The provider's own client pair wins
 * over the family's (never mixed: an id of one with a secret of the other is no client), and each
 * URL the provider does not override falls back to the family's (a Microsoft tenant pinned once).
 */
function resolve(definition: ProviderDefinition, overrides: ProviderOverrides = {}, family: ProviderOverrides = {}): ResolvedProvider {
  const url = (field: "authorizeUrl" | "tokenUrl" | "revokeUrl") => overrides[field] ?? family[field];
  const oauth = definition.oauth
    ? {
        ...definition.oauth,
        authorizeUrl: url("authorizeUrl") ?? definition.oauth.authorizeUrl,
        tokenUrl: url("tokenUrl") ?? definition.oauth.tokenUrl,
        ...((url("revokeUrl") ?? definition.oauth.revokeUrl) ? { revokeUrl: url("revokeUrl") ?? definition.oauth.revokeUrl } : {}),
      }
    : undefined;
  const client = clientOf(overrides) ?? (definition.oauthClientFamily ? clientOf(family) : undefined);
  const missing: string[] = [];
  if (oauth && !client) {
    const [clientIdVariable, clientSecretVariable] = requiredEnvironment(definition) as [string, string];
    const given = definition.oauthClientFamily ? family : overrides;
    if (!given.clientId) missing.push(clientIdVariable);
    if (!given.clientSecret) missing.push(clientSecretVariable);
  }
  const undeclared = basePlaceholders(overrides.apiBaseUrl ?? "").filter((name) => !definition.connectionValues?.[name]);
  if (undeclared.length) throw new Error(`${envName(definition.id, "API_BASE_URL")} names {${undeclared.join("}, {")}}, which provider "${definition.id}" does not declare as a connection value`);
  return {
    ...definition,
    apiBaseUrl: overrides.apiBaseUrl ?? definition.apiBaseUrl,
    ...(overrides.apiBaseUrl !== undefined ? { apiBaseOverridden: true } : {}),
    oauth,
    client,
    missing,
  };
}

/** A tenant-defined provider has no broker-wide client: OAuth connects need the tenant's own app. */
export function resolveTenantDefined(definition: ProviderDefinition): ResolvedProvider {
  return { ...definition, oauth: definition.oauth, client: undefined, missing: definition.oauth ? [`PUT /v1/providers/${definition.id}/oauth-client`] : [] };
}

export function createProviderCatalogue(config: Pick<Config, "providers">, definitions: readonly ProviderDefinition[] = PROVIDERS) {
  return providerCatalogueOf(definitions.map((d) => resolve(d, config.providers[d.id], d.oauthClientFamily ? config.providers[d.oauthClientFamily] : undefined)));
}

/** Lookups over a set of resolved providers: the built-in ones, or those a tenant sees. */
export function providerCatalogueOf(resolved: readonly ResolvedProvider[]) {
  const providers = new Map(resolved.map((p) => [p.id, p]));
  const tools = new Map<string, { tool: ToolDefinition; provider: ResolvedProvider }>();
  for (const provider of providers.values()) for (const tool of provider.tools) tools.set(tool.name, { tool, provider });
  // An id names its own provider first; an alias (`github`) the built-in one it stands for.
  const aliased = new Map(resolved.flatMap((p) => (p.aliases ?? []).map((alias) => [alias, p] as const)));
  const find = (id: string) => providers.get(id) ?? aliased.get(id);

  return {
    list: () => [...providers.values()],
    has: (id: string) => find(id) !== undefined,
    /** The id a provider is stored under, for an id or alias the catalogue knows; otherwise `id` as given. */
    canonicalId: (id: string) => find(id)?.id ?? id,
    get(id: string): ResolvedProvider {
      const provider = find(id);
      if (!provider) {
        const known = [...providers.keys()];
        throw new BrokerError("not_found", `provider "${id}" not found; known providers: ${known.join(", ")}`, { known_providers: known });
      }
      return provider;
    },
    requireOAuthClient,
    readiness: () =>
      [...providers.values()].map((p) => ({ id: p.id, ready: p.missing.length === 0, ...(p.missing.length ? { missing: p.missing } : {}) })),
    tools: () => [...tools.values()],
    findTool: (name: string) => tools.get(name),
  };
}

export type ProviderCatalogue = ReturnType<typeof providerCatalogueOf>;

/** The providers a tenant sees in an env (built-in and its own): see catalogue/tenant-catalogue.ts. */
export type ScopedProviders = { view(scope: { tenantId: string; env?: "test" | "live" | undefined }): Promise<{ providers: ProviderCatalogue }> };

/** OAuth needs a client id and secret; the 422 says how to give them. */
export function requireOAuthClient(provider: ResolvedProvider) {
  if (!provider.oauth) throw new BrokerError("unprocessable", `provider "${provider.id}" does not support OAuth connections`);
  if (!provider.client) {
    const how = provider.tenantDefined ? `give it the tenant's own OAuth app with ${provider.missing.join("")}` : `set ${provider.missing.join(" and ")}`;
    throw new BrokerError("provider_not_configured", `provider "${provider.id}" is not configured: ${how}`, { provider: provider.id, missing: provider.missing });
  }
  return { oauth: provider.oauth, client: provider.client };
}
