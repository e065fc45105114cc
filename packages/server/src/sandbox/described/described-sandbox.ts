/**
 * One sandbox per described vendor: its OAuth variant (vendor-config.ts) and its API served from
 * its OpenAPI description (vendored, authored from the vendor's reference, or derived from the
 * tools when neither exists), on its own 127.0.0.1 port.
 */
import type { BuiltInProvider } from "../../providers/built-in-provider.js";
import { sendText, startServer, type RunningServer } from "../http.js";
import { randomAlphanumeric, randomToken } from "../oauth-state.js";
import { createProviderCore } from "../provider-core.js";
import type { FakeProvider } from "../types.js";
import { handleDescribedApi, type ApiContext } from "./api-handler.js";
import { authorizeRules, handleRevokeRequest, handleTokenRequest, type SandboxUser } from "./described-oauth.js";
import { derivedDescription, descriptionFileSource, indexDescription, readDescriptionFile, type DescriptionSource, type IndexedDescription, type JsonObject } from "./description.js";
import { DEFAULT_USER, type DescribedVendor } from "./vendor-config.js";
import { vendorOf } from "./vendors/index.js";

export type DescribedSandbox = FakeProvider<SandboxUser> & {
  providerId: string;
  descriptionSource: DescriptionSource;
  /** An API key as the vendor's settings page would show it, accepted from now on. */
  issueApiKey(): string;
  apiKeys: ReadonlySet<string>;
  /** API calls that failed validation or matched no operation (each with its `problems`). */
  invalidCalls(): FakeProvider<SandboxUser>["stats"]["apiCalls"];
};

export type DescribedSandboxOptions = {
  provider: Pick<BuiltInProvider, "declaration" | "tools" | "vendorDescription">;
  ttlSeconds: number;
  now: () => number;
  /** Defaults to the vendor's entry in ./vendors. */
  vendor?: DescribedVendor;
  /** An OpenAPI document to serve instead of the provider's files (tests of the sandbox itself). */
  description?: object;
};

const indexed = new Map<string, IndexedDescription>();

/** The document with the vendor's `notRequired` names taken out of every schema's `required` list. */
function withoutRequired(value: unknown, names: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutRequired(item, names));
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [
      key,
      key === "required" && Array.isArray(item) ? item.filter((name) => !(typeof name === "string" && names.has(name))) : withoutRequired(item, names),
    ]),
  );
}

/** Where the provider's description comes from, without reading it. */
function descriptionSourceOf(options: DescribedSandboxOptions): DescriptionSource {
  return options.description ? "authored" : (descriptionFileSource(options.provider.declaration.id) ?? "derived");
}

/** Indexed once per process and provider, on the first call that needs it (the suite starts sandboxes many times). */
function descriptionFor(options: DescribedSandboxOptions, pathPrefix: string, vendor: DescribedVendor): IndexedDescription {
  if (options.description) return indexDescription("authored", options.description);
  const id = options.provider.declaration.id;
  let found = indexed.get(id);
  if (!found) {
    const file = readDescriptionFile(id);
    const notRequired = new Set(vendor.notRequired ?? []);
    const document = file && notRequired.size ? (withoutRequired(file.document, notRequired) as typeof file.document) : file?.document;
    found = file && document ? indexDescription(file.source, document) : indexDescription("derived", derivedDescription(options.provider.tools, pathPrefix));
    indexed.set(id, found);
  }
  return found;
}

/** The path of the declaration's api_base_url, placeholders kept (`{instance_url}/services/data/v62.0` → /services/data/v62.0). */
export function apiBasePath(apiBaseUrl: string): string {
  const withoutOrigin = apiBaseUrl.replace(/^\{[^}]+\}/, "").replace(/^https?:\/\/[^/]+/, "");
  return withoutOrigin.replace(/\/+$/, "");
}

function basePathPattern(path: string): RegExp {
  const source = path
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}(?=/|$)`);
}

export async function startDescribedSandbox(options: DescribedSandboxOptions): Promise<{ provider: DescribedSandbox; server: RunningServer }> {
  const { declaration } = options.provider;
  const vendor = options.vendor ?? vendorOf(declaration.id);
  const variant = vendor.oauth;
  const pathPrefix = options.provider.vendorDescription && "package" in options.provider.vendorDescription ? (options.provider.vendorDescription.pathPrefix ?? "") : "";
  let description: IndexedDescription | undefined;
  const describe = () => (description ??= descriptionFor(options, pathPrefix, vendor));
  const core = createProviderCore<SandboxUser>({
    clientId: `sbx-${declaration.id}-${randomToken(6)}`,
    clientSecret: randomToken(20),
    ttlSeconds: options.ttlSeconds,
    now: options.now,
    defaultUser: vendor.user ?? DEFAULT_USER,
    newAccessToken: () => `${variant?.accessTokenPrefix ?? "sbx_at_"}${randomAlphanumeric(40)}`,
    newRefreshToken: () => `${variant?.refreshTokenPrefix ?? "sbx_rt_"}${randomAlphanumeric(48)}`,
    refreshRevokesOldAccessToken: false,
    rotateRefreshTokens: variant?.refresh === "rotating",
    accessTokensExpire: variant?.refresh !== "none",
  });
  const apiKeys = new Set<string>();
  const basePath = apiBasePath(declaration.api_base_url);
  let credentialQuery: Set<string> | undefined;
  const credentialQueryOf = () => {
    if (credentialQuery) return credentialQuery;
    credentialQuery = new Set<string>(declaration.auth.type === "api_key" && declaration.auth.in === "query" ? [declaration.auth.name] : []);
    for (const scheme of Object.values((describe().document.components?.securitySchemes ?? {}) as Record<string, { type?: string; in?: string; name?: string }>)) {
      if (scheme.type === "apiKey" && scheme.in === "query" && scheme.name) credentialQuery.add(scheme.name);
    }
    return credentialQuery;
  };
  let origin = "";
  const context: ApiContext = {
    core,
    vendor,
    get description() {
      return describe();
    },
    get credentialQuery() {
      return credentialQueryOf();
    },
    auth: declaration.auth,
    apiKeys,
    origin: () => origin,
    basePath: basePathPattern(basePath),
    pathPrefix,
    identity: declaration.identity,
    expectationFor: (operation) => {
      const tool = options.provider.tools.find((candidate) => candidate.request.method === operation.method && operation.pattern.test(`${pathPrefix}${candidate.request.path}`));
      if (!tool) return undefined;
      return { schema: (tool.response?.schema ?? { type: "object" }) as JsonObject, root: tool.response?.root ?? "", fields: Object.values(tool.response?.fields ?? {}) };
    },
  };
  const server = await startServer(async (req, res) => {
    if (variant && req.method === "GET" && req.path === variant.authorizePath) return core.handleAuthorize(req, res, authorizeRules(variant));
    if (variant && req.method === "POST" && req.path === variant.tokenPath) return handleTokenRequest(core, variant, origin, req, res, options.now);
    if (variant?.revokePath && req.method === "POST" && req.path === variant.revokePath) return handleRevokeRequest(core, req, res);
    if (req.path === "/favicon.ico") return sendText(res, 404, "Not Found");
    return handleDescribedApi(context, req, res);
  });
  origin = server.url;
  const env = sandboxEnv(declaration.id, origin, basePath, variant, core);
  const provider: DescribedSandbox = {
    ...core.publicProvider(origin, env),
    providerId: declaration.id,
    descriptionSource: descriptionSourceOf(options),
    apiKeys,
    issueApiKey: () => {
      const key = (vendor.apiKey?.keyTemplate ?? "sbx_key_{random}").replace(/\{random\}/g, () => randomAlphanumeric(32));
      apiKeys.add(key);
      core.state.rememberSecret(key);
      return key;
    },
    invalidCalls: () => core.stats.apiCalls.filter((call) => (call.problems ?? []).length > 0),
  };
  return { provider, server };
}

/** BROKER_PROVIDER_<ID>_*: the sandbox's OAuth endpoints and client, and its API base (the vendor's base path on the sandbox's origin). */
function sandboxEnv(id: string, origin: string, basePath: string, variant: DescribedVendor["oauth"], core: { clientId: string; clientSecret: string }): Record<string, string> {
  const prefix = `BROKER_PROVIDER_${id.toUpperCase()}_`;
  return {
    [`${prefix}API_BASE_URL`]: `${origin}${basePath}`,
    ...(variant
      ? {
          [`${prefix}CLIENT_ID`]: core.clientId,
          [`${prefix}CLIENT_SECRET`]: core.clientSecret,
          [`${prefix}AUTHORIZE_URL`]: `${origin}${variant.authorizePath}`,
          [`${prefix}TOKEN_URL`]: `${origin}${variant.tokenPath}`,
          ...(variant.revokePath ? { [`${prefix}REVOKE_URL`]: `${origin}${variant.revokePath}` } : {}),
        }
      : {}),
  };
}
