/** Hand-crafted JWTs for credential tests: forged, tampered, unsigned and mis-addressed tokens. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { importJWK, SignJWT, type CryptoKey, type JWK, type JWTPayload, type KeyObject } from "jose";
import { DEVELOPMENT_AUDIENCE, DEVELOPMENT_ISSUER } from "../../src/identity/development-issuer.js";
import type { TestBroker } from "./broker.js";

export type SigningKey = { kid: string; key: CryptoKey | KeyObject | Uint8Array; alg: string };

const nowSeconds = () => Math.floor(Date.now() / 1000);
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** The private key of the broker's embedded development issuer, read from its data dir. */
export async function developmentIssuerKey(broker: TestBroker): Promise<SigningKey> {
  const jwk = JSON.parse(readFileSync(join(broker.database.dataDir, "dev-issuer-key.json"), "utf8")) as JWK;
  return { kid: jwk.kid!, key: (await importJWK(jwk, "EdDSA")) as CryptoKey, alg: "EdDSA" };
}

export type OperatorClaims = { iss?: string; aud?: string; sub?: string; exp?: number; iat?: number } & JWTPayload;

/** Signs an operator access token; defaults are those of a valid development-issuer token. */
export function signToken(signer: SigningKey, claims: OperatorClaims = {}, header: Record<string, unknown> = {}): Promise<string> {
  const payload: JWTPayload = {
    iss: DEVELOPMENT_ISSUER,
    aud: DEVELOPMENT_AUDIENCE,
    iat: nowSeconds(),
    exp: nowSeconds() + 3600,
    ...claims,
  };
  return new SignJWT(payload).setProtectedHeader({ alg: signer.alg, kid: signer.kid, typ: "at+jwt", ...header }).sign(signer.key);
}

/** A token with `alg: none` and no signature, which no verifier may accept. */
export function unsignedToken(claims: JWTPayload, header: Record<string, unknown> = {}): string {
  return `${encode({ alg: "none", typ: "JWT", ...header })}.${encode(claims)}.`;
}

/** Replaces claims in the payload but keeps the original signature. */
export function withTamperedPayload(token: string, patch: JWTPayload): string {
  const [header, payload, signature] = token.split(".") as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as JWTPayload;
  return `${header}.${encode({ ...claims, ...patch })}.${signature}`;
}

/** Flips one byte of the signature. */
export function withTamperedSignature(token: string): string {
  const [header, payload, signature] = token.split(".") as [string, string, string];
  const bytes = Buffer.from(signature, "base64url");
  bytes[0] = bytes[0]! ^ 0xff;
  return `${header}.${payload}.${bytes.toString("base64url")}`;
}

export const secondsFromNow = (seconds: number) => nowSeconds() + seconds;
