/**
 * How one vendor's sandbox behaves where its API description cannot say: its OAuth variant (paths,
 * client authentication, PKCE, refresh behaviour, extra token response fields, authorize parameters
 * it insists on), how its API refuses a bad credential or a bad request, and the few routes that are
 * not in the description (identity endpoints, Atlassian's accessible-resources).
 *
 * Data only. Each vendor family keeps its table in ./vendors/<family>.ts (the provider helpers fill
 * theirs); ./vendors/index.ts joins them. A provider without an entry gets DEFAULT_VENDOR.
 *
 * Strings in `extraTokenFields`, `errors` and `routes` bodies are templates: `{origin}` is the
 * sandbox's origin (http://127.0.0.1:PORT), `{message}` what was wrong (errors only), `{user.<field>}`
 * a field of the sandbox user, `{grant.scope}` the granted scopes, and in token fields `{client_id}`
 * and `{id_token}` (an OpenID Connect ID token from the sandbox's origin for that client, naming
 * the user); a string that is exactly one placeholder is replaced by that value.
 */

/** An answer the sandbox gives: status, JSON body (templates allowed) and headers. */
export type SandboxAnswer = { status: number; body?: unknown; headers?: Record<string, string> };

export type OAuthVariant = {
  /** The vendor's own paths (the broker is pointed at them through BROKER_PROVIDER_<ID>_*_URL). */
  authorizePath: string;
  tokenPath: string;
  revokePath?: string;
  /**
   * How the token endpoint wants the client: `client_secret_post` (id and secret in the form),
   * `client_secret_basic` (HTTP Basic; Notion, Zoom, Dropbox take it), or `either`.
   */
  clientAuth: "client_secret_post" | "client_secret_basic" | "either";
  /** required: no code without an S256 challenge; optional: a challenge is checked when sent; ignored: never checked. */
  pkce: "required" | "optional" | "ignored";
  /**
   * rotating: every refresh returns a new refresh token and the old one stops working (Microsoft,
   * Atlassian, Zoom, Box, GitLab); kept: the refresh response has no refresh_token and the old one
   * stays valid (Google, Dropbox, Salesforce, Asana); returned: the same refresh token comes back
   * (HubSpot); none: access tokens never expire and no refresh token is issued (Notion, Stripe Connect).
   */
  refresh: "rotating" | "kept" | "returned" | "none";
  /**
   * When a refresh token is issued at all: always (default), or only when the authorize request
   * carried this parameter value (Google access_type=offline, Dropbox token_access_type=offline) or
   * this scope (Microsoft offline_access).
   */
  refreshTokenOnlyWith?: { param: string; value: string } | { scope: string };
  /** Authorize parameters the vendor requires (an authorize without them is redirected back with invalid_request). */
  requiredAuthorizeParams?: Record<string, string>;
  /** `expires_in` is left out of token responses (Salesforce). */
  omitExpiresIn?: boolean;
  /** token_type in token responses (default "Bearer"). */
  tokenType?: string;
  /** How the granted scope is joined in token responses (default a space); null leaves `scope` out. */
  scopeSeparator?: " " | "," | null;
  /** Extra fields of every token response (Salesforce instance_url, Notion workspace_id, Stripe stripe_user_id). */
  extraTokenFields?: Record<string, unknown>;
  /** Extra fields only when an authorization code is exchanged (not on refresh). */
  extraCodeExchangeFields?: Record<string, unknown>;
  /** Prefixes of the tokens it issues, for realism and for scrubbing tests (default "sbx_at_" / "sbx_rt_"). */
  accessTokenPrefix?: string;
  refreshTokenPrefix?: string;
};

export type ApiKeyVariant = {
  /**
   * What a person copies from the vendor's settings page, as the broker stores it. `{random}` is
   * replaced by random letters and digits; Basic-format keys are `user:password`
   * (Zendesk `agent@example.com/token:{random}`).
   */
  keyTemplate: string;
};

export type DescribedVendor = {
  oauth?: OAuthVariant;
  apiKey?: ApiKeyVariant;
  /**
   * The vendor's error for a missing, unknown, expired or revoked credential (`{message}` says
   * which) and for a request its API refuses (`{message}` lists what failed validation).
   */
  errors: { unauthorized: SandboxAnswer; invalidRequest: SandboxAnswer; notFound: SandboxAnswer };
  /**
   * Routes answered as given, after the credential check, for endpoints the description lacks:
   * key `"GET /oauth/token/accessible-resources"` (path from the sandbox's origin, not the API base).
   */
  routes?: Record<string, SandboxAnswer>;
  /** The user the sandbox's authorize step approves as (fields usable as `{user.<field>}`). */
  user?: Record<string, string>;
  /**
   * Property names the vendor's description lists in `required` although its API never asks for
   * them: they are taken out of every `required` list before requests are validated (Microsoft
   * Graph's generated description requires `@odata.type` on every type; Graph reads an object as
   * the type the property declares when it is absent, and its own reference examples leave it out).
   */
  notRequired?: readonly string[];
};

export const DEFAULT_USER: Record<string, string> = {
  id: "5b10ac8d82e05b22cc7d4ef5",
  name: "Ada Lovelace",
  email: "ada@example.com",
  organization: "Analytical Engines",
};

/** RFC 6749-style OAuth with rotating refresh tokens and a generic JSON error body. */
export const DEFAULT_VENDOR: DescribedVendor = {
  oauth: {
    authorizePath: "/oauth/authorize",
    tokenPath: "/oauth/token",
    revokePath: "/oauth/revoke",
    clientAuth: "either",
    pkce: "optional",
    refresh: "rotating",
  },
  apiKey: { keyTemplate: "sbx_key_{random}" },
  errors: {
    unauthorized: { status: 401, body: { error: "unauthorized", message: "{message}" } },
    invalidRequest: { status: 400, body: { error: "invalid_request", message: "{message}" } },
    notFound: { status: 404, body: { error: "not_found", message: "{message}" } },
  },
};
