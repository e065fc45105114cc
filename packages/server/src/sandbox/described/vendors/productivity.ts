/** Notion, Dropbox and Airtable sandbox behaviour (P4 owns this table). */
import type { DescribedVendor } from "../vendor-config.js";

/** api.notion.com/v1/oauth/*: Basic client authentication, tokens that never expire, the workspace in the token response. */
const notion: DescribedVendor = {
  oauth: {
    authorizePath: "/v1/oauth/authorize",
    tokenPath: "/v1/oauth/token",
    clientAuth: "client_secret_basic",
    pkce: "ignored",
    refresh: "none",
    tokenType: "bearer",
    scopeSeparator: null,
    requiredAuthorizeParams: { owner: "user", response_type: "code" },
    extraTokenFields: {
      bot_id: "b3414d659-1224-5ty7-6ffr-cc9d8773drt601288f",
      workspace_id: "j565j4d7x3-2882-61bs-564a-jj9d9ui-c36hxfr7x",
      workspace_name: "Analytical Engines",
      workspace_icon: "https://www.notion.so/images/favicon.ico",
      owner: { type: "user", user: { object: "user", id: "{user.id}" } },
      duplicated_template_id: null,
    },
    accessTokenPrefix: "ntn_",
  },
  apiKey: { keyTemplate: "ntn_{random}" },
  errors: {
    unauthorized: { status: 401, body: { object: "error", status: 401, code: "unauthorized", message: "API token is invalid." } },
    invalidRequest: { status: 400, body: { object: "error", status: 400, code: "validation_error", message: "{message}" } },
    notFound: { status: 404, body: { object: "error", status: 404, code: "object_not_found", message: "{message}" } },
  },
  user: { id: "6794760a-1f15-45cd-9c65-0dfe42f5135a", name: "Ada Lovelace", email: "ada@example.com" },
};

/** www.dropbox.com/oauth2/authorize and api.dropboxapi.com/oauth2/token: a refresh token only with token_access_type=offline, kept on refresh. */
const dropbox: DescribedVendor = {
  oauth: {
    authorizePath: "/oauth2/authorize",
    tokenPath: "/oauth2/token",
    revokePath: "/2/auth/token/revoke",
    clientAuth: "either",
    pkce: "optional",
    refresh: "kept",
    refreshTokenOnlyWith: { param: "token_access_type", value: "offline" },
    tokenType: "bearer",
    extraTokenFields: { account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", uid: "12345" },
    accessTokenPrefix: "sl.u.",
  },
  errors: {
    unauthorized: { status: 401, body: { error_summary: "invalid_access_token/..", error: { ".tag": "invalid_access_token" } } },
    invalidRequest: { status: 400, body: "Error in call to API function: {message}", headers: { "content-type": "text/plain; charset=utf-8" } },
    notFound: { status: 409, body: { error_summary: "path/not_found/..", error: { ".tag": "path", path: { ".tag": "not_found" } } } },
  },
  routes: {
    "POST /2/users/get_current_account": {
      status: 200,
      body: { account_id: "dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc", name: { display_name: "{user.name}", given_name: "Ada", surname: "Lovelace" }, email: "{user.email}", email_verified: true },
    },
  },
};

/** Airtable personal access tokens (pat…), or OAuth with PKCE required and rotating refresh tokens. */
const airtable: DescribedVendor = {
  oauth: {
    authorizePath: "/oauth2/v1/authorize",
    tokenPath: "/oauth2/v1/token",
    clientAuth: "client_secret_basic",
    pkce: "required",
    refresh: "rotating",
  },
  apiKey: { keyTemplate: "patSandbox0000000.{random}" },
  errors: {
    unauthorized: { status: 401, body: { error: { type: "AUTHENTICATION_REQUIRED", message: "Authentication required" } } },
    invalidRequest: { status: 422, body: { error: { type: "INVALID_REQUEST_UNKNOWN", message: "{message}" } } },
    notFound: { status: 404, body: { error: { type: "NOT_FOUND", message: "{message}" } } },
  },
  routes: { "GET /v0/meta/whoami": { status: 200, body: { id: "usrL2PNC5o3H4lBEi", email: "{user.email}", scopes: ["data.records:read", "data.records:write"] } } },
};

export const productivityVendors: Record<string, DescribedVendor> = { notion, dropbox, airtable };
