/**
 * Verifies identity-provider access tokens for operator sessions: signature against the issuer's
 * JWKS, pinned asymmetric algorithms (never `none` or HMAC), `iss`, `aud` and `exp`.
 */
import { createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from "jose";
import type { OidcConfig } from "../config.js";
import { BrokerError, unauthorized } from "../errors.js";
import { DEVELOPMENT_AUDIENCE, type DevelopmentIssuer } from "./development-issuer.js";

export const OPERATOR_ALGORITHMS = ["RS256", "PS256", "ES256", "EdDSA"];

export type OperatorIdentity = { issuer: string; subject: string };
export type OperatorVerifier = { verify(token: string): Promise<OperatorIdentity>; issuers: string[] };

type TrustedIssuer = { issuer: string; audience: string; keys: JWTVerifyGetKey };

export function createOperatorVerifier(options: {
  oidc: OidcConfig | undefined;
  development: DevelopmentIssuer | undefined;
  clockNow?: () => Date;
}): OperatorVerifier {
  const trusted = new Map<string, TrustedIssuer>();
  if (options.oidc) {
    trusted.set(options.oidc.issuer, {
      issuer: options.oidc.issuer,
      audience: options.oidc.audience,
      keys: createRemoteJWKSet(new URL(options.oidc.jwksUrl), { timeoutDuration: 5000 }),
    });
  }
  if (options.development) {
    trusted.set(options.development.issuer, {
      issuer: options.development.issuer,
      audience: DEVELOPMENT_AUDIENCE,
      keys: createLocalJWKSet({ keys: [options.development.publicJwk] }),
    });
  }
  return {
    issuers: [...trusted.keys()],
    async verify(token) {
      let claimedIssuer: string | undefined;
      try {
        claimedIssuer = decodeJwt(token).iss;
      } catch {
        throw unauthorized("the operator token is not a valid JWT");
      }
      const issuer = claimedIssuer ? trusted.get(claimedIssuer) : undefined;
      if (!issuer) throw unauthorized("the operator token's issuer is not trusted");
      try {
        const { payload } = await jwtVerify(token, issuer.keys, {
          issuer: issuer.issuer,
          audience: issuer.audience,
          algorithms: OPERATOR_ALGORITHMS,
          requiredClaims: ["sub", "exp"],
          ...(options.clockNow ? { currentDate: options.clockNow() } : {}),
        });
        return { issuer: issuer.issuer, subject: payload.sub! };
      } catch (error) {
        // The identity provider being unreachable is our outage, not the caller's bad token.
        if (error instanceof joseErrors.JWKSTimeout || (error instanceof Error && !(error instanceof joseErrors.JOSEError))) {
          throw new BrokerError("service_unavailable", "the identity provider's keys could not be fetched; retry shortly");
        }
        throw unauthorized("the operator token is invalid or expired");
      }
    },
  };
}
