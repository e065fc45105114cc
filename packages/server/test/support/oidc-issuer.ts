/** A real, tiny identity provider on loopback: an RS256 key whose public half is served as a JWKS. */
import { createServer, type Server } from "node:http";
import { randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import type { SigningKey } from "./jwt.js";

export type OidcIssuer = {
  issuer: string;
  audience: string;
  jwksUrl: string;
  /** The key whose public half the JWKS serves. */
  signer: SigningKey;
  /** Environment that points a broker at this issuer. */
  env: Record<string, string>;
  issue(subject: string, claims?: JWTPayload): Promise<string>;
  close(): Promise<void>;
};

export async function startOidcIssuer(options: { issuer?: string; audience?: string } = {}): Promise<OidcIssuer> {
  const { publicKey, privateKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = `rsa-${randomUUID().slice(0, 8)}`;
  const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid, alg: "RS256", use: "sig" }] };
  const server: Server = createServer((request, response) => {
    if (request.url === "/jwks") {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(jwks));
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const issuer = options.issuer ?? `https://idp-${randomUUID().slice(0, 8)}.example.test/`;
  const audience = options.audience ?? "toolbroker-api";
  const jwksUrl = `http://127.0.0.1:${port}/jwks`;
  const signer: SigningKey = { kid, key: privateKey as CryptoKey, alg: "RS256" };
  return {
    issuer,
    audience,
    jwksUrl,
    signer,
    env: { BROKER_OIDC_ISSUER: issuer, BROKER_OIDC_AUDIENCE: audience, BROKER_OIDC_JWKS_URL: jwksUrl },
    issue: (subject, claims = {}) =>
      new SignJWT({ ...claims })
        .setProtectedHeader({ alg: "RS256", kid, typ: "at+jwt" })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(privateKey),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
