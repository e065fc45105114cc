/** Salesforce, HubSpot, Zendesk and Stripe sandbox behaviour (P4 owns this table). */
import type { DescribedVendor } from "../vendor-config.js";

/**
 * login.salesforce.com/services/oauth2/*: the token response names the org's instance (here the
 * sandbox's own origin) and has no expires_in; refresh responses carry no refresh token.
 */
const salesforce: DescribedVendor = {
  oauth: {
    authorizePath: "/services/oauth2/authorize",
    tokenPath: "/services/oauth2/token",
    revokePath: "/services/oauth2/revoke",
    clientAuth: "either",
    pkce: "optional",
    refresh: "kept",
    omitExpiresIn: true,
    extraTokenFields: {
      instance_url: "{origin}",
      id: "{origin}/id/00D5e000000AbcdEAC/{user.id}",
      issued_at: "1732867200000",
      signature: "c2FuZGJveC1zaWduYXR1cmUtbm90LXJlYWw=",
    },
    accessTokenPrefix: "00D5e000000AbcdEAC!",
  },
  errors: {
    unauthorized: { status: 401, body: [{ message: "Session expired or invalid", errorCode: "INVALID_SESSION_ID" }] },
    invalidRequest: { status: 400, body: [{ message: "{message}", errorCode: "INVALID_FIELD" }] },
    notFound: { status: 404, body: [{ message: "The requested resource does not exist", errorCode: "NOT_FOUND" }] },
  },
  routes: {
    "GET /services/oauth2/userinfo": {
      status: 200,
      body: { user_id: "{user.id}", organization_id: "00D5e000000AbcdEAC", name: "{user.name}", email: "{user.email}", preferred_username: "{user.email}" },
    },
  },
  user: { id: "0055e000001AbcdAAC", name: "Ada Lovelace", email: "ada@example.com" },
};

/** app.hubspot.com/oauth/authorize and api.hubapi.com/oauth/v1/token: the same refresh token comes back on refresh. */
const hubspot: DescribedVendor = {
  oauth: {
    authorizePath: "/oauth/authorize",
    tokenPath: "/oauth/v1/token",
    clientAuth: "client_secret_post",
    pkce: "ignored",
    refresh: "returned",
    tokenType: "bearer",
    scopeSeparator: null,
    accessTokenPrefix: "CKSz",
    refreshTokenPrefix: "na1-",
  },
  apiKey: { keyTemplate: "pat-na1-{random}" },
  errors: {
    unauthorized: {
      status: 401,
      body: { status: "error", message: "Authentication credentials not found.", correlationId: "6b0fb6e1-0000-4000-8000-000000000000", category: "INVALID_AUTHENTICATION" },
    },
    invalidRequest: { status: 400, body: { status: "error", message: "{message}", correlationId: "6b0fb6e1-0000-4000-8000-000000000000", category: "VALIDATION_ERROR" } },
    notFound: { status: 404, body: { status: "error", message: "{message}", correlationId: "6b0fb6e1-0000-4000-8000-000000000000", category: "OBJECT_NOT_FOUND" } },
  },
  routes: {
    "GET /account-info/v3/details": {
      status: 200,
      body: { portalId: 62515, accountType: "STANDARD", timeZone: "Europe/London", companyCurrency: "GBP", uiDomain: "app.hubspot.com", dataHostingLocation: "na1" },
    },
  },
};

/** Zendesk API tokens: Basic `email/token:api_token` on the account's subdomain. */
const zendesk: DescribedVendor = {
  apiKey: { keyTemplate: "ada@example.com/token:{random}" },
  errors: {
    unauthorized: { status: 401, body: { error: "Couldn't authenticate you" } },
    invalidRequest: { status: 400, body: { error: "InvalidEndpoint", description: "{message}" } },
    notFound: { status: 404, body: { error: "RecordNotFound", description: "Not found" } },
  },
  routes: {
    "GET /api/v2/users/me.json": { status: 200, body: { user: { id: 35436, name: "{user.name}", email: "{user.email}", role: "admin" } } },
  },
};

/**
 * Stripe: secret keys (sk_test_…), or Connect OAuth at connect.stripe.com (client_secret is the
 * platform's secret key; tokens do not expire; the response names the connected account).
 */
const stripe: DescribedVendor = {
  oauth: {
    authorizePath: "/oauth/authorize",
    tokenPath: "/oauth/token",
    revokePath: "/oauth/deauthorize",
    clientAuth: "client_secret_post",
    pkce: "ignored",
    refresh: "none",
    tokenType: "bearer",
    extraTokenFields: { stripe_user_id: "acct_1032D82eZvKYlo2C", stripe_publishable_key: "pk_test_51Sandbox0000000000", livemode: false },
    accessTokenPrefix: "sk_test_",
  },
  apiKey: { keyTemplate: "sk_test_51Sandbox{random}" },
  errors: {
    unauthorized: { status: 401, body: { error: { message: "{message}", type: "invalid_request_error" } } },
    invalidRequest: { status: 400, body: { error: { message: "{message}", type: "invalid_request_error" } } },
    notFound: { status: 404, body: { error: { code: "resource_missing", message: "{message}", type: "invalid_request_error" } } },
  },
};

export const crmVendors: Record<string, DescribedVendor> = { salesforce, hubspot, zendesk, stripe };
