/**
 * Operator sessions from a real remote identity provider: the broker fetches the issuer's JWKS
 * over HTTP (BROKER_OIDC_JWKS_URL) and checks the (issuer, subject) pair against tenant members.
 */
import { randomUUID } from "node:crypto";
import { generateKeyPair } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEVELOPMENT_ISSUER } from "../src/identity/development-issuer.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { call } from "./support/http.js";
import { secondsFromNow, signToken, unsignedToken, withTamperedPayload, withTamperedSignature } from "./support/jwt.js";
import { startOidcIssuer, type OidcIssuer } from "./support/oidc-issuer.js";

describeEachDatabase("operator sessions from a remote OIDC issuer", (kind) => {
  let idp: OidcIssuer;
  let broker: TestBroker;
  let tenant: TestTenant;
  let other: TestTenant;
  const alice = `alice-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    idp = await startOidcIssuer();
    broker = await startBroker(kind, { env: idp.env });
    tenant = await createTenant(broker, "Remote IdP tenant");
    other = await createTenant(broker, "Other tenant");
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: idp.issuer, subject: alice, role: "admin" }, "test");
  });
  afterAll(async () => {
    await broker.close();
    await idp.close();
  });

  const listKeys = (token: string, tenantId = tenant.tenantId) => call(broker, "GET", "/v1/keys", { token, tenant: tenantId });
  const claims = (extra: Record<string, unknown> = {}) => ({ iss: idp.issuer, aud: idp.audience, sub: alice, ...extra });

  it("accepts an RS256 token from the issuer for a member of the tenant", async () => {
    const result = await listKeys(await idp.issue(alice));
    expect(result.status).toBe(200);
    expect(result.body.data).toHaveLength(2);
  });

  it("lets that member act as admin, and audits the action under issuer|subject", async () => {
    const created = await call(broker, "POST", "/v1/agent-apps", { token: await idp.issue(alice), tenant: tenant.tenantId, body: { name: "from idp" } });
    expect(created.status).toBe(201);
    const audit = await call(broker, "GET", "/v1/audit?action=agent_app.created&limit=1", { token: await idp.issue(alice), tenant: tenant.tenantId });
    expect(audit.body.data[0].actor).toEqual({ type: "operator", id: `${idp.issuer}|${alice}` });
  });

  it("refuses a subject of the issuer who is not a member of the tenant", async () => {
    expectError(await listKeys(await idp.issue(`mallory-${randomUUID()}`)), 401, "unauthorized");
  });

  it("refuses the member when the header names a tenant the member does not belong to", async () => {
    expectError(await listKeys(await idp.issue(alice), other.tenantId), 401, "unauthorized");
  });

  it("refuses the same subject from the development issuer (membership is per issuer)", async () => {
    const devToken = await broker.runtime.developmentIssuer!.issue(alice);
    expectError(await listKeys(devToken), 401, "unauthorized");
  });

  it("refuses a token of the issuer for another audience", async () => {
    expectError(await listKeys(await signToken(idp.signer, claims({ aud: "another-api" }))), 401, "unauthorized");
  });

  it("refuses an expired token of the issuer", async () => {
    const token = await signToken(idp.signer, claims({ iat: secondsFromNow(-7200), exp: secondsFromNow(-120) }));
    expectError(await listKeys(token), 401, "unauthorized");
  });

  it("refuses a token that names the issuer but is signed by a key outside its JWKS", async () => {
    const { privateKey } = await generateKeyPair("RS256");
    const sameKid = await signToken({ kid: idp.signer.kid, key: privateKey, alg: "RS256" }, claims());
    expectError(await listKeys(sameKid), 401, "unauthorized");
    const unknownKid = await signToken({ kid: "not-in-jwks", key: privateKey, alg: "RS256" }, claims());
    expectError(await listKeys(unknownKid), 401, "unauthorized");
  });

  it("refuses a token of the issuer signed with HS256 or with alg none", async () => {
    const hs256 = await signToken({ kid: idp.signer.kid, key: new Uint8Array(32).fill(1), alg: "HS256" }, claims());
    expectError(await listKeys(hs256), 401, "unauthorized");
    expectError(await listKeys(unsignedToken({ ...claims(), exp: secondsFromNow(600) })), 401, "unauthorized");
  });

  it("refuses a tampered token of the issuer", async () => {
    const valid = await idp.issue(alice);
    expectError(await listKeys(withTamperedSignature(valid)), 401, "unauthorized");
    expectError(await listKeys(withTamperedPayload(valid, { exp: secondsFromNow(86_400 * 365) })), 401, "unauthorized");
  });

  it("refuses a token signed by the issuer's key that claims the development issuer", async () => {
    const token = await signToken(idp.signer, { iss: DEVELOPMENT_ISSUER, aud: "toolbroker-operators", sub: tenant.operatorSubject });
    expectError(await listKeys(token), 401, "unauthorized");
  });

  it("still accepts the development issuer outside production", async () => {
    expect((await listKeys(tenant.operatorToken)).status).toBe(200);
  });
});

describeEachDatabase("operator sessions when the identity provider is down", (kind) => {
  it("answers 503 service_unavailable, not 401, when the issuer's JWKS cannot be fetched", async () => {
    const idp = await startOidcIssuer();
    const token = await idp.issue("alice");
    const env = idp.env;
    await idp.close();
    const broker = await startBroker(kind, { env });
    try {
      const tenant = await createTenant(broker);
      expectError(await call(broker, "GET", "/v1/keys", { token, tenant: tenant.tenantId }), 503, "service_unavailable");
    } finally {
      await broker.close();
    }
  });
});
