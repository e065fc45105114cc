/**
 * SPEC §5 operator sessions: an identity-provider JWT verified against the issuer's keys with
 * pinned algorithms, iss, aud and exp, plus X-Broker-Tenant-Id naming a tenant the identity
 * belongs to. Viewers may read but not change anything.
 */
import { randomUUID } from "node:crypto";
import { generateKeyPair } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEVELOPMENT_ISSUER } from "../src/identity/development-issuer.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import {
  developmentIssuerKey,
  secondsFromNow,
  signToken,
  unsignedToken,
  withTamperedPayload,
  withTamperedSignature,
  type SigningKey,
} from "./support/jwt.js";

describeEachDatabase("operator sessions", (kind) => {
  let broker: TestBroker;
  let tenantA: TestTenant;
  let tenantB: TestTenant;
  let devKey: SigningKey;

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenantA = await createTenant(broker, "Tenant A");
    tenantB = await createTenant(broker, "Tenant B");
    devKey = await developmentIssuerKey(broker);
  });
  afterAll(() => broker.close());

  /** `tenant: null` sends no X-Broker-Tenant-Id header. */
  const listAgentApps = (token: string, tenant: string | null = tenantA.tenantId) =>
    call(broker, "GET", "/v1/agent-apps", { token, ...(tenant !== null ? { tenant } : {}) });

  it("accepts the issuer's token with the header of a tenant the identity belongs to", async () => {
    const result = await listAgentApps(tenantA.operatorToken);
    expect(result.status).toBe(200);
    expect(result.body.data.map((app: { id: string }) => app.id)).toEqual([tenantA.agentAppId]);
  });

  it("accepts a hand-signed token with correct claims (the control for the forgeries below)", async () => {
    const token = await signToken(devKey, { sub: tenantA.operatorSubject });
    expect((await listAgentApps(token)).status).toBe(200);
  });

  it("refuses a request without an Authorization header with 401 unauthorized", async () => {
    expectError(await call(broker, "GET", "/v1/agent-apps", { tenant: tenantA.tenantId }), 401, "unauthorized");
  });

  it("refuses an Authorization header that is not a Bearer credential", async () => {
    const result = await call(broker, "GET", "/v1/agent-apps", {
      tenant: tenantA.tenantId,
      headers: { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` },
    });
    expectError(result, 401, "unauthorized");
  });

  it("refuses an expired token", async () => {
    const token = await signToken(devKey, { sub: tenantA.operatorSubject, iat: secondsFromNow(-7200), exp: secondsFromNow(-60) });
    expectError(await listAgentApps(token), 401, "unauthorized");
  });

  it("refuses a token without an exp claim", async () => {
    const token = await signToken(devKey, { sub: tenantA.operatorSubject, exp: undefined });
    expectError(await listAgentApps(token), 401, "unauthorized");
  });

  it("refuses a token issued for another audience", async () => {
    const token = await signToken(devKey, { sub: tenantA.operatorSubject, aud: "some-other-api" });
    expectError(await listAgentApps(token), 401, "unauthorized");
  });

  it("refuses a token from an issuer the broker does not trust", async () => {
    const token = await signToken(devKey, { sub: tenantA.operatorSubject, iss: "https://evil.example.test/" });
    expectError(await listAgentApps(token), 401, "unauthorized");
  });

  it("refuses a token that names the trusted issuer but is signed by another key", async () => {
    const { privateKey } = await generateKeyPair("EdDSA", { crv: "Ed25519" });
    const token = await signToken({ kid: devKey.kid, key: privateKey, alg: "EdDSA" }, { sub: tenantA.operatorSubject });
    expectError(await listAgentApps(token), 401, "unauthorized");
  });

  it("refuses an HS256 token, even one keyed with the issuer's public key (algorithm confusion)", async () => {
    const secret = new Uint8Array(32).fill(7);
    expectError(await listAgentApps(await signToken({ kid: devKey.kid, key: secret, alg: "HS256" }, { sub: tenantA.operatorSubject })), 401, "unauthorized");
    const publicX = Buffer.from(broker.runtime.developmentIssuer!.publicJwk.x!, "base64url");
    const confused = await signToken({ kid: devKey.kid, key: new Uint8Array(publicX), alg: "HS256" }, { sub: tenantA.operatorSubject });
    expectError(await listAgentApps(confused), 401, "unauthorized");
  });

  it("refuses an unsigned token with alg none", async () => {
    const token = unsignedToken({ iss: DEVELOPMENT_ISSUER, aud: "toolbroker-operators", sub: tenantA.operatorSubject, exp: secondsFromNow(600) });
    expectError(await listAgentApps(token), 401, "unauthorized");
  });

  it("refuses a token whose payload was changed after signing", async () => {
    // Tenant A's operator rewrites the subject to tenant B's operator.
    const forged = withTamperedPayload(tenantA.operatorToken, { sub: tenantB.operatorSubject });
    expectError(await listAgentApps(forged, tenantB.tenantId), 401, "unauthorized");
  });

  it("refuses a token whose signature was altered", async () => {
    expectError(await listAgentApps(withTamperedSignature(tenantA.operatorToken)), 401, "unauthorized");
  });

  it("refuses a session without X-Broker-Tenant-Id", async () => {
    const result = await listAgentApps(tenantA.operatorToken, null);
    expectError(result, 401, "unauthorized");
    expect(result.body.error.message).toMatch(/X-Broker-Tenant-Id/);
  });

  it("refuses an X-Broker-Tenant-Id that is not a tenant id", async () => {
    expectError(await listAgentApps(tenantA.operatorToken, "acme"), 401, "unauthorized");
    expectError(await listAgentApps(tenantA.operatorToken, `${tenantA.tenantId}x`), 401, "unauthorized");
  });

  it("refuses a member of tenant A who names tenant B, with 401", async () => {
    expectError(await listAgentApps(tenantA.operatorToken, tenantB.tenantId), 401, "unauthorized");
    expectError(await listAgentApps(tenantB.operatorToken, tenantA.tenantId), 401, "unauthorized");
  });

  it("answers a tenant that does not exist exactly as a tenant the identity is not a member of", async () => {
    const foreign = await listAgentApps(tenantA.operatorToken, tenantB.tenantId);
    const missing = await listAgentApps(tenantA.operatorToken, randomUUID());
    expectError(missing, 401, "unauthorized");
    expect(missing.body.error.message).toBe(foreign.body.error.message);
  });

  it("hides another tenant's resources behind 404 and leaves them untouched", async () => {
    const created = await call(broker, "POST", "/v1/keys", { ...asOperator(tenantA), body: { env: "test" } });
    expect(created.status).toBe(201);
    expectError(await call(broker, "GET", `/v1/agent-apps/${tenantA.agentAppId}`, asOperator(tenantB)), 404, "not_found");
    expectError(await call(broker, "DELETE", `/v1/agent-apps/${tenantA.agentAppId}`, asOperator(tenantB)), 404, "not_found");
    expectError(await call(broker, "DELETE", `/v1/keys/${created.body.id}`, asOperator(tenantB)), 404, "not_found");
    const keys = await call(broker, "GET", "/v1/keys", asOperator(tenantB));
    expect(keys.body.data.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
    const app = await call(broker, "GET", `/v1/agent-apps/${tenantA.agentAppId}`, asOperator(tenantA));
    expect(app.body.status).toBe("active");
    const mint = await call(broker, "POST", "/v1/broker/token", { token: created.body.key, body: { agent_app_id: tenantA.agentAppId, env: "test" } });
    expect(mint.status).toBe(200);
  });

  it("lets a viewer read but refuses admin routes with 403 forbidden", async () => {
    const subject = `viewer-${randomUUID().slice(0, 8)}`;
    await broker.services.tenants.addMember(tenantA.tenantId, { issuer: DEVELOPMENT_ISSUER, subject, role: "viewer" }, "test");
    const viewer = { token: await broker.runtime.developmentIssuer!.issue(subject), tenant: tenantA.tenantId };

    for (const path of ["/v1/keys", "/v1/agent-apps", `/v1/agent-apps/${tenantA.agentAppId}`, "/v1/audit", "/v1/ops/openapi.json"]) {
      expect((await call(broker, "GET", path, viewer)).status, path).toBe(200);
    }
    const keysBefore = (await call(broker, "GET", "/v1/keys", viewer)).body.data.length;
    expectError(await call(broker, "POST", "/v1/keys", { ...viewer, body: { env: "test" } }), 403, "forbidden");
    expectError(await call(broker, "POST", "/v1/agent-apps", { ...viewer, body: { name: "sneaky" } }), 403, "forbidden");
    const someKey = (await call(broker, "GET", "/v1/keys", viewer)).body.data[0];
    expectError(await call(broker, "DELETE", `/v1/keys/${someKey.id}`, viewer), 403, "forbidden");
    expectError(await call(broker, "DELETE", `/v1/agent-apps/${tenantA.agentAppId}`, viewer), 403, "forbidden");

    expect((await call(broker, "GET", "/v1/keys", viewer)).body.data).toHaveLength(keysBefore);
    expect((await call(broker, "GET", "/v1/agent-apps", viewer)).body.data.map((a: { name: string }) => a.name)).not.toContain("sneaky");
    expect((await call(broker, "GET", `/v1/agent-apps/${tenantA.agentAppId}`, viewer)).body.status).toBe("active");
  });

  it("gives a viewer promoted to admin the admin routes", async () => {
    const subject = `promoted-${randomUUID().slice(0, 8)}`;
    const member = { issuer: DEVELOPMENT_ISSUER, subject };
    await broker.services.tenants.addMember(tenantA.tenantId, { ...member, role: "viewer" }, "test");
    const session = { token: await broker.runtime.developmentIssuer!.issue(subject), tenant: tenantA.tenantId };
    expectError(await call(broker, "POST", "/v1/agent-apps", { ...session, body: { name: "later" } }), 403, "forbidden");
    await broker.services.tenants.addMember(tenantA.tenantId, { ...member, role: "admin" }, "test");
    expect((await call(broker, "POST", "/v1/agent-apps", { ...session, body: { name: "later" } })).status).toBe(201);
  });
});
