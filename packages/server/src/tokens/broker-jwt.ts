/**
 * Broker JWTs: short-lived, EdDSA-signed, audience `broker`, scoped to tenant, agent app and env.
 * Verified tokens are cached until they expire, so an agent reusing its token costs one
 * signature check, not one per call.
 */
import { randomUUID } from "node:crypto";
import { createLocalJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify, SignJWT } from "jose";
import type { Clock } from "../clock.js";
import { isEndUserId } from "../shared/end-user-id.js";
import { unauthorized } from "../errors.js";
import type { AgentAppId, TestOrLive, TenantId } from "../ids.js";
import { BROKER_JWT_ALGORITHM, type SigningKeys } from "./signing-keys.js";

export const BROKER_AUDIENCE = "broker";
export const BROKER_JWT_TYPE = "broker+jwt";

export type BrokerPrincipal = { tenantId: TenantId; agentAppId: AgentAppId; env: TestOrLive; endUserId: string | null; jti: string; expiresAt: number };

const MAX_CACHED_TOKENS = 50_000;

/**
 * One sentence for an expired token, whether its verification was cached or not, and so over REST
 * and MCP alike. jose reports expiry only for a token whose signature it checked.
 */
export const EXPIRED_TOKEN_MESSAGE = "the broker token has expired; mint a new one with POST /v1/broker/token";

type BrokerJwtDeps = { signingKeys: SigningKeys; clock: Clock; issuer: string; ttlSeconds: number };

export function createBrokerJwts({ signingKeys, clock, issuer, ttlSeconds }: BrokerJwtDeps) {
  const verified = new Map<string, BrokerPrincipal>();
  let keySet = createLocalJWKSet(signingKeys.publicJwks());

  function cache(token: string, principal: BrokerPrincipal) {
    if (verified.size >= MAX_CACHED_TOKENS) {
      const now = clock.now().getTime();
      for (const [key, value] of verified) if (value.expiresAt <= now) verified.delete(key);
      if (verified.size >= MAX_CACHED_TOKENS) verified.delete(verified.keys().next().value!);
    }
    verified.set(token, principal);
  }

  async function verifySignature(token: string) {
    const header = decodeProtectedHeader(token);
    if (header.kid && !signingKeys.publicJwks().keys.some((k) => k.kid === header.kid)) {
      await signingKeys.refresh();
      keySet = createLocalJWKSet(signingKeys.publicJwks());
    }
    return jwtVerify(token, keySet, {
      issuer,
      audience: BROKER_AUDIENCE,
      algorithms: [BROKER_JWT_ALGORITHM],
      typ: BROKER_JWT_TYPE,
      requiredClaims: ["exp", "iat", "jti", "sub"],
      currentDate: clock.now(),
    });
  }

  return {
    ttlSeconds,
    /** Whether the token was verified before (it may have expired since): a broker JWT, without decoding it again. */
    isKnown: (token: string) => verified.has(token),
    async mint(subject: { tenantId: string; agentAppId: string; env: TestOrLive; endUserId?: string | null | undefined }) {
      const { kid, key } = await signingKeys.activeSigner();
      const issuedAt = Math.floor(clock.now().getTime() / 1000);
      const claims = { tenant_id: subject.tenantId, agent_app_id: subject.agentAppId, env: subject.env, ...(subject.endUserId ? { end_user_id: subject.endUserId } : {}) };
      const token = await new SignJWT(claims)
        .setProtectedHeader({ alg: BROKER_JWT_ALGORITHM, kid, typ: BROKER_JWT_TYPE })
        .setIssuer(issuer)
        .setAudience(BROKER_AUDIENCE)
        .setSubject(subject.agentAppId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + ttlSeconds)
        .setJti(randomUUID())
        .sign(key);
      return { token, expiresIn: ttlSeconds };
    },

    async verify(token: string): Promise<BrokerPrincipal> {
      const now = clock.now().getTime();
      const hit = verified.get(token);
      if (hit) {
        if (hit.expiresAt > now) return hit;
        verified.delete(token);
        throw unauthorized(EXPIRED_TOKEN_MESSAGE);
      }
      let payload;
      try {
        ({ payload } = await verifySignature(token));
      } catch (error) {
        throw unauthorized(error instanceof joseErrors.JWTExpired ? EXPIRED_TOKEN_MESSAGE : "the broker token is invalid");
      }
      const { tenant_id, agent_app_id, env, end_user_id } = payload as Record<string, unknown>;
      if (typeof tenant_id !== "string" || typeof agent_app_id !== "string" || (env !== "test" && env !== "live")) {
        throw unauthorized("the broker token lacks its tenant, agent app or env claims");
      }
      if (end_user_id !== undefined && !isEndUserId(end_user_id)) throw unauthorized("the broker token's end_user_id claim is malformed");
      const principal: BrokerPrincipal = {
        tenantId: tenant_id as TenantId,
        agentAppId: agent_app_id as AgentAppId,
        env,
        endUserId: end_user_id ?? null,
        jti: payload.jti!,
        expiresAt: payload.exp! * 1000,
      };
      cache(token, principal);
      return principal;
    },
  };
}

export type BrokerJwts = ReturnType<typeof createBrokerJwts>;
