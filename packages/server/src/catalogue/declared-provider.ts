/**
 * A provider declaration turned into the provider the broker connects and calls: standard
 * OAuth 2 (RFC 6749, PKCE, RFC 7009 revocation) or an API key in a header or query parameter.
 * A tenant-defined provider has no broker-wide OAuth client: its OAuth connects use the tenant's
 * own app (PUT /v1/providers/{id}/oauth-client).
 */
import type { AccountIdentity, ApiCaller, OAuthSettings, PresentedCredential, ProviderDefinition, ToolDefinition } from "../providers/provider-types.js";
import { bearer } from "../providers/provider-types.js";
import type { ProviderDeclaration, ToolDeclaration } from "./declaration-schema.js";
import { resolvePointer, toolFromDeclaration } from "./declared-tool.js";

function oauthSettings(auth: Extract<ProviderDeclaration["auth"], { type: "oauth2" }>): OAuthSettings {
  return {
    authorizeUrl: auth.authorize_url,
    tokenUrl: auth.token_url,
    ...(auth.revocation_url ? { revokeUrl: auth.revocation_url } : {}),
    defaultScopes: auth.scopes ?? [],
    scopeSeparator: auth.scope_separator ?? " ",
    pkce: auth.pkce ?? true,
    tokensExpire: auth.refresh !== "none",
    ...(auth.authorize_params ? { authorizeParams: auth.authorize_params } : {}),
    invalidGrantErrors: ["invalid_grant"],
    ...(auth.revocation_url
      ? {
          revocation: ({ token, clientId, clientSecret, revokeUrl }) => ({
            url: revokeUrl,
            request: { method: "POST" as const, path: "", form: { token, client_id: clientId, client_secret: clientSecret } },
          }),
        }
      : {}),
  };
}

function credentialPresenter(auth: ProviderDeclaration["auth"]): (credential: { secret: string }) => PresentedCredential {
  if (auth.type === "oauth2") return ({ secret }) => bearer(secret);
  const value = (secret: string) => `${auth.prefix ?? ""}${secret}`;
  return auth.in === "header" ? ({ secret }) => ({ headers: { [auth.name.toLowerCase()]: value(secret) } }) : ({ secret }) => ({ headers: {}, query: { [auth.name]: value(secret) } });
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

export function providerFromDeclaration(declaration: ProviderDeclaration, tools: readonly ToolDeclaration[]): ProviderDefinition {
  const authModes: ToolDefinition["authModes"] = [declaration.auth.type];
  const presenter = credentialPresenter(declaration.auth);
  const caseInsensitiveArguments = declaration.case_insensitive_arguments ?? [];
  return {
    id: declaration.id,
    displayName: declaration.display_name,
    authModes,
    apiBaseUrl: declaration.api_base_url,
    ...(declaration.auth.type === "oauth2" ? { oauth: oauthSettings(declaration.auth) } : {}),
    apiHeaders: Object.fromEntries(Object.entries(declaration.default_headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])),
    presentCredential: presenter,
    fetchIdentity: identityReader(declaration),
    caseInsensitiveArguments,
    tools: tools.map((tool) => toolFromDeclaration(tool, { authModes, caseInsensitiveArguments })),
    tenantDefined: true,
  };
}
