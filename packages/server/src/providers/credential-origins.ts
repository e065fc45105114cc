/**
 * A credential only goes where it came from. A token or key is bound to the origins (scheme, host
 * and port) it was issued for: the provider's token endpoint and API base URL at connect time. At
 * every use the provider's current origins are compared with the bound ones, a string comparison;
 * a provider re-pointed since (a changed declaration, a changed BROKER_PROVIDER_*_API_BASE_URL, a
 * demo sandbox that is gone) gets nothing, and the credential needs a reconnect.
 *
 * A provider whose base URL has per-connection values (`{name}`) binds each credential to its
 * base URL as its values fill it (connection-values.ts, apiBindingOf): the origin, and the path up to
 * the last value in it. A changed value is then a moved provider too, and sends nothing.
 */
import { BrokerError } from "../errors.js";
import { memoizeByKey } from "../shared/memo.js";
import type { ResolvedProvider } from "./catalogue.js";
import { apiBindingOf, hasPlaceholders, templateBindingOf, type ConnectionValues } from "./connection-values.js";

/** `token`: null for a provider without OAuth, and for API keys, which never meet a token endpoint. */
export type CredentialOrigins = { token: string | null; api: string };
export type BoundOrigins = { token: string | null; api: string | null };
export type OriginChange = { from: BoundOrigins; to: CredentialOrigins; fields: ("token_url" | "api_base_url")[] };

/** Parsed once per distinct URL: the hot path compares strings, it never parses. */
export const originOf = memoizeByKey((url) => new URL(url).origin, { maxEntries: 1_000, maxKeyLength: 2_048 });

/** Providers are immutable once resolved: their origins are worked out once per provider object. */
const originsByProvider = new WeakMap<object, CredentialOrigins>();

type OriginSource = Pick<ResolvedProvider, "id" | "apiBaseUrl" | "oauth" | "connectionValues" | "apiBaseOverridden">;

/**
 * `values`: the credential's connection values, for a base URL with placeholders (one without any
 * throws connection_unusable, reason connection_value_missing).
 */
export function originsOf(provider: OriginSource, values?: ConnectionValues): CredentialOrigins {
  if (hasPlaceholders(provider.apiBaseUrl)) return { token: provider.oauth ? originOf(provider.oauth.tokenUrl) : null, api: apiBindingOf(provider, values ?? {}) };
  let origins = originsByProvider.get(provider);
  if (!origins) {
    origins = { token: provider.oauth ? originOf(provider.oauth.tokenUrl) : null, api: originOf(provider.apiBaseUrl) };
    originsByProvider.set(provider, origins);
  }
  return origins;
}

/** What a connect under way is bound to before its values are known: the base URL template (see templateBindingOf). */
export const flowOriginsOf = (provider: OriginSource): CredentialOrigins =>
  hasPlaceholders(provider.apiBaseUrl) ? { token: provider.oauth ? originOf(provider.oauth.tokenUrl) : null, api: templateBindingOf(provider) } : originsOf(provider);

/** Never bound: a row stored before the broker recorded origins (bound at its first use). */
export const isUnbound = (bound: BoundOrigins) => bound.api === null;

/**
 * What moved since the credential was issued, or undefined when it may be used. An API key's
 * `token` is null on both sides; an OAuth connection compares both origins.
 */
export function originChange(bound: BoundOrigins, current: CredentialOrigins, kind: "oauth2" | "api_key"): OriginChange | undefined {
  const fields: OriginChange["fields"] = [];
  if (kind === "oauth2" && bound.token !== current.token) fields.push("token_url");
  if (bound.api !== current.api) fields.push("api_base_url");
  return fields.length ? { from: bound, to: current, fields } : undefined;
}

/** The audit and error form: the origins the credential was issued for (`from`) and the provider's now (`to`); nothing secret. */
export const describeChange = (change: OriginChange) => ({
  changed: change.fields,
  from: { token_url: change.from.token, api_base_url: change.from.api },
  to: { token_url: change.to.token, api_base_url: change.to.api },
});

/** A revocation goes to one of the origins the credential was issued for, or nowhere. */
export const mayRevokeAt = (bound: BoundOrigins, url: string) => {
  const origin = originOf(url);
  return origin === bound.token || (bound.api !== null && origin === originOf(bound.api));
};

export type ReconnectReason = "origin_changed" | "refresh_interrupted" | "refresh_refused";

/** 422 connection_unusable for a credential whose provider moved: nothing was sent. */
export function originChangedError(what: "connected account" | "secret item", change: OriginChange, who: string): BrokerError {
  const action = what === "secret item" ? "store the API key again" : "reconnect the account";
  return new BrokerError(
    "connection_unusable",
    `the ${what} was issued for ${change.from.api ?? "another address"}${change.fields.includes("token_url") ? ` (token endpoint ${change.from.token ?? "unknown"})` : ""}, but the provider now points elsewhere; nothing was sent, and ${who} must ${action}`,
    { reason: "origin_changed", reconnect_required: true, ...describeChange(change) },
  );
}
