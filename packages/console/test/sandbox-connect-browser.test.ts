/**
 * One provider of each OAuth variant connected through the console in Chromium against its
 * described sandbox: the Connect button, the sandbox's authorize page (which approves at once),
 * the broker's callback and back to the Connections page, which lists the new account. Each
 * variant is the vendor's: Google (offline access, refresh token kept, ID token), Microsoft
 * (offline_access scope, rotating refresh tokens), Atlassian (audience and prompt, cloud id from
 * accessible-resources), Salesforce (instance_url), Notion and Zoom (HTTP Basic client
 * authentication; Notion's tokens never expire), Dropbox (token_access_type=offline), HubSpot
 * (refresh token returned unchanged), Stripe Connect (tokens that never expire, the connected
 * account in the token response). Screenshots go to packages/console/test-output/.
 */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "../../server/test/support/broker.js";
import { startFakeUpstreams, type FakeUpstreams } from "../../server/test/support/fake-upstreams/index.js";
import { call } from "../../server/test/support/http.js";
import { BUILT_IN_PROVIDERS } from "../../server/src/providers/built-in.js";

const CHROMIUM = "/usr/bin/chromium";
const DIST = fileURLToPath(new URL("../dist", import.meta.url));
const OUTPUT = fileURLToPath(new URL("../test-output", import.meta.url));
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** One provider per OAuth variant, and what its sandbox must have seen for the variant to count. */
const VARIANTS: { provider: string; variant: string; authorize: Record<string, string | RegExp> }[] = [
  { provider: "gmail", variant: "Google", authorize: { access_type: "offline", prompt: "consent" } },
  { provider: "microsoft_outlook", variant: "Microsoft", authorize: { scope: /offline_access/ } },
  { provider: "jira", variant: "Atlassian", authorize: { audience: "api.atlassian.com", prompt: "consent" } },
  { provider: "salesforce", variant: "Salesforce", authorize: {} },
  { provider: "notion", variant: "Notion", authorize: { owner: "user" } },
  { provider: "dropbox", variant: "Dropbox", authorize: { token_access_type: "offline" } },
  { provider: "zoom", variant: "Zoom", authorize: {} },
  { provider: "hubspot", variant: "HubSpot", authorize: {} },
  { provider: "stripe", variant: "Stripe Connect", authorize: { scope: "read_write" } },
];
const BUILT_IN = new Set(BUILT_IN_PROVIDERS.map((provider) => provider.declaration.id));

const missing = [!existsSync(CHROMIUM) && `${CHROMIUM} (apt-get install chromium)`, !existsSync(`${DIST}/index.html`) && "the console build (npm run build -w @toolbroker/console)"].filter(Boolean);
if (missing.length) process.stdout.write(`\n[console] sandbox connect browser tests SKIPPED: missing ${missing.join(" and ")}\n\n`);

(missing.length ? describe.skip : describe)("connecting each OAuth variant through the console against its sandbox", { timeout: 60_000 }, () => {
  let fakes: FakeUpstreams;
  let broker: TestBroker;
  let tenant: TestTenant;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    fakes = await startFakeUpstreams();
    broker = await startBroker("sqlite", { env: fakes.env, consoleDirectory: DIST });
    tenant = await createTenant(broker, "Acme");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await broker?.close();
    await fakes?.close();
  });

  const shoot = (page: Page, name: string) => page.screenshot({ path: `${OUTPUT}/${name}.png`, fullPage: true });

  async function signIn(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${broker.url}/console/`);
    await page.getByLabel("Subject").fill(tenant.operatorSubject);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("link", { name: "Connections" }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    return page;
  }

  const connectionsOf = async (provider: string) =>
    ((await call(broker, "GET", `/v1/connections?provider=${provider}`, { token: tenant.operatorToken, tenant: tenant.tenantId })).body.data ?? []) as { id: string; provider: string; status: string; account_display_name?: string }[];

  // A variant whose provider is not built in yet is reported as to do, not as passed.
  for (const { provider, variant } of VARIANTS.filter(({ provider }) => !BUILT_IN.has(provider))) it.todo(`connects ${provider} (${variant}) once it is a built-in provider`);

  it.each(VARIANTS.filter(({ provider }) => BUILT_IN.has(provider)))("connects $provider ($variant)", async ({ provider, authorize }) => {
    const sandbox = fakes.described[provider]!;
    const page = await signIn();
    await page.getByRole("link", { name: "Connections" }).click();
    // The provider's card: its heading names the provider (by id or display name).
    const card = page.getByRole("listitem").filter({ has: page.locator(`[id="provider-${provider}"]`) });
    await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(1);
    await card.scrollIntoViewIfNeeded();
    await shoot(page, `sandbox-connect-${provider}-before`);
    await card.getByRole("button", { name: /Connect/ }).click();
    try {
      // Sandbox authorize (approves at once) → broker callback → back to the console's Connections page.
      await page.waitForURL(/\/console\/connections/, { timeout: 15_000 });
      await page.waitForLoadState("networkidle");
      await expect.poll(async () => (await connectionsOf(provider)).filter((connection) => connection.status === "active").length, { timeout: 10_000 }).toBe(1);
      await expect.poll(() => page.getByRole("row").filter({ hasText: provider }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    } catch (error) {
      await shoot(page, `sandbox-connect-${provider}-failed`);
      throw new Error(`${provider}: ${String(error)} at ${page.url()}: ${(await page.textContent("body"))?.slice(0, 500)}`);
    }
    await shoot(page, `sandbox-connect-${provider}-after`);

    const asked = sandbox.stats.authorizeRequests.at(-1)!;
    for (const [name, value] of Object.entries(authorize)) expect(asked[name], `authorize parameter ${name}`).toMatch(value instanceof RegExp ? value : new RegExp(`^${value}$`));
    // The sandbox takes a code only with the vendor's client authentication (HTTP Basic for Notion and Zoom).
    expect(sandbox.stats.authorizationCodeGrants).toBe(1);
    await page.close();
  });
});
