/**
 * Fake Linear: OAuth 2 (/oauth/authorize, /oauth/token, /oauth/revoke) with standard RFC 6749
 * errors and rotating refresh tokens, plus the GraphQL API at /graphql, which also takes personal
 * API keys sent bare in the Authorization header.
 */
import type { ServerResponse } from "node:http";
import { bearerToken, clientCredentials, header, sendEmpty, sendJson, sendText, startServer, type FakeRequest, type RunningServer } from "./http.js";
import { randomAlphanumeric, randomToken } from "./oauth-state.js";
import { createProviderCore, providerEnv, splitScopes, type ProviderCore } from "./provider-core.js";
import { createLinearStore, handleLinearGraphQL } from "./linear-api.js";
import type { LinearFake, LinearUser } from "./types.js";

export const DEFAULT_LINEAR_USER: LinearUser = {
  id: "2e5b6c1a-7f3d-4e2a-9b1c-8d7e6f5a4b3c",
  name: "Ada Lovelace",
  email: "ada@example.com",
  organizationName: "Analytical Engines",
  urlKey: "analytical",
};

export async function startLinearFake(options: { ttlSeconds: number; now: () => number }): Promise<{ provider: LinearFake; server: RunningServer }> {
  const core = createProviderCore<LinearUser>({
    clientId: randomToken(16),
    clientSecret: randomToken(16),
    ttlSeconds: options.ttlSeconds,
    now: options.now,
    defaultUser: DEFAULT_LINEAR_USER,
    newAccessToken: () => `lin_oauth_${randomToken(32)}`,
    newRefreshToken: () => `lin_refresh_${randomToken(32)}`,
    refreshRevokesOldAccessToken: false,
  });
  const apiKeys = new Map<string, LinearUser>();
  const store = createLinearStore(options.now);
  const server = await startServer(async (req, res) => {
    if (req.path === "/oauth/authorize" && req.method === "GET") {
      return core.handleAuthorize(req, res, {
        requireResponseType: true,
        unknownClient: (response) => sendText(response, 400, "Invalid client_id", { "content-type": "text/html; charset=utf-8" }),
        deniedDescription: "The user denied the authorization request.",
      });
    }
    if (req.path === "/oauth/token" && req.method === "POST") return handleToken(core, req, res);
    if (req.path === "/oauth/revoke" && req.method === "POST") return handleRevoke(core, req, res);
    if (req.path === "/graphql") return handleLinearGraphQL({ core, now: options.now, apiKeys, store }, req, res);
    return sendText(res, 404, "Not Found");
  });
  const url = server.url;
  const env = providerEnv("TRACKER", {
    clientId: core.clientId,
    clientSecret: core.clientSecret,
    authorizeUrl: `${url}/oauth/authorize`,
    tokenUrl: `${url}/oauth/token`,
    apiBaseUrl: url,
    revokeUrl: `${url}/oauth/revoke`,
  });
  const keySet = new Set<string>();
  const provider: LinearFake = {
    ...core.publicProvider(url, env),
    apiKeys: keySet,
    addApiKey: (key = `lin_api_${randomAlphanumeric(40)}`) => {
      keySet.add(key);
      apiKeys.set(key, core.currentUser());
      core.state.rememberSecret(key);
      return key;
    },
  };
  return { provider, server };
}

/** RFC 6749 §5.2 errors: HTTP 400 (401 for client authentication via Basic) with `{error, error_description}`. */
async function handleToken(core: ProviderCore<LinearUser>, req: FakeRequest, res: ServerResponse): Promise<void> {
  if (await core.interceptToken(res)) return;
  const noStore = { "cache-control": "no-store", pragma: "no-cache" };
  const fail = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
    sendJson(res, status, { error, error_description: description }, { ...noStore, ...headers });
  if (!String(header(req, "content-type") ?? "").includes("application/x-www-form-urlencoded")) {
    return fail(400, "invalid_request", "Content-Type must be application/x-www-form-urlencoded");
  }
  const params = req.fields;
  const credentials = clientCredentials(req);
  if (core.state.checkClient(credentials.clientId, credentials.clientSecret) !== "ok") {
    return credentials.viaBasic
      ? fail(401, "invalid_client", "Client authentication failed", { "www-authenticate": 'Basic realm="linear"' })
      : fail(400, "invalid_client", "Client authentication failed");
  }
  if (params.grant_type === "authorization_code") {
    const result = core.state.exchangeCode({ code: params.code, redirectUri: params.redirect_uri, codeVerifier: params.code_verifier });
    if (!result.ok) {
      const description = {
        invalid_code: "Invalid authorization code",
        code_reused: "Authorization code has already been used",
        code_expired: "Authorization code has expired",
        redirect_mismatch: "redirect_uri does not match the one used in the authorization request",
        pkce_mismatch: "code_verifier does not match the code_challenge",
      }[result.reason];
      return fail(400, "invalid_grant", description);
    }
    core.stats.authorizationCodeGrants += 1;
    return sendJson(res, 200, tokenBody(result.tokens), noStore);
  }
  if (params.grant_type === "refresh_token") {
    const result = core.state.refresh(params.refresh_token);
    if (!result.ok) return fail(400, "invalid_grant", "Invalid refresh token");
    core.stats.refreshGrants += 1;
    return sendJson(res, 200, tokenBody(result.tokens), noStore);
  }
  if (!params.grant_type) return fail(400, "invalid_request", "grant_type is required");
  return fail(400, "unsupported_grant_type", `Unsupported grant type: ${params.grant_type}`);
}

function tokenBody(tokens: { accessToken: string; refreshToken: string; expiresIn: number; grant: { scope: string } }) {
  return {
    access_token: tokens.accessToken,
    token_type: "Bearer",
    expires_in: tokens.expiresIn,
    scope: splitScopes(tokens.grant.scope).join(" "),
    refresh_token: tokens.refreshToken,
  };
}

/**
 * Bearer access token in the header, or RFC 7009 `token` (+ `token_type_hint`) with client
 * credentials. 200 when revoked, 400 when the token cannot be revoked, 401 without credentials.
 */
function handleRevoke(core: ProviderCore<LinearUser>, req: FakeRequest, res: ServerResponse): void {
  let token = bearerToken(header(req, "authorization"));
  if (!token && req.fields.token) {
    const credentials = clientCredentials(req);
    if (core.state.checkClient(credentials.clientId, credentials.clientSecret) !== "ok") {
      return sendJson(res, 401, { error: "invalid_client", error_description: "Client authentication failed" });
    }
    token = req.fields.token;
  }
  if (!token) return sendJson(res, 401, { error: "invalid_request", error_description: "No token to revoke" });
  if (!core.state.revokeGrantOf(token)) return sendJson(res, 400, { error: "invalid_token", error_description: "Token could not be revoked" });
  core.stats.revocations += 1;
  sendEmpty(res, 200);
}
