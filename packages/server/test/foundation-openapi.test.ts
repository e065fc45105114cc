/**
 * SPEC §9: an OpenAPI 3.1.0 description labelled 0.0.0-step9, public at /openapi.json outside
 * production only, and always at /v1/ops/openapi.json for operators. It documents each route's
 * credential and error responses.
 */
import { compileErrors, validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootstrapTenant } from "../src/bootstrap/bootstrap-tenant.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { startOidcIssuer, type OidcIssuer } from "./support/oidc-issuer.js";

/** Routes under /v1 that take no credential by design (SPEC §4: the OAuth callback). */
// Slack interactivity takes no bearer credential: Slack's request signature is checked instead (its description says how).
const PUBLIC_V1_OPERATIONS = new Set(["GET /v1/connections/oauth/callback", "GET /v1/console/config", "POST /v1/console/dev-session", "GET /v1/catalogue/schema", "POST /v1/slack/interactivity"]);
const METHODS = ["get", "put", "post", "delete", "patch"] as const;

type Operation = { security?: Record<string, string[]>[]; responses: Record<string, { content?: Record<string, { schema: unknown }> }>; requestBody?: unknown };
type Document = { openapi: string; info: { version: string }; paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>; components: { securitySchemes: Record<string, unknown> } };

function operations(document: Document) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ name: `${method.toUpperCase()} ${path}`, path, operation: item[method]! })),
  );
}

describeEachDatabase("OpenAPI description outside production", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let document: Document;

  beforeAll(async () => {
    broker = await startBroker(kind);
    tenant = await createTenant(broker);
    document = (await call(broker, "GET", "/openapi.json")).body;
  });
  afterAll(() => broker.close());

  it("serves GET /openapi.json without a credential", async () => {
    const result = await call(broker, "GET", "/openapi.json");
    expect(result.status).toBe(200);
    expect(result.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("is OpenAPI 3.1.0 with the version label 0.0.0-step9", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("0.0.0-step9");
  });

  it("validates as an OpenAPI document", async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
  });

  it("describes the foundation routes with OpenAPI path templates", () => {
    const names = operations(document).map((o) => o.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "GET /health",
        "GET /health/live",
        "GET /health/ready",
        "GET /openapi.json",
        "GET /v1/ops/openapi.json",
        "GET /.well-known/jwks.json",
        "POST /v1/broker/token",
        "GET /v1/keys",
        "POST /v1/keys",
        "DELETE /v1/keys/{id}",
        "GET /v1/agent-apps",
        "POST /v1/agent-apps",
        "GET /v1/agent-apps/{id}",
        "DELETE /v1/agent-apps/{id}",
        "GET /v1/audit",
      ]),
    );
    expect(names.filter((name) => name.includes(":"))).toEqual([]);
  });

  it("declares security and at least one error response on every non-public /v1 operation", () => {
    const v1 = operations(document).filter((o) => o.path.startsWith("/v1/") && !PUBLIC_V1_OPERATIONS.has(o.name));
    expect(v1.length).toBeGreaterThan(5);
    for (const { name, operation } of v1) {
      expect(operation.security?.length, `${name} declares security`).toBeGreaterThan(0);
      for (const requirement of operation.security!) {
        for (const scheme of Object.keys(requirement)) expect(document.components.securitySchemes, name).toHaveProperty(scheme);
      }
      const errors = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
      expect(errors.length, `${name} declares an error response`).toBeGreaterThan(0);
      expect(errors, `${name} declares 401`).toContain("401");
    }
  });

  it("names the credential each operation takes", () => {
    const byName = new Map(operations(document).map((o) => [o.name, o.operation]));
    expect(byName.get("POST /v1/broker/token")!.security).toEqual([{ controlKey: [] }]);
    expect(byName.get("GET /v1/keys")!.security).toEqual([{ operatorToken: [], tenantHeader: [] }]);
    expect(byName.get("GET /health")!.security).toBeUndefined();
    expect(byName.get("GET /health/live")!.security).toBeUndefined();
    expect(byName.get("GET /health/ready")!.security).toBeUndefined();
    expect(byName.get("GET /.well-known/jwks.json")!.security).toBeUndefined();
  });

  it("documents the error envelope for every error response", () => {
    for (const { name, operation } of operations(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        // /health's and /health/ready's 503 is their status document (database unreachable, not ready), not an error of the request.
        if ((name === "GET /health" || name === "GET /health/ready") && status === "503") continue;
        expect(JSON.stringify(response.content?.["application/json"]?.schema), `${name} ${status}`).toContain("ErrorEnvelope");
      }
    }
  });

  it("documents 400, 413 and 415 on every operation that takes a JSON body", () => {
    const withBody = operations(document).filter((o) => o.operation.requestBody);
    expect(withBody.length).toBeGreaterThan(2);
    for (const { name, operation } of withBody) {
      expect(Object.keys(operation.responses), name).toEqual(expect.arrayContaining(["400", "413", "415"]));
    }
  });

  it("serves GET /v1/ops/openapi.json only to an operator session", async () => {
    expectError(await call(broker, "GET", "/v1/ops/openapi.json"), 401, "unauthorized");
    expectError(await call(broker, "GET", "/v1/ops/openapi.json", { token: tenant.operatorToken }), 401, "unauthorized");
    expectError(await call(broker, "GET", "/v1/ops/openapi.json", { token: tenant.testKey }), 401, "unauthorized");
    const result = await call(broker, "GET", "/v1/ops/openapi.json", asOperator(tenant));
    expect(result.status).toBe(200);
    expect(result.body).toEqual(document);
  });

  it("reports on /health that the public description is on", async () => {
    expect((await call(broker, "GET", "/health")).body).toMatchObject({ environment: "test", public_openapi: true, version: "0.0.0-step9" });
  });
});

describeEachDatabase("OpenAPI description in production", (kind) => {
  let idp: OidcIssuer;
  let broker: TestBroker;
  let operator: { token: string; tenant: string };

  beforeAll(async () => {
    idp = await startOidcIssuer();
    broker = await startBroker(kind, {
      env: { BROKER_ENV: "production", BROKER_PUBLIC_URL: "https://broker.example.test", ...idp.env },
    });
    const subject = "ops-admin";
    const { tenant_id } = await bootstrapTenant(broker.services, { tenantName: "Prod", operator: { issuer: idp.issuer, subject } });
    operator = { token: await idp.issue(subject), tenant: tenant_id };
  });
  afterAll(async () => {
    await broker.close();
    await idp.close();
  });

  it("runs without the development issuer", () => {
    expect(broker.config.environment).toBe("production");
    expect(broker.runtime.developmentIssuer).toBeUndefined();
  });

  it("warns at start when production runs on SQLite, and only then", () => {
    const warned = broker.logs.some((line) => line.includes("production is running on SQLite"));
    expect(warned).toBe(broker.runtime.store.kind === "sqlite");
  });

  it("answers GET /openapi.json with 404 not_found", async () => {
    expectError(await call(broker, "GET", "/openapi.json"), 404, "not_found");
  });

  it("tells anonymous /health callers only whether it is up; operators read the details at /v1/ops/health", async () => {
    const health = await call(broker, "GET", "/health");
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: "ok", service: expect.any(String), version: expect.any(String), database: { status: "ok" } });
    expectError(await call(broker, "GET", "/v1/ops/health"), 401, "unauthorized");
    const detailed = await call(broker, "GET", "/v1/ops/health", operator);
    expect(detailed.body).toMatchObject({ environment: "production", public_openapi: false, database: { kind: broker.runtime.store.kind, status: "ok" }, vault: { status: "ok" } });
    expect(detailed.body.providers.length).toBeGreaterThan(0);
  });

  it("still serves GET /v1/ops/openapi.json to an operator of the configured issuer", async () => {
    expectError(await call(broker, "GET", "/v1/ops/openapi.json"), 401, "unauthorized");
    const result = await call(broker, "GET", "/v1/ops/openapi.json", operator);
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ openapi: "3.1.0", info: { version: "0.0.0-step9" }, servers: [{ url: "https://broker.example.test" }] });
  });

  describe("a development-issuer token", () => {
    it("is refused in production even when correctly signed", async () => {
      const { loadOrCreateDevelopmentIssuer } = await import("../src/identity/development-issuer.js");
      const devIssuer = await loadOrCreateDevelopmentIssuer(broker.database.dataDir);
      await broker.services.tenants.addMember(operator.tenant, { issuer: devIssuer.issuer, subject: "dev-person", role: "admin" }, "test");
      expectError(await call(broker, "GET", "/v1/ops/openapi.json", { token: await devIssuer.issue("dev-person"), tenant: operator.tenant }), 401, "unauthorized");
    });
  });
});
