/**
 * The console's production sign-in in Chromium: OpenID Connect authorization code with PKCE
 * against an identity provider on loopback, the token kept in sessionStorage only, the code gone
 * from the address bar, and the operator's tenants from GET /v1/me.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker } from "../../server/test/support/broker.js";
import { startFakeIdentityProvider, type FakeIdentityProvider } from "./support/fake-identity-provider.js";

const CHROMIUM = "/usr/bin/chromium";
const DIST = fileURLToPath(new URL("../dist", import.meta.url));
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const ready = existsSync(CHROMIUM) && existsSync(`${DIST}/index.html`);

(ready ? describe : describe.skip)("console sign-in through an OpenID Connect provider", { timeout: 60_000 }, () => {
  let idp: FakeIdentityProvider;
  let broker: TestBroker;
  let browser: Browser;

  beforeAll(async () => {
    idp = await startFakeIdentityProvider("oidc-alice");
    broker = await startBroker("sqlite", {
      env: { BROKER_OIDC_ISSUER: idp.issuer, BROKER_OIDC_AUDIENCE: idp.audience, BROKER_CONSOLE_CLIENT_ID: idp.clientId },
      consoleDirectory: DIST,
    });
    const tenant = await createTenant(broker, "Acme");
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: idp.issuer, subject: "oidc-alice", role: "admin" }, "test");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await broker?.close();
    await idp?.close();
  });

  it("signs in with PKCE, keeps the token in sessionStorage only, and lands in the tenant", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${broker.url}/console/`);
    expect(await page.getByLabel("Subject").count()).toBe(0);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("link", { name: /Approvals/ }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    expect(idp.grants).toContain("authorization_code");
    expect(page.url()).not.toContain("code=");
    const storage = await page.evaluate(() => ({ session: JSON.stringify(sessionStorage), local: JSON.stringify(localStorage) }));
    expect(storage.session).toContain("eyJ");
    expect(storage.local).not.toContain("eyJ");
    expect(await page.getByText("oidc-alice").count()).toBeGreaterThan(0);
    await page.close();
  });
});
