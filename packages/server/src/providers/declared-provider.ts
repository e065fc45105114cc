/**
 * A provider declaration turned into the provider the broker connects and calls: standard
 * OAuth 2 (RFC 6749, PKCE, RFC 7009 revocation) or an API key in a header or query parameter.
 * The built-in providers are declarations too, plus the named hooks their vendors' quirks need
 * (see providers/<id>/). A tenant-defined provider has no hooks and no broker-wide OAuth client:
 * its OAuth connects use the tenant's own app (PUT /v1/providers/{id}/oauth-client).
 */
import type { AccountIdentity, ApiCaller, OAuthSettings, PresentedCredential, ProviderDefinition, ProviderHooks, ToolDefinition } from "./provider-types.js";
import { bearer } from "./provider-types.js";
import type { ProviderDeclaration, ToolDeclaration } from "./declaration-schema.js";
import { resolvePointer, toolFromDeclaration } from "./declared-tool.js";

type OAuth2Declaration = Extract<ProviderDeclaration["auth"], { type: "oauth2" }>;

function revocationOf(auth: OAuth2Declaration): OAuthSettings["revocation"] {
  if (!auth.revocation_url) return undefined;
  // Slack and Linear take the token to revoke as the call's own credential, with an empty form.
  if (auth.revocation_style === "bearer") {
    return ({ token, revokeUrl }) => ({ url: revokeUrl, request: { method: "POST", path: "", headers: { authorization: `Bearer ${token}` }, form: {} } });
  }
  return ({ token, clientId, clientSecret, revokeUrl }) => ({
    url: revokeUrl,
    request: { method: "POST", path: "", form: { token, client_id: clientId, client_secret: clientSecret } },
  });
}

function oauthSettings(auth: OAuth2Declaration, hooks: ProviderHooks["oauth"] = {}): OAuthSettings {
  const revocation = hooks.revocation ?? revocationOf(auth);
  return {
    authorizeUrl: auth.authorize_url,
    tokenUrl: auth.token_url,
    ...(auth.revocation_url ? { revokeUrl: auth.revocation_url } : {}),
    defaultScopes: auth.scopes ?? [],
    scopeSeparator: auth.scope_separator ?? " ",
    pkce: auth.pkce ?? true,
    clientAuth: auth.client_auth ?? "client_secret_post",
    tokensExpire: auth.refresh !== "none",
    ...(auth.authorize_params ? { authorizeParams: auth.authorize_params } : {}),
    ...(hooks.inspectTokenResponse ? { inspectTokenResponse: hooks.inspectTokenResponse } : {}),
    invalidGrantErrors: auth.invalid_grant_errors ?? ["invalid_grant"],
    ...(auth.extra_token_types ? { extraTokenTypes: auth.extra_token_types } : {}),
    ...(revocation ? { revocation } : {}),
  };
}

function credentialPresenter(auth: ProviderDeclaration["auth"], presentApiKey: ProviderHooks["presentApiKey"]): ProviderDefinition["presentCredential"] {
  // A vendor whose key is more than one value (Trello's key and token) presents it with its hook.
  if (auth.type === "api_key" && presentApiKey) return ({ secret }) => presentApiKey(secret);
  if (auth.type === "oauth2") {
    // A provider with a second auth mode tells the credentials apart by their kind.
    return presentApiKey ? ({ kind, secret }) => (kind === "api_key" ? presentApiKey(secret) : bearer(secret)) : ({ secret }) => bearer(secret);
  }
  // format basic: the stored `user:password` travels as HTTP Basic credentials (Zendesk's `email/token:api_token`).
  const encoded = auth.format === "basic" ? (secret: string) => Buffer.from(secret, "utf8").toString("base64") : (secret: string) => secret;
  const value = (secret: string) => `${auth.prefix ?? ""}${encoded(secret)}`;
  return auth.in === "header"
    ? ({ secret }) => ({ headers: { [auth.name.toLowerCase()]: value(secret) } })
    : ({ secret }): PresentedCredential => ({ headers: {}, query: { [auth.name]: value(secret) } });
}

function identityReader(declaration: ProviderDeclaration) {
  const identity = declaration.identity;
  return async (api: ApiCaller): Promise<AccountIdentity> => {
    if (!identity) return { displayName: declaration.display_name, accountId: declaration.id };
    const response = await api({ method: "GET", path: identity.path });
    const accountId = resolvePointer(response.body, identity.account_id);
    if (response.status !== 200 || (typeof accountId !== "string" && typeof accountId !== "number")) {
      throw new Error(`${declaration.display_name} ${identity.path} answered ${response.status} without an account id`);
    }
    const displayName = identity.display_name ? resolvePointer(response.body, identity.display_name) : undefined;
    return { accountId: String(accountId), displayName: typeof displayName === "string" && displayName ? displayName : String(accountId) };
  };
}

function authModesOf(declaration: ProviderDeclaration, hooks: ProviderHooks | undefined): ToolDefinition["authModes"] {
  // On an api_key provider the hook replaces how the declared key is presented; on an oauth2 one it adds API keys.
  if (!hooks?.presentApiKey || declaration.auth.type === "api_key") return [declaration.auth.type];
  return ["oauth2", "api_key"];
}

/**
 * `hooks`: the code a built-in provider adds (only the broker's own providers have any); a
 * provider built without them is tenant-defined, and its URLs are checked on every connection.
 */
export function providerFromDeclaration(declaration: ProviderDeclaration, tools: readonly ToolDeclaration[], hooks?: ProviderHooks): ProviderDefinition {
  const authModes = authModesOf(declaration, hooks);
  const caseInsensitiveArguments = declaration.case_insensitive_arguments ?? [];
  const toolHooks = hooks?.tools ?? {};
  const unknown = Object.keys(toolHooks).filter((name) => !tools.some((tool) => tool.name === name));
  if (unknown.length) throw new Error(`${declaration.id}: hooks for undeclared tools ${unknown.join(", ")}`);
  return {
    id: declaration.id,
    displayName: declaration.display_name,
    ...(declaration.description !== undefined ? { description: declaration.description } : {}),
    ...(declaration.icon !== undefined ? { icon: declaration.icon } : {}),
    authModes,
    apiBaseUrl: declaration.api_base_url,
    ...(declaration.auth.type === "api_key" && declaration.auth.format === "basic" ? { apiKeyFormat: "basic" as const } : {}),
    ...(declaration.connection_values ? { connectionValues: declaration.connection_values } : {}),
    ...(declaration.auth.type === "oauth2" ? { oauth: oauthSettings(declaration.auth, hooks?.oauth) } : {}),
    apiHeaders: Object.fromEntries(Object.entries(declaration.default_headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
    presentCredential: credentialPresenter(declaration.auth, hooks?.presentApiKey),
    fetchIdentity: hooks?.fetchIdentity ?? identityReader(declaration),
    ...(hooks?.inspectApiResponse ? { inspectApiResponse: hooks.inspectApiResponse } : {}),
    caseInsensitiveArguments,
    tools: tools.map((tool) => toolFromDeclaration(tool, { authModes, caseInsensitiveArguments }, toolHooks[tool.name])),
    ...(hooks ? {} : { tenantDefined: true }),
  };
}
