/**
 * What the broker gives the operator console: `GET /v1/me`, the sign-in configuration, the
 * development sign-in (never in production, never from another machine), and the built bundle at
 * /console/ with a strict Content-Security-Policy and deep links that survive a reload.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerConsoleRoutes } from "../src/console/console-routes.js";
import { registerErrorHandling } from "../src/http/error-handler.js";
import type { App } from "../src/http/app-type.js";
import { ErrorEnvelope } from "../src/http/schemas.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { call, mintBrokerToken } from "./support/http.js";

function builtConsole(): string {
  const directory = mkdtempSync(join(tmpdir(), "console-dist-"));
  mkdirSync(join(directory, "assets"));
  writeFileSync(join(directory, "index.html"), '<!doctype html><html><head><script type="module" src="/console/assets/app.js"></script></head><body><div id="root"></div></body></html>');
  writeFileSync(join(directory, "assets", "app.js"), "console.log('console');");
  return directory;
}

describeEachDatabase("the console's routes", (kind) => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let other: TestTenant;

  beforeAll(async () => {
    broker = await startBroker(kind, { consoleDirectory: builtConsole() });
    tenant = await createTenant(broker, "Acme");
    other = await createTenant(broker, "Globex");
  });
  afterAll(() => broker.close());

  it("tells the signed-in operator who they are and where they are a member, without a tenant header", async () => {
    const me = await call(broker, "GET", "/v1/me", { token: tenant.operatorToken });
    expect(me.status, me.text).toBe(200);
    expect(me.body).toMatchObject({ subject: tenant.operatorSubject, tenants: [{ tenant_id: tenant.tenantId, name: "Acme", role: "admin" }] });
    expect(me.body.tenants.map((t: { tenant_id: string }) => t.tenant_id)).not.toContain(other.tenantId);
  });

  it("refuses anything but an operator token on /v1/me", async () => {
    expectError(await call(broker, "GET", "/v1/me"), 401, "unauthorized");
    expectError(await call(broker, "GET", "/v1/me", { token: tenant.testKey }), 401, "unauthorized");
    expectError(await call(broker, "GET", "/v1/me", { token: await mintBrokerToken(broker, tenant) }), 401, "unauthorized");
    expectError(await call(broker, "GET", "/v1/me", { token: "eyJhbGciOiJub25lIn0.e30." }), 401, "unauthorized");
  });

  it("describes development sign-in, and mints a token for a subject from this machine", async () => {
    const config = await call(broker, "GET", "/v1/console/config");
    expect(config.body).toEqual({ development: true, issuer: "urn:toolbroker:dev-issuer", client_id: null, default_subject: "demo-operator" });
    const session = await call(broker, "POST", "/v1/console/dev-session", { body: { subject: tenant.operatorSubject } });
    expect(session.status, session.text).toBe(200);
    const me = await call(broker, "GET", "/v1/me", { token: session.body.access_token });
    expect(me.body.tenants).toHaveLength(1);
    expectError(await call(broker, "POST", "/v1/console/dev-session", { body: { subject: "" } }), 400, "invalid_request");
  });

  it("answers the development sign-in from another machine, through a proxy, or to a rebound name as an unknown route", async () => {
    const attempt = (options: { remoteAddress?: string; headers?: Record<string, string> }) =>
      broker.app.inject({ method: "POST", url: "/v1/console/dev-session", payload: { subject: "x" }, remoteAddress: "127.0.0.1", ...options, headers: { host: "127.0.0.1:8080", ...options.headers } });
    expect((await attempt({})).statusCode).toBe(200);
    expect((await attempt({ headers: { host: "localhost:8080", origin: "http://localhost:8080" } })).statusCode).toBe(200);
    const refusals: { remoteAddress?: string; headers?: Record<string, string> }[] = [
      { remoteAddress: "10.1.2.3" },
      { headers: { "x-forwarded-for": "203.0.113.9" } },
      // DNS rebinding: a page on attacker.example, its name now pointing at 127.0.0.1.
      { headers: { host: "attacker.example:8080", origin: "http://attacker.example:8080" } },
      { headers: { origin: "http://attacker.example" } },
    ];
    for (const refused of refusals) {
      const response = await attempt(refused);
      expect(response.statusCode, JSON.stringify(refused)).toBe(404);
      expect(response.json().error.code).toBe("not_found");
    }
  });

  it("has no development sign-in once an identity provider is configured", async () => {
    const app = Fastify() as unknown as App;
    app.addSchema(ErrorEnvelope);
    registerErrorHandling(app);
    registerConsoleRoutes(app, {
      operators: broker.services.operators,
      tenants: broker.services.tenants,
      developmentIssuer: broker.runtime.developmentIssuer,
      oidc: { issuer: "https://id.example", consoleClientId: "console" },
      publicUrl: broker.url,
    });
    const response = await app.inject({ method: "POST", url: "/v1/console/dev-session", payload: { subject: "x" }, remoteAddress: "127.0.0.1", headers: { host: "127.0.0.1" } });
    expect(response.statusCode).toBe(404);
    expect((await app.inject({ method: "GET", url: "/v1/console/config" })).json()).toMatchObject({ development: false, issuer: "https://id.example" });
    await app.close();
  });

  it("serves the bundle with a strict CSP, and index.html for every deep link", async () => {
    const root = await fetch(`${broker.url}/console`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/console/");
    for (const path of ["/console/", "/console/approvals/9f0c0d5e-8a55-4c3b-9d43-6c5f0f1f2a11", "/console/connections"]) {
      const page = await fetch(`${broker.url}${path}`);
      expect(page.status, path).toBe(200);
      expect(await page.text()).toContain('<div id="root">');
      const csp = page.headers.get("content-security-policy")!;
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("unsafe-inline");
      expect(page.headers.get("x-frame-options")).toBe("DENY");
    }
    const script = await fetch(`${broker.url}/console/assets/app.js`);
    expect(script.headers.get("content-type")).toContain("javascript");
    const escape = await fetch(`${broker.url}/console/..%2f..%2fpackage.json`);
    expect(await escape.text()).not.toContain("@toolbroker/server");
  });
});

describe("the console's routes in production", () => {
  let app: App;
  beforeAll(async () => {
    app = Fastify() as unknown as App;
    app.addSchema(ErrorEnvelope);
    registerErrorHandling(app);
    registerConsoleRoutes(app, {
      operators: { verify: async () => ({ issuer: "https://id.example", subject: "s" }) },
      tenants: { membershipsOf: async () => [] },
      developmentIssuer: undefined,
      oidc: { issuer: "https://id.example", consoleClientId: "console" },
      publicUrl: "https://broker.example",
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it("has no development sign-in, and names the identity provider and the console's client", async () => {
    const session = await app.inject({ method: "POST", url: "/v1/console/dev-session", payload: { subject: "x" } });
    expect(session.statusCode).toBe(404);
    const config = await app.inject({ method: "GET", url: "/v1/console/config" });
    expect(config.json()).toEqual({ development: false, issuer: "https://id.example", client_id: "console", default_subject: null });
  });
});

describe("a checkout whose console is not built", () => {
  it("says how to build it instead of a blank page", async () => {
    const broker = await startBroker("sqlite", { consoleDirectory: mkdtempSync(join(tmpdir(), "no-console-")) });
    try {
      const page = await fetch(`${broker.url}/console/`);
      expect(page.status).toBe(503);
      expect(await page.text()).toContain("npm run build -w @toolbroker/console");
    } finally {
      await broker.close();
    }
  });
});
