import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";

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

  describe("env follows from the control key's prefix (issue 41, item 9)", () => {
    it("mints env test with a bk_test_ key and env live with a bk_live_ key when the body names none", async () => {
      for (const [key, env] of [[tenant.testKey, "test"], [tenant.liveKey, "live"]] as const) {
        const result = await call(broker, "POST", "/v1/broker/token", { token: key, body: { agent_app_id: tenant.agentAppId } });
        expect(result.status, result.text).toBe(200);
        expect(decodeJwt(result.body.access_token)).toMatchObject({ env, agent_app_id: tenant.agentAppId });
      }
    });

    it("still mints when the body names the key's own env", async () => {
      const result = await call(broker, "POST", "/v1/broker/token", { token: tenant.liveKey, body: { agent_app_id: tenant.agentAppId, env: "live" } });
      expect(result.status, result.text).toBe(200);
      expect(decodeJwt(result.body.access_token).env).toBe("live");
    });

    it("keeps refusing an env that contradicts the key with 403 environment_mismatch", async () => {
      const refused = await call(broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "live" } });
      expectError(refused, 403, "environment_mismatch");
      expect(refused.body.error.message).toBe('a bk_test_ key cannot mint tokens for env "live"');
    });

    it("records the inferred env in the audit event", async () => {
      await call(broker, "POST", "/v1/broker/token", { token: tenant.liveKey, body: { agent_app_id: tenant.agentAppId } });
      const audit = await call(broker, "GET", "/v1/audit?action=broker_token.minted", asOperator(tenant));
      expect(audit.status, audit.text).toBe(200);
      expect(audit.body.data[0]).toMatchObject({ action: "broker_token.minted", data: { env: "live" } });
    });

    it("refuses an env that is neither with 400 naming the allowed values", async () => {
      const refused = await call(broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "prod" } });
      expectError(refused, 400, "invalid_request");
      expect(refused.body.error.message).toContain('/env must be one of the allowed values: "test", "live"');
    });
  });
});
