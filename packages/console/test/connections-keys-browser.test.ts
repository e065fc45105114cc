/**
 * Issue 41 in Chromium, at desktop (1280×800) and phone (390×844) width: API keys are stored,
 * listed with their hints, rotated and deleted on the API keys page, and the value never appears
 * in the page or in any answer the browser receives; the tenant's own providers are on the
 * Connections page with how to connect each (Add API key, or Connect once its OAuth app is
 * saved); after a sandbox connect the connected_account_id is shown with a Copy button; the audit
 * log names people and agent apps instead of issuer|subject and UUIDs; and no page this work
 * touches writes an error to the browser console (the Tools page used to log a 404 per provider).
 * Screenshots go to packages/console/test-output/keys-*.png.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS, CONSOLE_DIST, DESKTOP, PHONE, TEST_OUTPUT, browserSuiteSkipped } from "./support/chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "../../server/test/support/broker.js";
import { startFakeUpstreams, type FakeUpstreams } from "../../server/test/support/fake-upstreams/index.js";
import { call, mintBrokerToken } from "../../server/test/support/http.js";


/** The tenant's own providers: one takes an API key, one connects through OAuth (only with the tenant's app). Loopback IP literals only. */
const KEY_PROVIDER = { id: "ledger", display_name: "Ledger API", api_base_url: "https://127.0.0.1:9/api", auth: { type: "api_key", in: "header", name: "X-Api-Key" } };
const OAUTH_PROVIDER = {
  id: "wiki",
  display_name: "Team Wiki",
  api_base_url: "https://127.0.0.1:9/wiki",
  auth: { type: "oauth2", authorize_url: "https://127.0.0.1:9/oauth/authorize", token_url: "https://127.0.0.1:9/oauth/token", scopes: ["read"] },
};

const skipped = browserSuiteSkipped("API keys and connections");

/** What a page wrote to the browser console, failed to fetch, or was refused (any answer of 400 or more). */
type Trouble = string[];
/** The text of every answer the page received from the broker's API. */
type Answers = Promise<string>[];

(skipped ? describe.skip : describe)("API keys, custom providers and names in the console, in Chromium", { timeout: 120_000 }, () => {
  let fakes: FakeUpstreams;
  let broker: TestBroker;
  let tenant: TestTenant;
  let browser: Browser;
  const operator = () => ({ token: tenant.operatorToken, tenant: tenant.tenantId });

  beforeAll(async () => {
    mkdirSync(TEST_OUTPUT, { recursive: true });
    fakes = await startFakeUpstreams();
    broker = await startBroker("sqlite", { env: fakes.env, consoleDirectory: CONSOLE_DIST });
    tenant = await createTenant(broker, "Acme");
    for (const declaration of [KEY_PROVIDER, OAUTH_PROVIDER]) {
      const declared = await call(broker, "POST", "/v1/providers", { ...operator(), body: { declaration } });
      expect(declared.status, declared.text).toBe(201);
    }
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await broker?.close();
    await fakes?.close();
  });

  async function signIn(trouble: Trouble = [], answers: Answers = [], subject = tenant.operatorSubject): Promise<Page> {
    const page = await browser.newPage({ viewport: DESKTOP });
    page.on("console", (message) => (message.type() === "error" || message.type() === "warning" ? trouble.push(`console ${message.type()}: ${message.text()} at ${message.location().url}`) : undefined));
    page.on("pageerror", (error) => trouble.push(`page error: ${error.message}`));
    // A request still in flight when the test navigates away is aborted by the browser, not failed.
    page.on("requestfailed", (request) => (request.failure()?.errorText === "net::ERR_ABORTED" ? undefined : trouble.push(`failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`)));
    page.on("response", (response) => {
      if (response.status() >= 400) trouble.push(`${response.status()}: ${response.request().method()} ${response.url()}`);
      if (new URL(response.url()).pathname.startsWith("/v1/")) answers.push(response.text().catch(() => ""));
    });
    await page.goto(`${broker.url}/console/`);
    await page.getByLabel("Subject").fill(subject);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("link", { name: "Connections" }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    return page;
  }

  /** The whole page and the screenful at `focus`, at desktop and at phone width; neither may scroll sideways. */
  async function shootBoth(page: Page, name: string, focus?: string) {
    for (const [width, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `${TEST_OUTPUT}/keys-${name}-${width}.png`, fullPage: true });
      if (focus) await page.locator(focus).first().evaluate((element) => element.scrollIntoView({ block: "start" }));
      await page.screenshot({ path: `${TEST_OUTPUT}/keys-${name}-${width}-screen.png` });
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${name} at ${width} width scrolls sideways`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize(DESKTOP);
  }

  const openPage = async (page: Page, link: string, heading: string) => {
    await page.getByRole("link", { name: link, exact: true }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1, name: heading }).count(), { timeout: 10_000 }).toBe(1);
    await page.waitForLoadState("networkidle");
  };

  it("loads Tools, Connections, API keys, Audit log, Approvals and Agent apps with nothing in the browser console", async () => {
    const trouble: Trouble = [];
    const page = await signIn(trouble);
    for (const [link, heading] of [["Tools", "Tools"], ["Connections", "Connections"], ["API keys", "API keys"], ["Audit log", "Audit log"], ["Approvals", "Approvals"], ["Agent apps", "Agent apps"]]) {
      await openPage(page, link!, heading!);
    }
    // A fresh load of the Tools page, where each OAuth provider without the tenant's own app used to answer 404.
    await page.goto(`${broker.url}/console/tools`);
    await expect.poll(() => page.getByRole("heading", { name: "Your own OAuth apps" }).count(), { timeout: 10_000 }).toBe(1);
    await page.waitForLoadState("networkidle");
    await shootBoth(page, "tools-oauth-apps", "#oauth-apps-heading");
    expect(trouble).toEqual([]);
    await page.close();
  });

  it("shows the tenant's own providers on Connections: an API-key one with Add API key, an OAuth one that connects once its app is saved", async () => {
    const trouble: Trouble = [];
    const page = await signIn(trouble);
    await openPage(page, "Connections", "Connections");
    const ours = page.getByRole("list", { name: "Your own providers" });
    const keyCard = ours.getByRole("listitem").filter({ has: page.locator(`[id="provider-${KEY_PROVIDER.id}"]`) });
    const oauthCard = ours.getByRole("listitem").filter({ has: page.locator(`[id="provider-${OAUTH_PROVIDER.id}"]`) });
    await expect.poll(() => keyCard.count(), { timeout: 10_000 }).toBe(1);
    expect(await keyCard.getByRole("heading").textContent()).toContain(KEY_PROVIDER.display_name);
    expect(await keyCard.getByRole("button", { name: "Add API key" }).isEnabled()).toBe(true);
    expect(await keyCard.getByRole("button", { name: "Connect" }).count()).toBe(0);
    expect(await oauthCard.getByRole("button", { name: "Connect" }).isDisabled()).toBe(true);
    expect(await oauthCard.textContent()).toContain("save your OAuth app for it on the Tools page");
    await shootBoth(page, "custom-providers", "#connect-heading");

    const saved = await call(broker, "PUT", `/v1/providers/${OAUTH_PROVIDER.id}/oauth-client`, { ...operator(), body: { env: "test", client_id: "wiki-client", client_secret: `wiki-secret-${randomBytes(8).toString("hex")}` } });
    expect(saved.status, saved.text).toBe(200);
    await page.reload();
    await expect.poll(() => oauthCard.getByRole("button", { name: "Connect" }).isEnabled().catch(() => false), { timeout: 10_000 }).toBe(true);
    expect(await oauthCard.textContent()).toContain("Ready (your OAuth app)");

    await keyCard.getByRole("button", { name: "Add API key" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1, name: "API keys" }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole("form", { name: "Store an API key" }).getByLabel("Provider").inputValue()).toBe(KEY_PROVIDER.id);
    expect(trouble).toEqual([]);
    await page.close();
  });

  it("stores, lists with its hint, rotates and deletes an API key; the value is never in the page or in any answer", async () => {
    const trouble: Trouble = [];
    const answers: Answers = [];
    const first = `ledger_live_${randomBytes(16).toString("hex")}`;
    const second = `ledger_live_${randomBytes(16).toString("hex")}`;
    const page = await signIn(trouble, answers);
    await page.goto(`${broker.url}/console/api-keys?provider=${KEY_PROVIDER.id}&env=test`);
    await expect.poll(() => page.getByLabel("API key", { exact: true }).count(), { timeout: 10_000 }).toBe(1);
    await page.getByLabel("Name", { exact: true }).fill("production");
    await page.getByLabel("API key", { exact: true }).fill(first);
    await page.getByRole("button", { name: "Store API key" }).click();
    const stored = page.getByRole("status").filter({ hasText: "Stored the API key production" });
    await expect.poll(() => stored.count(), { timeout: 10_000 }).toBe(1);
    const items = (await call(broker, "GET", `/v1/secrets?provider=${KEY_PROVIDER.id}`, operator())).body.data as { secret_item_id: string; value_hint: string }[];
    expect(items).toHaveLength(1);
    const id = items[0]!.secret_item_id;
    expect(await stored.textContent()).toContain(id);
    expect(await page.getByLabel("API key", { exact: true }).inputValue()).toBe("");
    const table = page.getByRole("table", { name: "API keys" });
    const row = table.getByRole("row").filter({ hasText: id });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.textContent()).toContain(`••••${first.slice(-4)}`);
    expect(await row.textContent()).toContain(KEY_PROVIDER.display_name);
    expect(await row.getByRole("button", { name: /Copy the secret_item_id/ }).count()).toBe(1);
    expect(await page.content()).not.toContain(first);
    await shootBoth(page, "stored", "#stored-keys-heading");

    await row.getByRole("button", { name: "Rotate" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("New API key").fill(second);
    await dialog.getByRole("button", { name: "Replace the key" }).click();
    await expect.poll(() => page.getByText(`the key now ends in ${second.slice(-4)}`).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await row.textContent()) ?? "", { timeout: 10_000 }).toContain(`••••${second.slice(-4)}`);
    expect(await page.content()).not.toContain(second);
    await shootBoth(page, "rotated", "#stored-keys-heading");

    await row.getByRole("button", { name: "Delete" }).click();
    expect(await page.getByRole("dialog").getByRole("heading").textContent()).toContain("Delete the API key production (Ledger API)?");
    await page.getByRole("dialog").getByRole("button", { name: "Delete API key" }).click();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(0);
    expect((await call(broker, "GET", "/v1/secrets", operator())).body.data).toEqual([]);

    const texts = await Promise.all(answers);
    expect(texts.length).toBeGreaterThan(3);
    for (const value of [first, second]) {
      expect(await page.content()).not.toContain(value);
      expect(texts.filter((text) => text.includes(value))).toEqual([]);
      expect(broker.logs.filter((line) => line.includes(value))).toEqual([]);
    }
    expect(trouble).toEqual([]);
    await page.close();
  });

  it("shows a viewer the API keys with every control that changes one disabled", async () => {
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "keys-viewer", role: "viewer" }, "test");
    const value = `ledger_view_${randomBytes(16).toString("hex")}`;
    const created = await call(broker, "POST", "/v1/secrets", { ...operator(), body: { provider: KEY_PROVIDER.id, env: "test", name: "seen-by-viewer", value } });
    expect(created.status, created.text).toBe(201);
    const trouble: Trouble = [];
    const page = await signIn(trouble, [], "keys-viewer");
    await openPage(page, "API keys", "API keys");
    const row = page.getByRole("table", { name: "API keys" }).getByRole("row").filter({ hasText: "seen-by-viewer" });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.getByRole("button", { name: "Rotate" }).isDisabled()).toBe(true);
    expect(await row.getByRole("button", { name: "Delete" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Store API key" }).isDisabled()).toBe(true);
    expect(await page.getByLabel("API key", { exact: true }).isDisabled()).toBe(true);
    expect(await page.content()).not.toContain(value);
    await shootBoth(page, "viewer", "#stored-keys-heading");
    expect(trouble).toEqual([]);
    await call(broker, "DELETE", `/v1/secrets/${created.body.secret_item_id}`, operator());
    await page.close();
  });

  it("shows the connected_account_id with a Copy button after a sandbox connect, and in the connections table", async () => {
    const trouble: Trouble = [];
    const page = await signIn(trouble);
    await openPage(page, "Connections", "Connections");
    const card = page.getByRole("listitem").filter({ has: page.locator('[id="provider-scm"]') });
    await card.getByRole("button", { name: "Connect" }).click();
    await page.waitForURL(/\/console\/connections\?connected_account_id=/, { timeout: 15_000 });
    const id = new URL(page.url()).searchParams.get("connected_account_id")!;
    const connections = (await call(broker, "GET", "/v1/connections?provider=scm", operator())).body.data as { connected_account_id: string }[];
    expect(connections.map((connection) => connection.connected_account_id)).toContain(id);
    const notice = page.locator(".connected-notice");
    await expect.poll(() => notice.locator("code.connected-id").textContent().catch(() => ""), { timeout: 10_000 }).toBe(id);
    expect(await notice.getByRole("button", { name: "Copy the connected_account_id" }).count()).toBe(1);
    await expect.poll(async () => (await notice.textContent()) ?? "", { timeout: 10_000 }).toContain("(GitHub)");
    const row = page.getByRole("row").filter({ hasText: id });
    expect(await row.getByRole("button", { name: /Copy the connected_account_id/ }).count()).toBe(1);
    expect(await row.getByRole("cell").first().textContent()).toMatch(/^GitHub\s*scm$/);
    await shootBoth(page, "connected", ".connected-notice");
    expect(trouble).toEqual([]);
    await page.close();
  });

  it("names people and agent apps in the audit log, not issuer|subject or UUIDs", async () => {
    const members = (await call(broker, "GET", "/v1/members", operator())).body.data as { id: string; issuer: string; subject: string }[];
    const me = members.find((member) => member.subject === tenant.operatorSubject)!;
    expect((await call(broker, "PATCH", `/v1/members/${me.id}`, { ...operator(), body: { display_name: "Ada Lovelace" } })).status).toBe(200);
    const jwt = await mintBrokerToken(broker, tenant);
    const account = (await call(broker, "GET", "/v1/connections?provider=scm", operator())).body.data[0].connected_account_id as string;
    const executed = await call(broker, "POST", "/v1/tools/execute", { token: jwt, body: { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: account } });
    expect(executed.status, executed.text).toBe(200);
    const app = (await call(broker, "GET", "/v1/agent-apps", operator())).body.data.find((entry: { id: string }) => entry.id === tenant.agentAppId) as { name: string };

    const trouble: Trouble = [];
    const page = await signIn(trouble);
    await openPage(page, "Audit log", "Audit log");
    const actors = page.locator("table tbody tr td:nth-child(2)");
    await expect.poll(() => actors.count(), { timeout: 10_000 }).toBeGreaterThan(2);
    const texts = await actors.allTextContents();
    expect(texts.some((text) => text.includes("Ada Lovelace") && text.includes("member"))).toBe(true);
    expect(texts.some((text) => text.includes(app.name) && text.includes("agent app"))).toBe(true);
    for (const text of texts) {
      expect(text).not.toContain(`${me.issuer}|`);
      expect(text).not.toContain(tenant.agentAppId);
    }
    await shootBoth(page, "audit-names");
    expect(trouble).toEqual([]);
    await page.close();
  });
});
