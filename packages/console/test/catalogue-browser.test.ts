/**
 * Issue 37 in the console, in Chromium: the Tools page searches and filters the whole built-in
 * catalogue through GET /v1/tools (q, provider, risk, side_effect) and shows each tool's MCP name
 * beside its dotted one; a provider's tab shows its icon, display name and the OAuth scopes it asks
 * for with the tools that need each; the Connections page shows each provider's icon, name and
 * scopes. Screenshots at desktop and phone width go to packages/console/test-output/catalogue-*.png.
 */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILT_IN_PROVIDERS } from "../../server/src/providers/built-in.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "../../server/test/support/broker.js";
import { startFakeUpstreams, type FakeUpstreams } from "../../server/test/support/fake-upstreams/index.js";

const CHROMIUM = "/usr/bin/chromium";
const DIST = fileURLToPath(new URL("../dist", import.meta.url));
const OUTPUT = fileURLToPath(new URL("../test-output", import.meta.url));
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const missing = [!existsSync(CHROMIUM) && `${CHROMIUM} (apt-get install chromium)`, !existsSync(`${DIST}/index.html`) && "the console build (npm run build -w @toolbroker/console)"].filter(Boolean);
if (missing.length) process.stdout.write(`\n[console] catalogue browser tests SKIPPED: missing ${missing.join(" and ")}\n\n`);

/** A built-in OAuth provider whose tools declare scopes, to look at (the first one there is). */
const SCOPED = BUILT_IN_PROVIDERS.find(({ declaration, tools }) => declaration.auth.type === "oauth2" && declaration.icon && tools.some((tool) => tool.scopes?.length));

(missing.length ? describe.skip : describe)("the catalogue in the console, in Chromium", { timeout: 90_000 }, () => {
  let fakes: FakeUpstreams;
  let broker: TestBroker;
  let tenant: TestTenant;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    fakes = await startFakeUpstreams();
    broker = await startBroker("sqlite", { env: { ...fakes.env }, consoleDirectory: DIST });
    tenant = await createTenant(broker, "Acme");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await broker?.close();
    await fakes?.close();
  });

  async function signIn(): Promise<Page> {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${broker.url}/console/`);
    await page.getByLabel("Subject").fill(tenant.operatorSubject);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("link", { name: "Tools" }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    return page;
  }

  /** Screenshots at desktop and phone width: the whole page, and the screenful around `focus`. */
  async function shootBoth(page: Page, name: string, focus?: Locator) {
    for (const [width, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `${OUTPUT}/catalogue-${name}-${width}.png`, fullPage: true });
      if (focus) await focus.evaluate((element) => element.scrollIntoView({ block: "start" }));
      else await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `${OUTPUT}/catalogue-${name}-${width}-screen.png` });
    }
    await page.setViewportSize(DESKTOP);
  }

  it("searches and filters the whole catalogue, with each tool's MCP name beside its dotted name", async () => {
    const page = await signIn();
    await page.getByRole("link", { name: "Tools" }).click();
    const rows = page.getByRole("table", { name: "Tools", exact: true }).getByRole("row");
    const total = BUILT_IN_PROVIDERS.reduce((sum, provider) => sum + provider.tools.length, 0);
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(total + 1);
    await page.getByLabel("Provider", { exact: true }).selectOption("scm");
    await page.getByLabel("Risk", { exact: true }).selectOption("high");
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(BUILT_IN_PROVIDERS.find((p) => p.declaration.id === "scm")!.tools.filter((t) => t.risk === "high").length + 1);
    expect(await page.getByRole("cell", { name: "scm_delete_repository", exact: true }).count()).toBe(1);
    await page.getByLabel("Provider", { exact: true }).selectOption("");
    await page.getByLabel("Risk", { exact: true }).selectOption("");
    await page.getByLabel("Effect", { exact: true }).selectOption("write");
    await page.getByLabel("Search names, titles and descriptions").fill("send message");
    await expect.poll(async () => (await rows.count()) - 1, { timeout: 10_000 }).toBeGreaterThan(0);
    for (const cell of await page.getByRole("table", { name: "Tools", exact: true }).locator("tbody tr td:nth-child(3)").allTextContents()) {
      expect(cell).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    }
    await shootBoth(page, "tools-search");
    await page.close();
  });

  it.runIf(SCOPED)("shows a provider's icon, name, and the scopes it asks for with the tools that need each", async () => {
    const { declaration, tools } = SCOPED!;
    const page = await signIn();
    await page.getByRole("link", { name: "Tools" }).click();
    await page.getByRole("tab", { name: declaration.id, exact: true }).click();
    const heading = page.getByRole("heading", { name: new RegExp(declaration.display_name) }).first();
    await expect.poll(() => heading.count(), { timeout: 10_000 }).toBe(1);
    expect(await heading.locator("img.provider-icon").count()).toBe(1);
    const scopes = page.getByRole("table", { name: `OAuth scopes of ${declaration.id} and the tools that need them` });
    await expect.poll(() => scopes.count(), { timeout: 10_000 }).toBe(1);
    const scoped = tools.find((tool) => tool.scopes?.length)!;
    const row = scopes.getByRole("row").filter({ has: page.getByRole("cell", { name: scoped.scopes![0]!, exact: true }) });
    expect(await row.getByText(scoped.name, { exact: true }).count()).toBe(1);
    const toolTable = page.getByRole("table", { name: `Tools of ${declaration.id}` });
    expect(await toolTable.getByText(scoped.name.replace(".", "_"), { exact: true }).count()).toBe(1);
    await shootBoth(page, "provider-tab", heading);
    await page.close();
  });

  it("shows each provider on the Connections page with its icon or monogram, its name and its scopes", async () => {
    const page = await signIn();
    await page.getByRole("link", { name: "Connections" }).click();
    for (const { declaration } of BUILT_IN_PROVIDERS) {
      const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: new RegExp(`${declaration.display_name}.*${declaration.id}`) }) });
      await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(1);
      expect(await card.locator(".provider-icon").count(), declaration.id).toBe(1);
    }
    if (SCOPED) {
      const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: new RegExp(`${SCOPED.declaration.display_name}.*${SCOPED.declaration.id}`) }) });
      await card.locator("summary").click();
      await expect.poll(() => card.getByRole("table").count(), { timeout: 10_000 }).toBe(1);
    }
    await shootBoth(page, "connections", page.getByRole("heading", { name: "Connect an account" }));
    await page.close();
  });
});
