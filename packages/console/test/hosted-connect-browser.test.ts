/**
 * Issue 36, item 4, in a real browser (Debian's Chromium driven by playwright-core): the hosted
 * connect page against login CSRF. Mallory holds a connect link for her own end user and lures a
 * victim, logged in at the (fake) provider, to her page on another site (127.0.0.2). Whether that
 * page redirects, navigates by script or auto-submits a form with her own page token, the victim's
 * browser starts no flow: no binding cookie, nothing asked of the provider, no account connected to
 * Mallory. A person who presses the button on the broker's page connects, under the page's CSP
 * (its form-action lets the post lead to the provider's authorize page).
 */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { chromium, type Browser, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "../../server/test/support/broker.js";
import { startFakeUpstreams, type FakeUpstreams } from "../../server/test/support/fake-upstreams/index.js";
import { call } from "../../server/test/support/http.js";

const OUTPUT = fileURLToPath(new URL("../test-output", import.meta.url));
mkdirSync(OUTPUT, { recursive: true });

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
/** The cookie that binds a flow to the browser that started it (connections/browser-binding.ts). */
const BINDING_COOKIE = /^toolbroker_connect_[0-9a-f]{32}$/;

if (!existsSync(CHROMIUM)) process.stdout.write(`\n[console] hosted connect browser tests SKIPPED: missing ${CHROMIUM} (apt-get install chromium)\n\n`);

/** Mallory's site: each path is one way of sending a visitor's browser to her connect link. */
function startAttackerSite(pages: Record<string, (response: import("node:http").ServerResponse) => void>): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const page = pages[request.url ?? ""];
    if (!page) return void response.writeHead(404).end();
    page(response);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.2", () => resolve({ server, url: `http://127.0.0.2:${(server.address() as AddressInfo).port}` })));
}

const html = (body: string) => (response: import("node:http").ServerResponse) => response.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><html><body>${body}</body></html>`);

(existsSync(CHROMIUM) ? describe : describe.skip)("the hosted connect page in Chromium", { timeout: 60_000 }, () => {
  let fakes: FakeUpstreams;
  let broker: TestBroker;
  let tenant: TestTenant;
  let browser: Browser;
  let attacker: { server: Server; url: string };
  let mallorysLink: string;

  const mallorysConnections = async () =>
    (await broker.services.store.db.selectFrom("connections").select("id").where("tenant_id", "=", tenant.tenantId).where("end_user_id", "=", "mallory").execute()).length;
  const bindingCookies = async (context: BrowserContext) => (await context.cookies()).filter((cookie) => BINDING_COOKIE.test(cookie.name));

  beforeAll(async () => {
    fakes = await startFakeUpstreams();
    broker = await startBroker("sqlite", { env: { ...fakes.github.env } });
    tenant = await createTenant(broker, "Acme");
    const session = await call(broker, "POST", "/v1/connect-sessions", { token: tenant.testKey, body: { end_user_id: "mallory", providers: ["scm"] } });
    expect(session.status, session.text).toBe(201);
    mallorysLink = session.body.connect_url;
    // Mallory opens her own page once to get a page token for her auto-submitting form.
    const mallorysPage = await call(broker, "GET", new URL(mallorysLink).pathname, { headers: { accept: "text/html" } });
    const mallorysToken = /name="page_token" value="([^"]+)"/.exec(mallorysPage.text)?.[1] ?? "";
    const start = `${mallorysLink}/scm`;
    attacker = await startAttackerSite({
      "/redirect": (response) => response.writeHead(302, { location: start }).end(),
      "/meta-refresh": html(`<meta http-equiv="refresh" content="0;url=${start}">`),
      "/script": html(`<script>location.href = ${JSON.stringify(start)};</script>`),
      "/auto-submit": html(
        `<form method="post" action="${start}"><input type="hidden" name="page_token" value="${mallorysToken}"></form>` +
          `<script>document.forms[0].submit();</script>`,
      ),
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => attacker?.server.close(resolve));
    await broker?.close();
    await fakes?.close();
  });

  it.each(["/redirect", "/meta-refresh", "/script", "/auto-submit"])("starts nothing when Mallory's page sends the victim's browser to her link (%s)", async (attack) => {
    const authorizesBefore = fakes.github.stats.authorizeRequests.length;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${attacker.url}${attack}`);
      // Wherever the browser went, it has stopped on a broker page: not the provider, not a callback.
      await expect.poll(() => new URL(page.url()).origin, { timeout: 10_000 }).toBe(broker.url);
      await page.waitForLoadState("load");
      expect(new URL(page.url()).pathname).toBe(new URL(`${mallorysLink}/scm`).pathname);
      expect(await page.locator("h1").textContent()).toMatch(/Connect GitHub|This request was refused/);
      expect(await bindingCookies(context)).toEqual([]);
      expect(fakes.github.stats.authorizeRequests.length).toBe(authorizesBefore);
      expect(await mallorysConnections()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("connects the account of a person who presses the button on the broker's page, to the link's end user", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(mallorysLink);
      await page.screenshot({ path: `${OUTPUT}/hosted-connect.png`, fullPage: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.screenshot({ path: `${OUTPUT}/hosted-connect-phone.png`, fullPage: true });
      await page.getByRole("button", { name: "Connect GitHub" }).click();
      await expect.poll(async () => page.locator("h1").textContent(), { timeout: 10_000 }).toBe("Connected");
      expect(new URL(page.url()).pathname).toBe("/v1/connections/oauth/callback");
      expect(await mallorysConnections()).toBe(1);
      // The callback spent the binding: the cookie is gone.
      expect(await bindingCookies(context)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
