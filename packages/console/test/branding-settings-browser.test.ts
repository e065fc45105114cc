/**
 * Issue 41, in Chromium: Settings › Branding, where an admin sets the name and logo end users
 * see on the hosted connect page. An SVG or an oversized image is refused before it is sent; a PNG
 * is saved, previewed, shown on a connect page, and can be removed. A viewer sees the brand and
 * cannot change it. Shot at desktop (1280×800) and phone (390×844) width into test-output/.
 */
import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS, CONSOLE_DIST, DESKTOP, PHONE, TEST_OUTPUT, browserSuiteSkipped } from "./support/chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "../../server/test/support/broker.js";
import { startFakeUpstreams, type FakeUpstreams } from "../../server/test/support/fake-upstreams/index.js";
import { asOperator, call } from "../../server/test/support/http.js";
import { logoPng } from "../../server/test/support/png.js";


const skipped = browserSuiteSkipped("branding settings");

(skipped ? describe.skip : describe)("Settings › Branding in the console, in Chromium", { timeout: 90_000 }, () => {
  let fakes: FakeUpstreams;
  let broker: TestBroker;
  let tenant: TestTenant;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(TEST_OUTPUT, { recursive: true });
    fakes = await startFakeUpstreams();
    broker = await startBroker("sqlite", { env: { ...fakes.github.env }, consoleDirectory: CONSOLE_DIST });
    tenant = await createTenant(broker, "Acme");
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "brand-viewer", role: "viewer" }, "test");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await broker?.close();
    await fakes?.close();
  });

  async function shootBoth(page: Page, name: string) {
    await page.screenshot({ path: `${TEST_OUTPUT}/${name}.png`, fullPage: true });
    await page.setViewportSize(PHONE);
    await page.screenshot({ path: `${TEST_OUTPUT}/${name}-phone.png`, fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${name} overflows at phone width`).toBeLessThanOrEqual(0);
    await page.setViewportSize(DESKTOP);
  }

  async function openBrandingTab(subject: string): Promise<Page> {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${broker.url}/console/`);
    await page.getByLabel("Subject").fill(subject);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("link", { name: "Settings" }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("tab", { name: "Branding" }).click();
    return page;
  }

  it("refuses an SVG and an oversized image before sending, then saves a name and a PNG logo that the connect page shows, and removes the logo", async () => {
    const page = await openBrandingTab(tenant.operatorSubject);
    const form = page.getByRole("form", { name: "Connect page branding" });
    await expect.poll(() => form.count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByLabel("How the connect page shows your brand").textContent()).toBe("AAcme");

    const logoInput = page.getByLabel("Logo");
    await logoInput.setInputFiles({ name: "logo.svg", mimeType: "image/svg+xml", buffer: Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>") });
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "SVG is not accepted" }).count()).toBe(1);
    await logoInput.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.concat([logoPng(32), Buffer.alloc(120 * 1024)]) });
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "at most 100 KiB" }).count()).toBe(1);

    await page.getByLabel("Name shown to end users").fill("Acme Payroll");
    await logoInput.setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: logoPng(96) });
    await expect.poll(() => page.locator(".brand-preview img").count()).toBe(1);
    await page.getByRole("button", { name: "Save branding" }).click();
    await expect.poll(() => page.getByText("Saved the connect page branding.").count(), { timeout: 10_000 }).toBe(1);
    const saved = (await call(broker, "GET", "/v1/branding", asOperator(tenant))).body;
    expect(saved).toMatchObject({ display_name: "Acme Payroll", logo: { content_type: "image/png", bytes: logoPng(96).length } });
    expect(await page.locator(".brand-preview img").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(96);
    await shootBoth(page, "settings-branding");

    const session = await call(broker, "POST", "/v1/connect-sessions", { token: tenant.testKey, body: { end_user_id: "erin", providers: ["scm"] } });
    const connectPage = await call(broker, "GET", new URL(session.body.connect_url).pathname, { headers: { accept: "text/html" } });
    expect(connectPage.text).toContain("Connect your accounts to Acme Payroll");
    expect(connectPage.text).toContain(saved.logo.data_url);

    await page.getByRole("button", { name: "Remove logo" }).click();
    await page.getByRole("button", { name: "Save branding" }).click();
    await expect.poll(async () => (await call(broker, "GET", "/v1/branding", asOperator(tenant))).body.logo, { timeout: 10_000 }).toBeNull();
    expect((await call(broker, "GET", "/v1/branding", asOperator(tenant))).body.display_name).toBe("Acme Payroll");
    await page.close();
  });

  it("shows a viewer the brand without a form to change it", async () => {
    const page = await openBrandingTab("brand-viewer");
    await expect.poll(() => page.getByText("Only admins change the name and logo end users see.").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole("form", { name: "Connect page branding" }).count()).toBe(0);
    expect(await page.getByLabel("How the connect page shows your brand").textContent()).toContain("Acme Payroll");
    await shootBoth(page, "settings-branding-viewer");
    await page.close();
  });
});
