/** Webhook endpoints as a resource: credentials, tenant isolation, the secret shown once, changes, audit. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBroker, createTenant, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { registerEndpoint } from "./support/webhooks.js";

const URL_A = "http://127.0.0.1:9/hooks?token=receiver-side-token";

describeEachDatabase("webhook endpoints", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let other: TestTenant;
  let viewerToken: string;

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker, "Acme");
    other = await createTenant(broker, "Other");
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "viewer-1", role: "viewer" }, "test");
    viewerToken = await issuer.issue("viewer-1");
  });
  afterAll(() => broker.close());

  describe("authentication and tenant isolation", () => {
    it("refuses a request without a credential with 401", async () => {
      expectError(await call(broker, "GET", "/v1/webhooks"), 401, "unauthorized");
      expectError(await call(broker, "POST", "/v1/webhooks", { body: { url: URL_A } }), 401, "unauthorized");
    });

    it("refuses a control key or a broker JWT where an operator session is required", async () => {
      expectError(await call(broker, "GET", "/v1/webhooks", { token: tenant.testKey }), 401, "unauthorized");
      expectError(await call(broker, "POST", "/v1/webhooks", { token: tenant.liveKey, body: { url: URL_A } }), 401, "unauthorized");
    });

    it("lets a viewer read endpoints but not create, change, test or delete them (403)", async () => {
      const endpoint = await registerEndpoint(broker, tenant, { url: URL_A });
      const viewer = { token: viewerToken, tenant: tenant.tenantId };
      expect((await call(broker, "GET", "/v1/webhooks", viewer)).status).toBe(200);
      expect((await call(broker, "GET", `/v1/webhooks/${endpoint.id}/deliveries`, viewer)).status).toBe(200);
      expectError(await call(broker, "POST", "/v1/webhooks", { ...viewer, body: { url: URL_A } }), 403, "forbidden");
      expectError(await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...viewer, body: { enabled: false } }), 403, "forbidden");
      expectError(await call(broker, "POST", `/v1/webhooks/${endpoint.id}/rotate-secret`, viewer), 403, "forbidden");
      expectError(await call(broker, "POST", `/v1/webhooks/${endpoint.id}/test`, viewer), 403, "forbidden");
      expectError(await call(broker, "DELETE", `/v1/webhooks/${endpoint.id}`, viewer), 403, "forbidden");
    });

    it("neither shows nor touches another tenant's endpoint: 404 on every route", async () => {
      const endpoint = await registerEndpoint(broker, tenant, { url: URL_A });
      const intruder = asOperator(other);
      const deliveryId = "00000000-0000-4000-8000-000000000000";
      expect((await call(broker, "GET", "/v1/webhooks", intruder)).body.data).toEqual([]);
      expectError(await call(broker, "GET", `/v1/webhooks/${endpoint.id}`, intruder), 404, "not_found");
      expectError(await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...intruder, body: { enabled: false } }), 404, "not_found");
      expectError(await call(broker, "POST", `/v1/webhooks/${endpoint.id}/rotate-secret`, intruder), 404, "not_found");
      expectError(await call(broker, "POST", `/v1/webhooks/${endpoint.id}/test`, intruder), 404, "not_found");
      expectError(await call(broker, "GET", `/v1/webhooks/${endpoint.id}/deliveries`, intruder), 404, "not_found");
      expectError(await call(broker, "POST", `/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}/retry`, intruder), 404, "not_found");
      expectError(await call(broker, "DELETE", `/v1/webhooks/${endpoint.id}`, intruder), 404, "not_found");
      const still = await call(broker, "GET", `/v1/webhooks/${endpoint.id}`, asOperator(tenant));
      expect(still.body.status).toBe("enabled");
    });
  });

  it("documents every webhooks route in the OpenAPI description, with operator security", async () => {
    const spec = (await call(broker, "GET", "/v1/ops/openapi.json", asOperator(tenant))).body;
    const operations = [
      ["/v1/webhooks", "post"], ["/v1/webhooks", "get"], ["/v1/webhooks/{id}", "get"], ["/v1/webhooks/{id}", "patch"],
      ["/v1/webhooks/{id}", "delete"], ["/v1/webhooks/{id}/rotate-secret", "post"], ["/v1/webhooks/{id}/test", "post"],
      ["/v1/webhooks/{id}/deliveries", "get"], ["/v1/webhooks/{id}/deliveries/{delivery_id}/retry", "post"],
    ] as const;
    for (const [path, method] of operations) {
      const operation = spec.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.security).toEqual([{ operatorToken: [], tenantHeader: [] }]);
    }
    expect(JSON.stringify(spec.paths["/v1/webhooks"].get.responses)).not.toContain('"secret"');
  });

  describe("the signing secret", () => {
    it("is returned once at creation as whsec_ + base64 of 32 random bytes, with no-store", async () => {
      const result = await call(broker, "POST", "/v1/webhooks", { ...asOperator(tenant), body: { url: URL_A, description: "billing hooks" } });
      expect(result.status).toBe(201);
      expect(result.headers.get("cache-control")).toBe("no-store");
      const { secret, secret_prefix } = result.body;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
      expect(Buffer.from(secret.slice("whsec_".length), "base64").length).toBeGreaterThanOrEqual(24);
      expect(secret_prefix).toBe(secret.slice(0, 10));
      expect(result.body).toMatchObject({ url: URL_A, description: "billing hooks", events: null, status: "enabled", disabled: null, last_delivery: null });
    });

    it("is absent from every later response, the audit log, the logs and the database row", async () => {
      const endpoint = await registerEndpoint(broker, tenant, { url: URL_A });
      const op = asOperator(tenant);
      const reads = [
        await call(broker, "GET", "/v1/webhooks", op),
        await call(broker, "GET", `/v1/webhooks/${endpoint.id}`, op),
        await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...op, body: { description: "changed" } }),
        await call(broker, "POST", `/v1/webhooks/${endpoint.id}/test`, op),
        await call(broker, "GET", `/v1/webhooks/${endpoint.id}/deliveries`, op),
        await call(broker, "GET", "/v1/audit?limit=200", op),
      ];
      for (const read of reads) expect(read.status, read.text).toBe(200);
      const listed = reads[0]!.body.data.find((e: { id: string }) => e.id === endpoint.id);
      expect(listed.secret_prefix).toBe(endpoint.secret.slice(0, 10));
      expect(listed).not.toHaveProperty("secret");
      const body = endpoint.secret.slice("whsec_".length);
      expect(broker.responses.filter((text) => text.includes(body))).toHaveLength(1);
      expect(broker.logs.filter((line) => line.includes(body))).toEqual([]);
      const row = await broker.services.store.db.selectFrom("webhook_endpoints").selectAll().where("id", "=", endpoint.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(row)).not.toContain(body);
    });
  });

  describe("validation", () => {
    it("refuses unknown event kinds, extra properties and a missing url with 400", async () => {
      const op = asOperator(tenant);
      expectError(await call(broker, "POST", "/v1/webhooks", { ...op, body: { url: URL_A, events: ["connection.exploded"] } }), 400, "invalid_request");
      expectError(await call(broker, "POST", "/v1/webhooks", { ...op, body: { url: URL_A, secret: "whsec_mine" } }), 400, "invalid_request");
      expectError(await call(broker, "POST", "/v1/webhooks", { ...op, body: { events: ["connection.revoked"] } }), 400, "invalid_request");
      expectError(await call(broker, "POST", "/v1/webhooks", { ...op, body: { url: URL_A, events: [] } }), 400, "invalid_request");
    });

    it("refuses a URL that is not http(s), has credentials or a fragment with 422 webhook_url_refused", async () => {
      const op = asOperator(tenant);
      for (const url of ["ftp://127.0.0.1/hooks", "not a url", "http://user:pass@127.0.0.1/hooks", "http://127.0.0.1/hooks#x", "file:///etc/passwd"]) {
        const result = await call(broker, "POST", "/v1/webhooks", { ...op, body: { url } });
        expectError(result, 422, "webhook_url_refused");
        expect(["invalid", "credentials_in_url"]).toContain(result.body.error.details.reason);
      }
    });

    it("allows plain http to a loopback address outside production", async () => {
      const endpoint = await registerEndpoint(broker, tenant, { url: "http://localhost:9/hooks" });
      expect(endpoint.url).toBe("http://localhost:9/hooks");
    });
  });

  describe("changes", () => {
    it("PATCH changes url, events and description, and validates the new URL", async () => {
      const endpoint = await registerEndpoint(broker, tenant, { url: URL_A, events: ["connection.revoked"] });
      const op = asOperator(tenant);
      const patched = await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, {
        ...op,
        body: { url: "http://127.0.0.1:10/other", events: ["approval.requested", "approval.decided"], description: "approvals" },
      });
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body).toMatchObject({ url: "http://127.0.0.1:10/other", events: ["approval.requested", "approval.decided"], description: "approvals" });
      const all = await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...op, body: { events: null } });
      expect(all.body.events).toBeNull();
      expectError(await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...op, body: { url: "gopher://x" } }), 422, "webhook_url_refused");
      expectError(await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...op, body: {} }), 400, "invalid_request");
    });

    it("disables and re-enables an endpoint; a disabled endpoint says why", async () => {
      const endpoint = await registerEndpoint(broker, tenant, { url: URL_A });
      const op = asOperator(tenant);
      const disabled = await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...op, body: { enabled: false } });
      expect(disabled.body.status).toBe("disabled");
      expect(disabled.body.disabled).toMatchObject({ reason: "operator", message: "disabled by an operator" });
      const enabled = await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...op, body: { enabled: true } });
      expect(enabled.body).toMatchObject({ status: "enabled", disabled: null });
    });

    it("DELETE removes the endpoint; it is then 404", async () => {
      const endpoint = await registerEndpoint(broker, tenant, { url: URL_A });
      const op = asOperator(tenant);
      const deleted = await call(broker, "DELETE", `/v1/webhooks/${endpoint.id}`, op);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id: endpoint.id, deleted: true });
      expectError(await call(broker, "GET", `/v1/webhooks/${endpoint.id}`, op), 404, "not_found");
      expectError(await call(broker, "DELETE", `/v1/webhooks/${endpoint.id}`, op), 404, "not_found");
    });

    it("audits every write under the operator, without the URL's query string", async () => {
      const endpoint = await registerEndpoint(broker, tenant, { url: URL_A });
      const op = asOperator(tenant);
      await call(broker, "PATCH", `/v1/webhooks/${endpoint.id}`, { ...op, body: { description: "x" } });
      await call(broker, "POST", `/v1/webhooks/${endpoint.id}/rotate-secret`, op);
      await call(broker, "POST", `/v1/webhooks/${endpoint.id}/test`, op);
      await call(broker, "DELETE", `/v1/webhooks/${endpoint.id}`, op);
      const audit = await call(broker, "GET", "/v1/audit?limit=200", op);
      const mine = audit.body.data.filter((e: { target: { id: string } | null }) => e.target?.id === endpoint.id);
      expect(mine.map((e: { action: string }) => e.action).reverse()).toEqual([
        "webhook.created",
        "webhook.updated",
        "webhook.secret_rotated",
        "webhook.tested",
        "webhook.deleted",
      ]);
      for (const entry of mine) expect(entry.actor).toEqual({ type: "operator", id: expect.stringContaining(tenant.operatorSubject) });
      expect(JSON.stringify(mine)).not.toContain("receiver-side-token");
    });

    it("caps a tenant at 50 endpoints (422 webhook_endpoint_limit_reached)", async () => {
      const crowded = await createTenant(broker, "Crowded");
      for (let i = 0; i < 50; i += 1) await registerEndpoint(broker, crowded, { url: `http://127.0.0.1:9/hooks/${i}` });
      expectError(await call(broker, "POST", "/v1/webhooks", { ...asOperator(crowded), body: { url: URL_A } }), 422, "webhook_endpoint_limit_reached");
    });
  });
});
