/**
 * A small OpenID Connect provider on loopback for the console's production sign-in: discovery,
 * authorization code with PKCE (S256, checked), refresh tokens, and a JWKS the broker verifies
 * operator access tokens with. It approves every authorization request as `subject`.
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export type FakeIdentityProvider = { issuer: string; audience: string; clientId: string; subject: string; grants: string[]; close(): Promise<void> };

export async function startFakeIdentityProvider(subject: string): Promise<FakeIdentityProvider> {
  const audience = "toolbroker-operators";
  const clientId = "toolbroker-console";
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  const codes = new Map<string, { challenge: string | null; nonce: string | null; redirect: string | null }>();
  const grants: string[] = [];
  let issuer = "";
  const sign = (claims: Record<string, unknown>, aud: string) =>
    new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "k1" }).setIssuer(issuer).setAudience(aud).setSubject(subject).setIssuedAt().setExpirationTime("5m").sign(privateKey);
  const tokens = async (nonce: string | null) => ({
    access_token: await sign({ jti: randomUUID() }, audience),
    ...(nonce !== null ? { id_token: await sign({ nonce }, clientId) } : {}),
    refresh_token: randomUUID(),
    token_type: "Bearer",
    expires_in: 300,
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", issuer);
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "*", "cache-control": "no-store" };
    const json = (status: number, body: unknown) => response.writeHead(status, { ...cors, "content-type": "application/json" }).end(JSON.stringify(body));
    if (request.method === "OPTIONS") return response.writeHead(204, cors).end();
    if (url.pathname === "/.well-known/openid-configuration") {
      return json(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
        id_token_signing_alg_values_supported: ["RS256"],
        subject_types_supported: ["public"],
      });
    }
    if (url.pathname === "/.well-known/jwks.json") return json(200, { keys: [jwk] });
    if (url.pathname === "/authorize") {
      const params = url.searchParams;
      const code = randomUUID();
      codes.set(code, { challenge: params.get("code_challenge"), nonce: params.get("nonce"), redirect: params.get("redirect_uri") });
      const back = new URL(params.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", params.get("state") ?? "");
      back.searchParams.set("iss", issuer);
      return response.writeHead(302, { location: back.toString() }).end();
    }
    if (url.pathname === "/token") {
      let body = "";
      for await (const chunk of request) body += chunk;
      const params = new URLSearchParams(body);
      grants.push(params.get("grant_type") ?? "");
      if (params.get("grant_type") === "refresh_token") return json(200, await tokens(null));
      const entry = codes.get(params.get("code") ?? "");
      codes.delete(params.get("code") ?? "");
      const verifier = params.get("code_verifier") ?? "";
      const pkceHolds = entry && createHash("sha256").update(verifier).digest("base64url") === entry.challenge && params.get("redirect_uri") === entry.redirect;
      if (!pkceHolds) return json(400, { error: "invalid_grant" });
      return json(200, await tokens(entry.nonce));
    }
    return json(404, { error: "not_found" });
  }

  const server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { issuer, audience, clientId, subject, grants, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
