/**
 * A described vendor's authorization server, as its OAuthVariant says: which client
 * authentication the token endpoint takes, whether PKCE is checked, what a refresh returns, the
 * extra fields of its token responses. Errors are RFC 6749's (every vendor here words them so).
 */
import type { ServerResponse } from "node:http";
import { bearerToken, clientCredentials, header, sendEmpty, sendJson, sendText, type FakeRequest } from "../http.js";
import type { IssuedTokens } from "../oauth-state.js";
import { splitScopes, type ProviderCore } from "../provider-core.js";
import { fillTemplates, userValues } from "./templates.js";
import type { OAuthVariant } from "./vendor-config.js";

export type SandboxUser = Record<string, string>;

export function authorizeRules(variant: OAuthVariant) {
  const only = variant.refreshTokenOnlyWith;
  return {
    requireResponseType: false,
    unknownClient: (res: ServerResponse) => sendText(res, 400, "Error 401: invalid_client. The OAuth client was not found.", { "content-type": "text/html; charset=utf-8" }),
    deniedDescription: "The user denied access.",
    pkce: variant.pkce,
    ...(variant.requiredAuthorizeParams ? { requiredParams: variant.requiredAuthorizeParams } : {}),
    offline: (query: Record<string, string>) =>
      variant.refresh !== "none" && (!only || ("param" in only ? query[only.param] === only.value : splitScopes(query.scope).includes(only.scope))),
  };
}

/** Form fields, or a JSON object's (Atlassian documents its token endpoint with JSON). */
function tokenParams(req: FakeRequest): Record<string, string> {
  return { ...req.fields };
}

/**
 * An OpenID Connect ID token for `{id_token}` in a vendor's token fields: issued by the sandbox's
 * origin for the client, naming the user. Signed with nothing real: a client takes an ID token from
 * the token endpoint itself without checking its signature (OIDC Core 3.1.3.7).
 */
function idTokenFor(origin: string, clientId: string, user: SandboxUser, now: number): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const seconds = Math.floor(now / 1000);
  const claims = { iss: origin, aud: clientId, sub: user.id, email: user.email, email_verified: true, name: user.name, iat: seconds, exp: seconds + 3600 };
  return [part({ alg: "RS256", kid: "sandbox", typ: "JWT" }), part(claims), Buffer.from("sandbox-signature").toString("base64url")].join(".");
}

export async function handleTokenRequest(core: ProviderCore<SandboxUser>, variant: OAuthVariant, origin: string, req: FakeRequest, res: ServerResponse, now: () => number = Date.now): Promise<void> {
  if (await core.interceptToken(res)) return;
  const noStore = { "cache-control": "no-store", pragma: "no-cache" };
  const fail = (status: number, error: string, description: string) => sendJson(res, status, { error, error_description: description }, noStore);
  const params = tokenParams(req);
  const credentials = clientCredentials({ ...req, fields: params });
  if (variant.clientAuth === "client_secret_basic" && !credentials.viaBasic) return fail(401, "invalid_client", "client authentication must use HTTP Basic");
  if (variant.clientAuth === "client_secret_post" && credentials.viaBasic) return fail(401, "invalid_client", "client_id and client_secret must be sent in the request body");
  if (core.state.checkClient(credentials.clientId, credentials.clientSecret) !== "ok") return fail(401, "invalid_client", "Client authentication failed");

  const answer = (tokens: IssuedTokens<SandboxUser>, grantType: "authorization_code" | "refresh_token", refreshToken: string | undefined) => {
    core.stats.tokenGrants.push({ grantType, clientId: credentials.clientId! });
    const values = {
      origin,
      client_id: credentials.clientId!,
      "grant.scope": tokens.grant.scope,
      id_token: idTokenFor(origin, credentials.clientId!, tokens.grant.user, now()),
      ...userValues(tokens.grant.user),
    };
    const separator = variant.scopeSeparator === undefined ? " " : variant.scopeSeparator;
    const body = {
      access_token: tokens.accessToken,
      token_type: variant.tokenType ?? "Bearer",
      ...(variant.omitExpiresIn || variant.refresh === "none" ? {} : { expires_in: tokens.expiresIn }),
      ...(separator === null ? {} : { scope: splitScopes(tokens.grant.scope).join(separator) }),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
      ...(fillTemplates(variant.extraTokenFields ?? {}, values) as object),
      ...(grantType === "authorization_code" ? (fillTemplates(variant.extraCodeExchangeFields ?? {}, values) as object) : {}),
    };
    sendJson(res, 200, body, noStore);
  };

  if (params.grant_type === "authorization_code") {
    const result = core.state.exchangeCode({ code: params.code, redirectUri: params.redirect_uri, codeVerifier: variant.pkce === "ignored" ? undefined : params.code_verifier });
    if (!result.ok) return fail(400, "invalid_grant", result.reason.replaceAll("_", " "));
    core.stats.authorizationCodeGrants += 1;
    return answer(result.tokens, "authorization_code", result.tokens.refreshToken || undefined);
  }
  if (params.grant_type === "refresh_token" && variant.refresh !== "none") {
    const result = core.state.refresh(params.refresh_token);
    if (!result.ok) return fail(400, "invalid_grant", "the refresh token is invalid, expired or revoked");
    core.stats.refreshGrants += 1;
    const returned = variant.refresh === "kept" ? undefined : result.tokens.refreshToken;
    return answer(result.tokens, "refresh_token", returned);
  }
  if (!params.grant_type) return fail(400, "invalid_request", "grant_type is required");
  return fail(400, "unsupported_grant_type", `grant_type ${params.grant_type} is not supported`);
}

/** RFC 7009: `token` with client credentials, or the token itself as a Bearer (Dropbox). Unknown tokens are 200 too, as the RFC says. */
export function handleRevokeRequest(core: ProviderCore<SandboxUser>, req: FakeRequest, res: ServerResponse): void {
  const presented = bearerToken(header(req, "authorization"));
  let token = req.fields.token ?? (presented && core.state.kindOf(presented) ? presented : undefined);
  if (req.fields.token) {
    const credentials = clientCredentials(req);
    if (core.state.checkClient(credentials.clientId, credentials.clientSecret) !== "ok" && !presented) {
      return sendJson(res, 401, { error: "invalid_client", error_description: "Client authentication failed" });
    }
    token = req.fields.token;
  }
  if (!token) return sendJson(res, 400, { error: "invalid_request", error_description: "token is required" });
  if (core.state.revokeGrantOf(token)) core.stats.revocations += 1;
  sendEmpty(res, 200);
}
