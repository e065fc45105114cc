/**
 * The authorization-server bookkeeping every fake shares: authorization codes bound to a PKCE
 * challenge and redirect URI, grants, rotating refresh tokens and expiring access tokens.
 * Vendors differ only in how they word the outcomes, which their own files decide.
 */
import { createHash, randomBytes } from "node:crypto";

const CODE_LIFETIME_MS = 10 * 60 * 1000;
const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

/** `offline: false`: the authorization asked for no refresh token (Google without access_type=offline). */
export type Grant<User> = { id: string; user: User; scope: string; revoked: boolean; offline: boolean };

export type IssuedTokens<User> = {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  grant: Grant<User>;
};

export type ClientCheck = "ok" | "unknown_client" | "bad_secret";
export type CodeFailure = "invalid_code" | "code_reused" | "code_expired" | "redirect_mismatch" | "pkce_mismatch";
export type AccessFailure = "missing" | "unknown" | "expired" | "revoked";

type AuthorizationCode<User> = {
  redirectUri: string;
  /** Empty when the authorization carried no PKCE challenge (a vendor that does not require one). */
  codeChallenge: string;
  offline: boolean;
  scope: string;
  user: User;
  issuedAt: number;
  used: boolean;
};

type TokenRecord = {
  kind: "access" | "refresh";
  grantId: string;
  /** Epoch ms; refresh tokens never expire here. */
  expiresAt: number | null;
  status: "active" | "rotated" | "revoked";
};

export type OAuthStateConfig = {
  clientId: string;
  clientSecret: string;
  ttlSeconds: number;
  now: () => number;
  newAccessToken: () => string;
  newRefreshToken: () => string;
  /** GitHub: "Once you use a refresh token, that refresh token and the old user access token will no longer work." */
  refreshRevokesOldAccessToken: boolean;
  /** false: a refresh keeps the refresh token valid and issues only an access token (Google, Dropbox). Default true. */
  rotateRefreshTokens?: boolean;
  /** false: access tokens never expire (Notion). Default true. */
  accessTokensExpire?: boolean;
};

export function pkceChallengeOf(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

export function randomToken(bytes = 20, encoding: "hex" | "base64url" = "hex"): string {
  return randomBytes(bytes).toString(encoding);
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Letters and digits only, the alphabet of GitHub's `ghu_…` tokens. */
export function randomAlphanumeric(length: number): string {
  return Array.from(randomBytes(length), (byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join("");
}

export function createOAuthState<User>(config: OAuthStateConfig) {
  const codes = new Map<string, AuthorizationCode<User>>();
  const grants = new Map<string, Grant<User>>();
  const tokens = new Map<string, TokenRecord>();
  const secrets: string[] = [];

  /** An offline grant also gets a refresh token (`keptRefreshToken` when the old one stays); others get "". */
  function issueTokens(grant: Grant<User>, keptRefreshToken?: string): IssuedTokens<User> {
    const accessToken = config.newAccessToken();
    tokens.set(accessToken, {
      kind: "access",
      grantId: grant.id,
      expiresAt: config.accessTokensExpire === false ? null : config.now() + config.ttlSeconds * 1000,
      status: "active",
    });
    secrets.push(accessToken);
    let refreshToken = keptRefreshToken ?? "";
    if (grant.offline && !keptRefreshToken) {
      refreshToken = config.newRefreshToken();
      tokens.set(refreshToken, { kind: "refresh", grantId: grant.id, expiresAt: null, status: "active" });
      secrets.push(refreshToken);
    }
    return { accessToken, refreshToken, expiresIn: config.ttlSeconds, grant };
  }

  function setGrantTokensStatus(grantId: string, kind: TokenRecord["kind"] | "both", status: TokenRecord["status"]): void {
    for (const record of tokens.values()) {
      if (record.grantId === grantId && (kind === "both" || record.kind === kind) && record.status === "active") {
        record.status = status;
      }
    }
  }

  // The app the broker is configured with, and any a test registers (a tenant's own OAuth app).
  const clients = new Map([[config.clientId, config.clientSecret]]);

  return {
    checkClient(clientId: string | undefined, clientSecret: string | undefined): ClientCheck {
      const secret = clientId === undefined ? undefined : clients.get(clientId);
      if (secret === undefined) return "unknown_client";
      return clientSecret === secret ? "ok" : "bad_secret";
    },

    isClient: (clientId: string | undefined) => clientId !== undefined && clients.has(clientId),

    /** A new secret for a registered app (as a customer rotating it at the vendor); the old one stops working. */
    rotateClientSecret(clientId: string): string {
      if (!clients.has(clientId)) throw new Error(`no such client: ${clientId}`);
      const secret = randomToken(20);
      clients.set(clientId, secret);
      return secret;
    },

    registerClient(): { clientId: string; clientSecret: string } {
      const registered = { clientId: `app-${randomToken(8)}`, clientSecret: randomToken(20) };
      clients.set(registered.clientId, registered.clientSecret);
      return registered;
    },

    issueCode(input: { redirectUri: string; codeChallenge: string; scope: string; user: User; offline?: boolean }): string {
      const code = randomToken(16);
      codes.set(code, { ...input, offline: input.offline ?? true, issuedAt: config.now(), used: false });
      return code;
    },

    /** Codes are spent only by a successful exchange, so a wrong verifier can be retried with the right one. */
    exchangeCode(input: {
      code: string | undefined;
      redirectUri: string | undefined;
      codeVerifier: string | undefined;
    }): { ok: true; tokens: IssuedTokens<User> } | { ok: false; reason: CodeFailure } {
      const stored = input.code ? codes.get(input.code) : undefined;
      if (!stored) return { ok: false, reason: "invalid_code" };
      if (stored.used) return { ok: false, reason: "code_reused" };
      if (config.now() - stored.issuedAt > CODE_LIFETIME_MS) return { ok: false, reason: "code_expired" };
      if (input.redirectUri !== stored.redirectUri) return { ok: false, reason: "redirect_mismatch" };
      const verifier = input.codeVerifier ?? "";
      if (stored.codeChallenge && (!VERIFIER_PATTERN.test(verifier) || pkceChallengeOf(verifier) !== stored.codeChallenge)) {
        return { ok: false, reason: "pkce_mismatch" };
      }
      stored.used = true;
      const grant: Grant<User> = { id: randomToken(8), user: stored.user, scope: stored.scope, revoked: false, offline: stored.offline };
      grants.set(grant.id, grant);
      return { ok: true, tokens: issueTokens(grant) };
    },

    /** Rotation: the presented refresh token stops working and a new pair is issued (unless rotateRefreshTokens is false). */
    refresh(refreshToken: string | undefined): { ok: true; tokens: IssuedTokens<User> } | { ok: false } {
      const record = refreshToken ? tokens.get(refreshToken) : undefined;
      const grant = record ? grants.get(record.grantId) : undefined;
      if (!record || !grant || record.kind !== "refresh" || record.status !== "active" || grant.revoked) {
        return { ok: false };
      }
      if (config.rotateRefreshTokens === false) return { ok: true, tokens: issueTokens(grant, refreshToken) };
      record.status = "rotated";
      if (config.refreshRevokesOldAccessToken) setGrantTokensStatus(grant.id, "access", "rotated");
      return { ok: true, tokens: issueTokens(grant) };
    },

    authenticate(accessToken: string | undefined): { ok: true; grant: Grant<User> } | { ok: false; reason: AccessFailure } {
      if (!accessToken) return { ok: false, reason: "missing" };
      const record = tokens.get(accessToken);
      const grant = record ? grants.get(record.grantId) : undefined;
      if (!record || !grant || record.kind !== "access") return { ok: false, reason: "unknown" };
      if (record.status !== "active" || grant.revoked) return { ok: false, reason: "revoked" };
      if (record.expiresAt !== null && record.expiresAt <= config.now()) return { ok: false, reason: "expired" };
      return { ok: true, grant };
    },

    /** Revokes the whole grant the token (access or refresh) belongs to. */
    revokeGrantOf(token: string | undefined): boolean {
      const record = token ? tokens.get(token) : undefined;
      const grant = record ? grants.get(record.grantId) : undefined;
      if (!record || !grant || grant.revoked || record.status !== "active") return false;
      grant.revoked = true;
      setGrantTokensStatus(grant.id, "both", "revoked");
      return true;
    },

    /** Revokes one access token, leaving its grant (and refresh token) alone. */
    revokeAccessToken(token: string | undefined): boolean {
      const record = token ? tokens.get(token) : undefined;
      if (!record || record.kind !== "access" || record.status !== "active") return false;
      record.status = "revoked";
      return true;
    },

    /** The token's kind when it is a live token of this server. */
    kindOf(token: string): TokenRecord["kind"] | undefined {
      const record = tokens.get(token);
      return record && record.status === "active" ? record.kind : undefined;
    },

    expireAllAccessTokens(): void {
      const past = config.now() - 1;
      for (const record of tokens.values()) if (record.kind === "access") record.expiresAt = past;
    },

    revokeAllRefreshTokens(): void {
      for (const record of tokens.values()) if (record.kind === "refresh" && record.status === "active") record.status = "revoked";
    },

    rememberSecret(secret: string): void {
      secrets.push(secret);
    },

    issuedSecrets(): string[] {
      return [...secrets];
    },
  };
}

export type OAuthState<User> = ReturnType<typeof createOAuthState<User>>;
