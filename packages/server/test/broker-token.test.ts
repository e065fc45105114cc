import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { call } from "./support/http.js";

describeEachDatabase("POST /v1/broker/token", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker);
  });
  afterAll(() => broker.close());

  it("mints an EdDSA broker JWT scoped to tenant, agent app and env", async () => {
    const result = await call(broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test" } });
    expect(result.status).toBe(200);
    expect(result.body.token_type).toBe("Bearer");
    expect(result.body.expires_in).toBe(900);
    const header = decodeProtectedHeader(result.body.access_token);
    expect(header).toMatchObject({ alg: "EdDSA", typ: "broker+jwt" });
    expect(header.kid).toBeTruthy();
    const claims = decodeJwt(result.body.access_token);
    expect(claims).toMatchObject({ aud: "broker", sub: tenant.agentAppId, tenant_id: tenant.tenantId, agent_app_id: tenant.agentAppId, env: "test", iss: broker.config.publicUrl });
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(claims.jti).toBeTruthy();
  });
});
