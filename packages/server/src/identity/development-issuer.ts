/**
 * Outside production the broker carries its own identity provider so a fresh checkout works
 * without one. Its key lives in the data dir; production refuses this issuer (config.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { randomUUID } from "node:crypto";

export const DEVELOPMENT_ISSUER = "urn:toolbroker:dev-issuer";
export const DEVELOPMENT_AUDIENCE = "toolbroker-operators";

export type DevelopmentIssuer = {
  issuer: string;
  publicJwk: JWK;
  issue(subject: string, ttlSeconds?: number): Promise<string>;
};

export async function loadOrCreateDevelopmentIssuer(dataDir: string): Promise<DevelopmentIssuer> {
  const file = join(dataDir, "dev-issuer-key.json");
  let privateJwk: JWK;
  if (existsSync(file)) {
    privateJwk = JSON.parse(readFileSync(file, "utf8")) as JWK;
  } else {
    const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
    privateJwk = { ...(await exportJWK(privateKey)), kid: `dev-${randomUUID().slice(0, 8)}`, alg: "EdDSA" };
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, JSON.stringify(privateJwk), { mode: 0o600 });
  }
  const { d: _private, ...publicJwk } = privateJwk;
  const signingKey = await importJWK(privateJwk, "EdDSA");
  return {
    issuer: DEVELOPMENT_ISSUER,
    publicJwk,
    issue: (subject, ttlSeconds = 3600) =>
      new SignJWT({})
        .setProtectedHeader({ alg: "EdDSA", kid: privateJwk.kid!, typ: "at+jwt" })
        .setIssuer(DEVELOPMENT_ISSUER)
        .setAudience(DEVELOPMENT_AUDIENCE)
        .setSubject(subject)
        .setIssuedAt()
        .setJti(randomUUID())
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(signingKey),
  };
}

export function parseTtl(value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value.trim());
  if (!match) throw new Error(`--ttl must look like 90s, 15m, 1h or 1d (got "${value}")`);
  const unit = { "": 1, s: 1, m: 60, h: 3600, d: 86_400 }[match[2] as "" | "s" | "m" | "h" | "d"];
  const seconds = Number(match[1]) * unit;
  // A token that is expired when printed helps nobody.
  if (seconds < 1) throw new Error(`--ttl must be at least 1s (got "${value}")`);
  return seconds;
}
