/** Atlassian, Asana, Trello and GitLab sandbox behaviour (P3 owns this table). */
import type { DescribedVendor } from "../vendor-config.js";

export const ATLASSIAN_CLOUD_ID = "1324a887-45db-1bf4-1e99-ef0ff456d421";

/**
 * auth.atlassian.com: audience=api.atlassian.com and prompt=consent required, offline_access for a
 * refresh token (rotated), the cloud id from GET /oauth/token/accessible-resources on api.atlassian.com.
 */
const atlassian: DescribedVendor = {
  oauth: {
    authorizePath: "/authorize",
    tokenPath: "/oauth/token",
    clientAuth: "client_secret_post",
    pkce: "ignored",
    refresh: "rotating",
    refreshTokenOnlyWith: { scope: "offline_access" },
    requiredAuthorizeParams: { audience: "api.atlassian.com", prompt: "consent", response_type: "code" },
    accessTokenPrefix: "eyJraWQiOiJhdXRoLmF0bGFzc2lhbi5jb20i.",
  },
  errors: {
    unauthorized: { status: 401, body: { code: 401, message: "Unauthorized" } },
    invalidRequest: { status: 400, body: { errorMessages: ["{message}"], errors: {} } },
    notFound: { status: 404, body: { errorMessages: ["{message}"], errors: {} } },
  },
  routes: {
    "GET /oauth/token/accessible-resources": {
      status: 200,
      body: [
        {
          id: ATLASSIAN_CLOUD_ID,
          url: "https://analytical-engines.atlassian.net",
          name: "analytical-engines",
          scopes: ["read:jira-work", "write:jira-work", "read:confluence-content.all", "write:confluence-content"],
          avatarUrl: "https://site-admin-avatar-cdn.prod.public.atl-paas.net/avatars/240/rocket.png",
        },
      ],
    },
    "GET /me": { status: 200, body: { account_id: "{user.id}", name: "{user.name}", email: "{user.email}", account_status: "active" } },
  },
};

/** app.asana.com/-/oauth_*: the refresh token stays and is not returned on refresh; the token response names the user. */
const asana: DescribedVendor = {
  oauth: {
    authorizePath: "/-/oauth_authorize",
    tokenPath: "/-/oauth_token",
    revokePath: "/-/oauth_revoke",
    clientAuth: "client_secret_post",
    pkce: "optional",
    refresh: "kept",
    scopeSeparator: null,
    extraTokenFields: { data: { id: "{user.id}", gid: "{user.id}", name: "{user.name}", email: "{user.email}" } },
    accessTokenPrefix: "2/1200000000000000/",
    refreshTokenPrefix: "1/1200000000000000:",
  },
  apiKey: { keyTemplate: "2/1200000000000000/1208000000000000:{random}" },
  errors: {
    unauthorized: { status: 401, body: { errors: [{ message: "Not Authorized" }] } },
    invalidRequest: {
      status: 400,
      body: { errors: [{ message: "{message}", help: "For more information on API status codes and how to handle them, read the docs on errors: https://developers.asana.com/docs/errors" }] },
    },
    notFound: { status: 404, body: { errors: [{ message: "{message}" }] } },
  },
  user: { id: "1200000000000000", name: "Ada Lovelace", email: "ada@example.com" },
};

/** Trello's OAuth is 1.0a, so the broker uses an API key and a user token (`<key>:<token>`, sent as the key and token query parameters). */
const trello: DescribedVendor = {
  apiKey: { keyTemplate: "{random}:ATTA{random}" },
  errors: {
    unauthorized: { status: 401, body: "invalid token", headers: { "content-type": "text/plain; charset=utf-8" } },
    invalidRequest: { status: 400, body: "{message}", headers: { "content-type": "text/plain; charset=utf-8" } },
    notFound: { status: 404, body: "The requested resource was not found.", headers: { "content-type": "text/plain; charset=utf-8" } },
  },
  routes: { "GET /1/members/me": { status: 200, body: { id: "{user.id}", username: "ada", fullName: "{user.name}", email: "{user.email}" } } },
  user: { id: "5abbe4b7ddc1b351ef961414", name: "Ada Lovelace", email: "ada@example.com" },
};

/** gitlab.com/oauth/*: PKCE, rotating refresh tokens, two-hour access tokens. */
const gitlab: DescribedVendor = {
  oauth: {
    authorizePath: "/oauth/authorize",
    tokenPath: "/oauth/token",
    revokePath: "/oauth/revoke",
    clientAuth: "either",
    pkce: "optional",
    refresh: "rotating",
    requiredAuthorizeParams: { response_type: "code" },
    extraTokenFields: { created_at: 1_700_000_000 },
    accessTokenPrefix: "glpat-oauth-",
  },
  apiKey: { keyTemplate: "glpat-{random}" },
  errors: {
    unauthorized: { status: 401, body: { message: "401 Unauthorized" } },
    invalidRequest: { status: 400, body: { error: "{message}" } },
    notFound: { status: 404, body: { message: "404 Not Found" } },
  },
  routes: { "GET /api/v4/user": { status: 200, body: { id: 4211, username: "ada", name: "{user.name}", email: "{user.email}", state: "active" } } },
};

export const atlassianVendors: Record<string, DescribedVendor> = {
  jira: atlassian,
  confluence: atlassian,
  asana,
  trello,
  gitlab,
};
