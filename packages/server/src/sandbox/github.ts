/**
 * Fake GitHub: OAuth web flow at /login/oauth/*, expiring user tokens with rotating refresh tokens
 * (as GitHub Apps issue them: ghu_/ghr_), grant revocation, and the REST API at the root.
 */
import type { ServerResponse } from "node:http";
import { clientCredentials, header, sendEmpty, sendJson, sendText, startServer, type FakeRequest, type RunningServer } from "./http.js";
import { randomAlphanumeric, randomToken } from "./oauth-state.js";
import { createProviderCore, providerEnv, splitScopes, type ProviderCore } from "./provider-core.js";
import { handleGitHubApi } from "./github-api.js";
import { createGitHubStore } from "./github-data.js";
import { createGitHubMoreStore } from "./github-more-api.js";
import type { GitHubFake, GitHubUser } from "./types.js";

const REFRESH_TOKEN_EXPIRES_IN = 15_897_600;
const TROUBLESHOOTING = "/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors";
const TOKEN_ERRORS = {
  incorrect_client_credentials: ["The client_id and/or client_secret passed are incorrect.", `${TROUBLESHOOTING}/#incorrect-client-credentials`],
  redirect_uri_mismatch: [
    "The redirect_uri MUST match the registered callback URL for this application.",
    "/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#redirect-uri-mismatch2",
  ],
  bad_verification_code: ["The code passed is incorrect or expired.", `${TROUBLESHOOTING}/#bad-verification-code`],
  bad_refresh_token: ["The refresh token passed is incorrect or expired.", `${TROUBLESHOOTING}/#bad-refresh-token`],
  unsupported_grant_type: ["The grant type is not supported.", `${TROUBLESHOOTING}/#unsupported-grant-type`],
} as const;

export const DEFAULT_GITHUB_USER: GitHubUser = { login: "octocat", id: 583231, name: "The Octocat", email: "octocat@github.com" };

export async function startGitHubFake(options: { ttlSeconds: number; now: () => number }): Promise<{ provider: GitHubFake; server: RunningServer }> {
  const core = createProviderCore<GitHubUser>({
    clientId: `Iv23li${randomAlphanumeric(14)}`,
    clientSecret: randomToken(20),
    ttlSeconds: options.ttlSeconds,
    now: options.now,
    defaultUser: DEFAULT_GITHUB_USER,
    newAccessToken: () => `ghu_${randomAlphanumeric(36)}`,
    newRefreshToken: () => `ghr_${randomAlphanumeric(76)}`,
    refreshRevokesOldAccessToken: true,
  });
  const store = createGitHubStore(options.now);
  const more = createGitHubMoreStore(store, options.now);
  let url = "";
  const server = await startServer(async (req, res) => {
    if (req.path === "/login/oauth/authorize" && req.method === "GET") {
      return core.handleAuthorize(req, res, {
        requireResponseType: false,
        unknownClient: (response) => sendText(response, 404, "Not Found"),
        deniedDescription: "The user has denied your application access.",
        errorExtras: (error) => ({ error_uri: `https://docs.github.com/apps/managing-oauth-apps/troubleshooting-authorization-request-errors/#${error.replaceAll("_", "-")}` }),
      });
    }
    if (req.path === "/login/oauth/access_token" && req.method === "POST") return handleToken(core, req, res);
    const revoke = /^\/applications\/([^/]+)\/(grant|token)$/.exec(req.path);
    if (revoke && req.method === "DELETE") return handleRevoke(core, req, res, decodeURIComponent(revoke[1]!), revoke[2] as "grant" | "token");
    return handleGitHubApi({ core, store, more, apiBase: () => url }, req, res);
  });
  url = server.url;
  const env = providerEnv("SCM", {
    clientId: core.clientId,
    clientSecret: core.clientSecret,
    authorizeUrl: `${url}/login/oauth/authorize`,
    tokenUrl: `${url}/login/oauth/access_token`,
    apiBaseUrl: url,
    revokeUrl: `${url}/applications/${core.clientId}/grant`,
  });
  return { provider: core.publicProvider(url, env), server };
}

/** GitHub answers 200 even on failure, in JSON only when asked for it (form-encoded otherwise). */
async function handleToken(core: ProviderCore<GitHubUser>, req: FakeRequest, res: ServerResponse): Promise<void> {
  if (await core.interceptToken(res)) return;
  const params = { ...req.query, ...req.fields };
  const wantsJson = String(header(req, "accept") ?? "").includes("application/json");
  const reply = (body: Record<string, string | number>) => {
    if (wantsJson) return sendJson(res, 200, body);
    const form = new URLSearchParams(Object.entries(body).map(([name, value]): [string, string] => [name, String(value)]));
    res.writeHead(200, { "content-type": "application/x-www-form-urlencoded; charset=utf-8" });
    res.end(form.toString());
  };
  const fail = (error: keyof typeof TOKEN_ERRORS) =>
    reply({ error, error_description: TOKEN_ERRORS[error][0], error_uri: `https://docs.github.com${TOKEN_ERRORS[error][1]}` });

  const credentials = clientCredentials({ ...req, fields: params });
  if (core.state.checkClient(credentials.clientId, credentials.clientSecret) !== "ok") return fail("incorrect_client_credentials");
  const grantType = params.grant_type ?? "authorization_code";
  if (grantType === "authorization_code") {
    const result = core.state.exchangeCode({ code: params.code, redirectUri: params.redirect_uri, codeVerifier: params.code_verifier });
    if (!result.ok) return fail(result.reason === "redirect_mismatch" ? "redirect_uri_mismatch" : "bad_verification_code");
    core.stats.authorizationCodeGrants += 1;
    core.stats.tokenGrants.push({ grantType, clientId: credentials.clientId! });
    return reply(tokenBody(result.tokens));
  }
  if (grantType === "refresh_token") {
    const result = core.state.refresh(params.refresh_token);
    if (!result.ok) return fail("bad_refresh_token");
    core.stats.refreshGrants += 1;
    core.stats.tokenGrants.push({ grantType, clientId: credentials.clientId! });
    return reply(tokenBody(result.tokens));
  }
  return fail("unsupported_grant_type");
}

function tokenBody(tokens: { accessToken: string; refreshToken: string; expiresIn: number; grant: { scope: string } }) {
  return {
    access_token: tokens.accessToken,
    expires_in: tokens.expiresIn,
    refresh_token: tokens.refreshToken,
    refresh_token_expires_in: REFRESH_TOKEN_EXPIRES_IN,
    token_type: "bearer",
    scope: splitScopes(tokens.grant.scope).join(","),
  };
}

/** DELETE /applications/{client_id}/grant|token with Basic client credentials and `{access_token}`. */
async function handleRevoke(core: ProviderCore<GitHubUser>, req: FakeRequest, res: ServerResponse, clientId: string, kind: "grant" | "token"): Promise<void> {
  const docs = `https://docs.github.com/rest/apps/oauth-applications#delete-an-app-${kind === "grant" ? "authorization" : "token"}`;
  const credentials = clientCredentials({ ...req, fields: {} });
  if (!credentials.viaBasic || credentials.clientId !== clientId || core.state.checkClient(credentials.clientId, credentials.clientSecret) !== "ok") {
    return sendJson(res, 404, { message: "Not Found", documentation_url: docs, status: "404" });
  }
  let accessToken: unknown;
  try {
    accessToken = (JSON.parse(req.text || "{}") as { access_token?: unknown }).access_token;
  } catch {
    return sendJson(res, 400, { message: "Problems parsing JSON", documentation_url: docs, status: "400" });
  }
  if (typeof accessToken !== "string" || accessToken === "") {
    return sendJson(res, 422, { message: "Invalid request.\n\n\"access_token\" wasn't supplied.", documentation_url: docs, status: "422" });
  }
  if (core.state.kindOf(accessToken) !== "access") return sendJson(res, 404, { message: "Not Found", documentation_url: docs, status: "404" });
  const revoked = kind === "grant" ? core.state.revokeGrantOf(accessToken) : core.state.revokeAccessToken(accessToken);
  if (revoked) core.stats.revocations += 1;
  sendEmpty(res, 204);
}
