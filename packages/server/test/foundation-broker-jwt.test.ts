/**
 * SPEC §5 broker JWTs: accepted only where an agent credential is expected (refused on operator
 * routes and on /v1/broker/token), verified with the broker's own keys, audience `broker`,
 * typ `broker+jwt`, issuer and expiry; the public keys at /.well-known/jwks.json verify them.
 */
import { randomUUID } from "node:crypto";
import { createLocalJWKSet, generateKeyPair, jwtVerify, SignJWT, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase, type DbKind } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { unsignedToken, withTamperedPayload, withTamperedSignature, type SigningKey } from "./support/jwt.js";

const FIFTEEN_MINUTES_MS = 15 * 60 * 1000;

describeEachDatabase("broker JWTs", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let other: TestTenant;
  let brokerKey: SigningKey;

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker);
    other = await createTenant(broker, "Other");
    brokerKey = { ...(await broker.services.signingKeys.activeSigner()), alg: "EdDSA" };
  });
  afterAll(() => broker.close());

  const verify = (token: string) => broker.services.brokerJwts.verify(token);
  const expectRefused = (token: string) => expect(verify(token)).rejects.toMatchObject({ code: "unauthorized", status: 401 });

  /** A token shaped like the broker's own, with any claim or header overridden. */
  function craft(signer: SigningKey, claims: JWTPayload = {}, header: Record<string, unknown> = {}) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      iss: broker.config.publicUrl,
      aud: "broker",
      sub: tenant.agentAppId,
      iat: now,
      exp: now + 600,
      jti: randomUUID(),
      tenant_id: tenant.tenantId,
      agent_app_id: tenant.agentAppId,
      env: "test",
      ...claims,
    })
      .setProtectedHeader({ alg: signer.alg, kid: signer.kid, typ: "broker+jwt", ...header })
      .sign(signer.key);
  }

  describe("where it is accepted", () => {
    it("is refused on operator routes with 401", async () => {
      const token = await mintBrokerToken(broker, tenant);
      expectError(await call(broker, "GET", "/v1/keys", { token, tenant: tenant.tenantId }), 401, "unauthorized");
      expectError(await call(broker, "POST", "/v1/agent-apps", { token, tenant: tenant.tenantId, body: { name: "x" } }), 401, "unauthorized");
      expectError(await call(broker, "GET", "/v1/ops/openapi.json", { token, tenant: tenant.tenantId }), 401, "unauthorized");
    });

    it("is refused on /v1/broker/token with 401 (a token cannot mint tokens)", async () => {
      const token = await mintBrokerToken(broker, tenant);
      const result = await call(broker, "POST", "/v1/broker/token", { token, body: { agent_app_id: tenant.agentAppId, env: "test" } });
      expectError(result, 401, "unauthorized");
    });

    it("refuses an operator session on /v1/broker/token with 401", async () => {
      const result = await call(broker, "POST", "/v1/broker/token", { ...asOperator(tenant), body: { agent_app_id: tenant.agentAppId, env: "test" } });
      expectError(result, 401, "unauthorized");
    });

    it("refuses a control key on operator routes with 401", async () => {
      for (const [method, path] of [["GET", "/v1/keys"], ["GET", "/v1/agent-apps"], ["GET", "/v1/audit"], ["POST", "/v1/keys"]] as const) {
        const result = await call(broker, method, path, { token: tenant.testKey, tenant: tenant.tenantId, ...(method === "POST" ? { body: { env: "test" } } : {}) });
        expectError(result, 401, "unauthorized");
      }
    });
  });

  describe("verification", () => {
    it("accepts a minted token and yields its tenant, agent app and env", async () => {
      const principal = await verify(await mintBrokerToken(broker, tenant, "live"));
      expect(principal).toMatchObject({ tenantId: tenant.tenantId, agentAppId: tenant.agentAppId, env: "live" });
    });

    it("accepts a token crafted with the broker's key and correct claims (the control for the forgeries below)", async () => {
      await expect(verify(await craft(brokerKey))).resolves.toMatchObject({ tenantId: tenant.tenantId });
    });

    it("refuses a token whose payload was changed after signing", async () => {
      const token = await mintBrokerToken(broker, tenant);
      await expectRefused(withTamperedPayload(token, { env: "live" }));
      await expectRefused(withTamperedPayload(token, { tenant_id: other.tenantId, agent_app_id: other.agentAppId }));
    });

    it("refuses a token whose signature was altered", async () => {
      await expectRefused(withTamperedSignature(await mintBrokerToken(broker, tenant)));
    });

    it("refuses a token for another audience", async () => {
      await expectRefused(await craft(brokerKey, { aud: "toolbroker-operators" }));
    });

    it("refuses a token of another typ", async () => {
      await expectRefused(await craft(brokerKey, {}, { typ: "at+jwt" }));
      await expectRefused(await craft(brokerKey, {}, { typ: "JWT" }));
    });

    it("refuses a token from another issuer", async () => {
      await expectRefused(await craft(brokerKey, { iss: "https://elsewhere.example.test" }));
    });

    it("refuses a token signed by a key the broker does not hold", async () => {
      const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
      await expectRefused(await craft({ kid: brokerKey.kid, key: privateKey, alg: "EdDSA" }));
      await expectRefused(await craft({ kid: randomUUID(), key: privateKey, alg: "EdDSA" }));
    });

    it("refuses HS256 and alg none tokens", async () => {
      await expectRefused(await craft({ kid: brokerKey.kid, key: new Uint8Array(32).fill(3), alg: "HS256" }));
      const now = Math.floor(Date.now() / 1000);
      const claims = { iss: broker.config.publicUrl, aud: "broker", sub: tenant.agentAppId, iat: now, exp: now + 600, jti: randomUUID(), tenant_id: tenant.tenantId, agent_app_id: tenant.agentAppId, env: "test" };
      await expectRefused(unsignedToken(claims, { typ: "broker+jwt" }));
    });

    it("refuses a correctly signed token that lacks its scope claims", async () => {
      await expectRefused(await craft(brokerKey, { tenant_id: undefined }));
      await expectRefused(await craft(brokerKey, { env: "prod" }));
      await expectRefused(await craft(brokerKey, { jti: undefined }));
    });

    it("is verified by the public keys at /.well-known/jwks.json", async () => {
      const jwks = await call(broker, "GET", "/.well-known/jwks.json");
      expect(jwks.status).toBe(200);
      for (const key of jwks.body.keys) {
        expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig" });
        expect(key).not.toHaveProperty("d");
      }
      const token = await mintBrokerToken(broker, tenant);
      const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks.body), {
        issuer: broker.config.publicUrl,
        audience: "broker",
        algorithms: ["EdDSA"],
        typ: "broker+jwt",
      });
      expect(protectedHeader.kid).toBe(brokerKey.kid);
      expect(payload).toMatchObject({ tenant_id: tenant.tenantId, agent_app_id: tenant.agentAppId, env: "test" });
    });
  });

  describe("expiry", () => expiryTests(kind));
});

function expiryTests(kind: DbKind) {
  const clock = manualClock(new Date());
  let broker: TestBroker;
  let tenant: TestTenant;

  beforeAll(async () => {
    broker = await startBroker(kind, { clock });
    tenant = await createTenant(broker);
  });
  afterAll(() => broker.close());

  it("lives 15 minutes and is refused once they have passed", async () => {
    const verifiedEarly = await mintBrokerToken(broker, tenant);
    const neverVerified = await mintBrokerToken(broker, tenant);
    await expect(broker.services.brokerJwts.verify(verifiedEarly)).resolves.toMatchObject({ tenantId: tenant.tenantId });

    clock.advance(FIFTEEN_MINUTES_MS - 1000);
    await expect(broker.services.brokerJwts.verify(verifiedEarly)).resolves.toMatchObject({ tenantId: tenant.tenantId });

    clock.advance(2000);
    // Both the cached verification and a first verification must notice the expiry.
    await expect(broker.services.brokerJwts.verify(verifiedEarly)).rejects.toMatchObject({ code: "unauthorized" });
    await expect(broker.services.brokerJwts.verify(neverVerified)).rejects.toMatchObject({ code: "unauthorized" });
    await expect(broker.services.brokerJwts.verify(await mintBrokerToken(broker, tenant))).resolves.toMatchObject({ env: "test" });
  });

  it("says the same words for an expired token over REST and MCP, whether it was used before or not (issue 41, item 10)", async () => {
    const usedBefore = await mintBrokerToken(broker, tenant);
    const neverUsed = await mintBrokerToken(broker, tenant);
    expect((await call(broker, "GET", "/v1/tools", { token: usedBefore })).status).toBe(200);
    clock.advance(FIFTEEN_MINUTES_MS + 1000);
    const mcp = (token: string) =>
      call(broker, "POST", "/mcp", { token, headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" }, body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} } });
    const expired = "the broker token has expired; mint a new one with POST /v1/broker/token";
    // Each order of the two doors, so that neither reads a verification the other cached.
    for (const [first, second] of [[usedBefore, neverUsed], [neverUsed, usedBefore]] as const) {
      const answers = [await call(broker, "GET", "/v1/tools", { token: first }), await mcp(first), await mcp(second), await call(broker, "GET", "/v1/tools", { token: second })];
      for (const answer of answers) {
        expectError(answer, 401, "unauthorized");
        expect(answer.body.error.message).toBe(expired);
      }
      expect(answers[1]!.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${broker.config.publicUrl}/.well-known/oauth-protected-resource/mcp"`);
    }
  });

  it("calls a token with a bad signature invalid, never expired", async () => {
    const token = await mintBrokerToken(broker, tenant);
    const forged = `${token.slice(0, token.lastIndexOf(".") + 1)}${"A".repeat(86)}`;
    const refused = await call(broker, "GET", "/v1/tools", { token: forged });
    expectError(refused, 401, "unauthorized");
    expect(refused.body.error.message).toBe("the broker token is invalid");
  });
}
