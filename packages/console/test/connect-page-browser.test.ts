/**
 * Issue 41, in Debian's Chromium (playwright-core): the hosted connect page an end user opens, at
 * desktop (1280×800) and phone (390×844) width. The tenant's name and logo, the providers' icons
 * and the scopes in plain words show; the expiry reads in the browser's own time zone (the broker's
 * script, under the page's CSP, which blocks nothing the page needs); nothing scrolls sideways. An
 * expired or unknown link is a page that says which. Screenshots go to test-output/ to be looked at.
 */
import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS, TEST_OUTPUT, browserSuiteSkipped } from "./support/chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "../../server/test/support/broker.js";
import { startFakeUpstreams, type FakeUpstreams } from "../../server/test/support/fake-upstreams/index.js";
import { asOperator, call } from "../../server/test/support/http.js";
import { logoPng } from "../../server/test/support/png.js";

mkdirSync(TEST_OUTPUT, { recursive: true });

const SIZES = [
  { name: "desktop", viewport: { width: 1280, height: 800 } },
  { name: "phone", viewport: { width: 390, height: 844 } },
] as const;

const skipped = browserSuiteSkipped("connect page", { consoleBuild: false });

(skipped ? describe.skip : describe)("the hosted connect page, branded, in Chromium", { timeout: 60_000 }, () => {
  let fakes: FakeUpstreams;
  let broker: TestBroker;
  let tenant: TestTenant;
  let browser: Browser;
  let link: string;

  beforeAll(async () => {
    fakes = await startFakeUpstreams();
    // Gmail's client makes it connectable; its authorize URL is only written into the page's CSP.
    broker = await startBroker("sqlite", { env: { ...fakes.github.env, BROKER_PROVIDER_GOOGLE_CLIENT_ID: "google-client", BROKER_PROVIDER_GOOGLE_CLIENT_SECRET: "google-secret" } });
    tenant = await createTenant(broker, "Acme");
    const logo = { content_type: "image/png", data_base64: logoPng(96).toString("base64") };
    const branded = await call(broker, "PATCH", "/v1/branding", { ...asOperator(tenant), body: { display_name: "Acme Payroll", logo } });
    expect(branded.status, branded.text).toBe(200);
    const session = await call(broker, "POST", "/v1/connect-sessions", { token: tenant.testKey, body: { end_user_id: "erin", providers: ["scm", "gmail"] } });
    expect(session.status, session.text).toBe(201);
    link = session.body.connect_url;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await broker?.close();
    await fakes?.close();
  });

  /** Opens a URL in a fresh context in New York's time zone, collecting what the CSP blocked. */
  async function open(url: string, viewport: { width: number; height: number }, use: (page: Page, blocked: string[]) => Promise<void>) {
    const context = await browser.newContext({ viewport, timezoneId: "America/New_York", locale: "en-US" });
    try {
      const page = await context.newPage();
      const blocked: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) blocked.push(message.text());
      });
      page.on("pageerror", (error) => blocked.push(`script error: ${error.message}`));
      await page.goto(url);
      await page.waitForLoadState("load");
      await use(page, blocked);
    } finally {
      await context.close();
    }
  }

  const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

  it.each(SIZES)("shows the tenant's brand, the providers with their scopes, and the expiry in local time ($name)", async ({ name, viewport }) => {
    await open(link, viewport, async (page, blocked) => {
      await expect.poll(() => page.locator("time[data-local-time]").textContent(), { message: blocked.join("\n") }).not.toContain("UTC");
      expect(await page.locator("h1").textContent()).toBe("Connect your accounts to Acme Payroll");
      expect(await page.locator(".brand-name").textContent()).toBe("Acme Payroll");
      expect(await page.locator(".brand img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(96);
      expect(await page.locator(".provider img").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(await page.locator(".provider .badge").textContent()).toBe("G");
      expect(await page.getByText("read and write your repositories, private ones included").count()).toBe(1);
      expect(await page.getByText("write drafts and send email as you").count()).toBe(1);
      // The time element says New York's time (EST or EDT, by the date); its title keeps the UTC words.
      const expiry = await page.locator("time[data-local-time]").textContent();
      expect(expiry).toMatch(/ E[SD]T$/);
      expect(await page.locator("time[data-local-time]").getAttribute("title")).toMatch(/UTC$/);
      expect(await page.locator("[data-time-left]").textContent()).toMatch(/^in (29|30) minutes$/);
      expect(blocked).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `${TEST_OUTPUT}/connect-branded-${name}.png`, fullPage: true });
    });
  });

  it.each(SIZES)("answers an expired link with a page saying it expired and what to do ($name)", async ({ name, viewport }) => {
    const session = await call(broker, "POST", "/v1/connect-sessions", { token: tenant.testKey, body: { end_user_id: "erin", providers: ["scm"] } });
    // Expired without waiting half an hour: the session's row says it ended a minute ago.
    await broker.services.store.db.updateTable("connect_sessions").set({ expires_at: new Date(Date.now() - 60_000).toISOString() }).where("id", "=", session.body.id).execute();
    await open(session.body.connect_url, viewport, async (page, blocked) => {
      expect(await page.locator("h1").textContent()).toBe("This connect link has expired");
      expect(await page.getByText("Ask the app that sent you here for a new link").count()).toBe(1);
      expect(blocked).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `${TEST_OUTPUT}/connect-expired-link-${name}.png`, fullPage: true });
    });
  });

  it.each(SIZES)("answers an unknown link with a page saying it is not valid and what to do ($name)", async ({ name, viewport }) => {
    await open(`${broker.url}/connect/cs_${"0".repeat(43)}`, viewport, async (page, blocked) => {
      expect(await page.locator("h1").textContent()).toBe("This connect link is not valid");
      expect(await page.getByText("Ask the app that sent you here for a new link").count()).toBe(1);
      expect(blocked).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);
      await page.screenshot({ path: `${TEST_OUTPUT}/connect-unknown-link-${name}.png`, fullPage: true });
    });
  });
});
