/** Microsoft Graph, Zoom and Box sandbox behaviour (P2 owns this table). */
import type { DescribedVendor } from "../vendor-config.js";

const graphError = (status: number, code: string) => ({ status, body: { error: { code, message: "{message}", innerError: { "request-id": "5c3e2f1a-0000-4000-8000-000000000000" } } } });

/** login.microsoftonline.com/common/oauth2/v2.0/*: refresh tokens only with offline_access, rotated on every refresh. */
const graph: DescribedVendor = {
  oauth: {
    authorizePath: "/common/oauth2/v2.0/authorize",
    tokenPath: "/common/oauth2/v2.0/token",
    clientAuth: "either",
    pkce: "optional",
    refresh: "rotating",
    refreshTokenOnlyWith: { scope: "offline_access" },
    extraTokenFields: { ext_expires_in: 3599 },
    accessTokenPrefix: "EwBwA8l6BAAU",
    refreshTokenPrefix: "M.C5",
  },
  errors: {
    unauthorized: graphError(401, "InvalidAuthenticationToken"),
    invalidRequest: graphError(400, "BadRequest"),
    notFound: graphError(404, "ResourceNotFound"),
  },
  routes: {
    "GET /v1.0/me": { status: 200, body: { id: "{user.id}", displayName: "{user.name}", mail: "{user.email}", userPrincipalName: "{user.email}" } },
  },
  user: { id: "87d349ed-44d7-43e1-9a83-5f2406dee5bd", name: "Ada Lovelace", email: "ada@contoso.onmicrosoft.com" },
  // The generated description requires @odata.type on every type; Graph does not (its reference's
  // sendMail, event and chatMessage examples send none).
  notRequired: ["@odata.type"],
};

/** zoom.us/oauth/*: Basic client authentication, rotating refresh tokens. */
const zoom: DescribedVendor = {
  oauth: {
    authorizePath: "/oauth/authorize",
    tokenPath: "/oauth/token",
    revokePath: "/oauth/revoke",
    clientAuth: "client_secret_basic",
    pkce: "optional",
    refresh: "rotating",
    extraTokenFields: { api_url: "{origin}" },
    tokenType: "bearer",
    accessTokenPrefix: "eyJzdiI6IjAwMDAwMSJ9.",
    refreshTokenPrefix: "eyJzdiI6IjAwMDAwMiJ9.",
  },
  errors: {
    unauthorized: { status: 401, body: { code: 124, message: "Invalid access token." } },
    invalidRequest: { status: 400, body: { code: 300, message: "{message}" } },
    notFound: { status: 404, body: { code: 1001, message: "{message}" } },
  },
  routes: {
    "GET /v2/users/me": { status: 200, body: { id: "{user.id}", first_name: "Ada", last_name: "Lovelace", display_name: "{user.name}", email: "{user.email}", type: 2 } },
  },
  user: { id: "KDcuGIm1QgePTO8WbOqwIQ", name: "Ada Lovelace", email: "ada@example.com" },
};

/** account.box.com/api/oauth2/authorize and api.box.com/oauth2/token: no PKCE, rotating refresh tokens. */
const box: DescribedVendor = {
  oauth: {
    authorizePath: "/api/oauth2/authorize",
    tokenPath: "/oauth2/token",
    revokePath: "/oauth2/revoke",
    clientAuth: "client_secret_post",
    pkce: "ignored",
    refresh: "rotating",
    tokenType: "bearer",
    scopeSeparator: null,
    extraTokenFields: { restricted_to: [] },
  },
  errors: {
    unauthorized: {
      status: 401,
      headers: { "www-authenticate": 'Bearer realm="Service", error="invalid_token", error_description="The access token provided is invalid."' },
    },
    invalidRequest: { status: 400, body: { type: "error", status: 400, code: "bad_request", message: "{message}", request_id: "abcdef123456" } },
    notFound: { status: 404, body: { type: "error", status: 404, code: "not_found", message: "{message}", request_id: "abcdef123456" } },
  },
  routes: {
    "GET /2.0/users/me": { status: 200, body: { type: "user", id: "{user.id}", name: "{user.name}", login: "{user.email}" } },
  },
  user: { id: "11446498", name: "Ada Lovelace", email: "ada@example.com" },
};

export const microsoftVendors: Record<string, DescribedVendor> = {
  microsoft_outlook: graph,
  microsoft_onedrive: graph,
  microsoft_teams: graph,
  zoom,
  box,
};
