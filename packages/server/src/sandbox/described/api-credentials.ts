/**
 * Reads the credential a call presents, wherever the provider's declaration puts it (Bearer,
 * Basic, an API key header or query parameter), and tells whether the sandbox issued it.
 */
import type { ProviderDeclaration } from "../../providers/declaration-schema.js";
import { header, type FakeRequest } from "../http.js";
import type { AccessFailure, OAuthState } from "../oauth-state.js";

export type CredentialCheck = { ok: true; kind: "access_token" | "api_key" } | { ok: false; reason: AccessFailure };

/**
 * Every string the request could be presenting as its credential: the Authorization header's,
 * the declared API key header's, and every query value (Trello sends its key and token as two).
 */
function presented(req: FakeRequest, auth: ProviderDeclaration["auth"]): string[] {
  const found: string[] = req.queryEntries.map(([, value]) => value);
  const authorization = header(req, "authorization");
  if (authorization) found.push(...fromAuthorization(authorization));
  if (auth.type === "api_key") {
    const raw = auth.in === "header" ? header(req, auth.name) : req.query[auth.name];
    if (raw !== undefined) {
      const prefix = auth.prefix ?? "";
      const value = prefix && raw.startsWith(prefix) ? raw.slice(prefix.length) : raw;
      found.push(value, ...(auth.format === "basic" ? fromAuthorization(`Basic ${value}`) : []));
    }
  }
  return found.filter(Boolean);
}

function fromAuthorization(value: string): string[] {
  const [scheme, ...rest] = value.trim().split(/\s+/);
  const credential = rest.join(" ");
  if (/^basic$/i.test(scheme ?? "")) {
    const decoded = Buffer.from(credential, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    return colon < 0 ? [decoded] : [decoded, decoded.slice(0, colon), decoded.slice(colon + 1)];
  }
  return rest.length ? [credential, value.trim()] : [value.trim()];
}

export function checkCredential(
  req: FakeRequest,
  auth: ProviderDeclaration["auth"],
  state: Pick<OAuthState<unknown>, "authenticate">,
  apiKeys: ReadonlySet<string>,
): CredentialCheck {
  const candidates = presented(req, auth);
  if (candidates.length === 0) return { ok: false, reason: "missing" };
  // A key issued as `<key>:<token>` may travel as its two parts.
  for (const key of apiKeys) if (key.includes(":") && key.split(":").every((part) => candidates.includes(part))) return { ok: true, kind: "api_key" };
  let failure: AccessFailure = "unknown";
  for (const candidate of candidates) {
    if (apiKeys.has(candidate)) return { ok: true, kind: "api_key" };
    const result = state.authenticate(candidate);
    if (result.ok) return { ok: true, kind: "access_token" };
    if (result.reason !== "unknown") failure = result.reason;
  }
  return { ok: false, reason: failure };
}

export const CREDENTIAL_MESSAGES: Record<AccessFailure, string> = {
  missing: "no credentials were sent",
  unknown: "the credentials are invalid",
  expired: "the access token has expired",
  revoked: "the access token has been revoked",
};
