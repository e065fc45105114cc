/** Google's sandbox behaviour (P1 owns this table): gmail, google_calendar, google_drive, google_sheets, google_docs. */
import type { DescribedVendor } from "../vendor-config.js";

const googleError = (code: number, status: string, reason: string) => ({
  status: code,
  body: { error: { code, message: "{message}", errors: [{ message: "{message}", domain: "global", reason }], status } },
});

const user = { id: "108234567890123456789", name: "Ada Lovelace", email: "ada@example.com" };

/**
 * accounts.google.com/o/oauth2/v2/auth and oauth2.googleapis.com/token: a refresh token only with
 * access_type=offline, and none in refresh responses (the first one stays valid).
 */
const google: DescribedVendor = {
  oauth: {
    authorizePath: "/o/oauth2/v2/auth",
    tokenPath: "/token",
    revokePath: "/revoke",
    clientAuth: "either",
    pkce: "optional",
    refresh: "kept",
    refreshTokenOnlyWith: { param: "access_type", value: "offline" },
    accessTokenPrefix: "ya29.a0",
    refreshTokenPrefix: "1//0g",
    // Google adds an ID token (sub, email) to a code exchange when openid was asked; Sheets and Docs name the account from it.
    extraCodeExchangeFields: { id_token: "{id_token}" },
  },
  errors: {
    unauthorized: {
      ...googleError(401, "UNAUTHENTICATED", "authError"),
      headers: { "www-authenticate": 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
    },
    invalidRequest: googleError(400, "INVALID_ARGUMENT", "invalid"),
    notFound: googleError(404, "NOT_FOUND", "notFound"),
  },
  routes: {
    "GET /oauth2/v3/userinfo": {
      status: 200,
      body: { sub: "{user.id}", name: "{user.name}", email: "{user.email}", email_verified: true, picture: "https://lh3.googleusercontent.com/a/default-user" },
    },
    "GET /oauth2/v2/userinfo": { status: 200, body: { id: "{user.id}", name: "{user.name}", email: "{user.email}", verified_email: true } },
  },
  user,
};

export const googleVendors: Record<string, DescribedVendor> = {
  gmail: google,
  google_calendar: google,
  google_drive: google,
  google_sheets: google,
  google_docs: google,
};
