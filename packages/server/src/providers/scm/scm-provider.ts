/** `scm`: GitHub (OAuth app / GitHub App user tokens, REST API v3). */
import { bearer, type ProviderDefinition } from "../provider-types.js";
import { scmTools } from "./scm-tools.js";

export const GITHUB_API_VERSION = "2022-11-28";

export const scmProvider: ProviderDefinition = {
  id: "scm",
  displayName: "GitHub",
  authModes: ["oauth2"],
  apiBaseUrl: "https://api.github.com",
  apiHeaders: { accept: "application/vnd.github+json", "x-github-api-version": GITHUB_API_VERSION, "user-agent": "Toolbroker" },
  oauth: {
    authorizeUrl: "https://github.com/login/oauth/authorize",
    tokenUrl: "https://github.com/login/oauth/access_token",
    defaultScopes: ["repo", "read:user"],
    scopeSeparator: " ",
    // GitHub answers token errors with HTTP 200 and an `error` field.
    inspectTokenResponse: (body) =>
      typeof body.error === "string" ? { error: body.error, description: body.error_description as string | undefined } : undefined,
    invalidGrantErrors: ["bad_refresh_token", "invalid_grant"],
    // DELETE /applications/{client_id}/grant revokes the grant and all its tokens.
    revocation: ({ token, clientId, clientSecret, apiBaseUrl }) => ({
      url: apiBaseUrl,
      request: {
        method: "DELETE",
        path: `/applications/${encodeURIComponent(clientId)}/grant`,
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
          accept: "application/vnd.github+json",
          "x-github-api-version": GITHUB_API_VERSION,
          "user-agent": "Toolbroker",
        },
        body: { access_token: token },
      },
    }),
  },
  presentCredential: ({ secret }) => bearer(secret),
  async fetchIdentity(api) {
    const response = await api({ method: "GET", path: "/user" });
    const user = response.body as { login?: string; id?: number };
    if (response.status !== 200 || !user.login) throw new Error(`GitHub /user answered ${response.status}`);
    return { displayName: user.login, accountId: String(user.id ?? user.login) };
  },
  tools: scmTools,
};
