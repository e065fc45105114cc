/**
 * The operator console in a real browser (Debian's Chromium driven by playwright-core) against a
 * real broker and the fake GitHub: sign in (development), pick a tenant, decide approvals that an
 * agent created through the API, import tools from OpenAPI into a custom provider, create a webhook,
 * revoke a connection; a viewer cannot approve or change the catalogue.
 * Screenshots of each page go to packages/console/test-output/.
 */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "../../server/test/support/broker.js";
import { connectAccount } from "../../server/test/support/connect.js";
import { startFakeUpstreams, type FakeUpstreams } from "../../server/test/support/fake-upstreams/index.js";
import { call, mintBrokerToken } from "../../server/test/support/http.js";
import { connectLegacyClient } from "../../server/test/support/mcp-clients.js";
import { TASKS_OPENAPI_YAML, TASKS_PROVIDER } from "./support/tasks-catalogue.js";

const CHROMIUM = "/usr/bin/chromium";
const DIST = fileURLToPath(new URL("../dist", import.meta.url));
const OUTPUT = fileURLToPath(new URL("../test-output", import.meta.url));
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const missing = [!existsSync(CHROMIUM) && `${CHROMIUM} (apt-get install chromium)`, !existsSync(`${DIST}/index.html`) && "the console build (npm run build -w @toolbroker/console)"].filter(Boolean);
if (missing.length) process.stdout.write(`\n[console] browser tests SKIPPED: missing ${missing.join(" and ")}\n\n`);

(missing.length ? describe.skip : describe)("the operator console in Chromium", { timeout: 120_000 }, () => {
  let fakes: FakeUpstreams;
  let broker: TestBroker;
  let tenant: TestTenant;
  let browser: Browser;
  let accountId: string;

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    fakes = await startFakeUpstreams();
    broker = await startBroker("sqlite", { env: { ...fakes.github.env }, consoleDirectory: DIST });
    tenant = await createTenant(broker, "Acme");
    // A second tenant for the same operator, so signing in asks which tenant to work in.
    const globex = await createTenant(broker, "Globex");
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(globex.tenantId, { issuer: issuer.issuer, subject: tenant.operatorSubject, role: "viewer" }, "test");
    accountId = await connectAccount(broker, tenant, "scm");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await broker?.close();
    await fakes?.close();
  });

  /** A new tab signed in as `subject` (development sign-in) with its only tenant picked. */
  async function signIn(subject: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${broker.url}/console/`);
    await page.getByLabel("Subject").fill(subject);
    await page.getByRole("button", { name: "Sign in" }).click();
    // With several tenants (or none chosen yet in this tab) the console asks which one.
    const picker = page.getByRole("button", { name: "Acme" });
    const navigation = page.getByRole("link", { name: /Approvals/ });
    await expect.poll(async () => (await picker.count()) + (await navigation.count()), { timeout: 10_000 }).toBeGreaterThan(0);
    if ((await navigation.count()) === 0) {
      await shoot(page, "tenant-picker");
      await picker.click();
    }
    try {
      await expect.poll(() => navigation.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    } catch (error) {
      await shoot(page, `sign-in-failed-${subject}`);
      throw error;
    }
    return page;
  }

  async function requestDeletion(repo: string) {
    const jwt = await mintBrokerToken(broker, tenant);
    const asked = await call(broker, "POST", "/v1/tools/execute", {
      token: jwt,
      body: { tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo }, connected_account_id: accountId },
    });
    expect(asked.status, asked.text).toBe(409);
    return { jwt, invocationId: asked.body.error.details.invocation_id as string };
  }

  const shoot = (page: Page, name: string) => page.screenshot({ path: `${OUTPUT}/${name}.png`, fullPage: true });

  it("signs in, shows a pending approval an agent created, approves it, and the agent's continue succeeds", async () => {
    const { jwt, invocationId } = await requestDeletion("spoon-knife");
    const page = await signIn(tenant.operatorSubject);
    await page.getByRole("link", { name: /Approvals/ }).click();
    const row = page.getByRole("listitem").filter({ hasText: "scm.delete_repository" }).first();
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true);
    await shoot(page, "approvals");
    await row.getByRole("button", { name: "Approve" }).click();
    await expect.poll(async () => (await call(broker, "POST", `/v1/tools/invocations/${invocationId}/continue`, { token: jwt })).status, { timeout: 10_000 }).toBe(200);
    await page.close();
  });

  it("shows a new request within 5 s without reload, counts it in the title, and explains a decision someone else made first", async () => {
    const page = await signIn(tenant.operatorSubject);
    await page.getByRole("link", { name: /Approvals/ }).click();
    await requestDeletion("octo-live");
    const row = page.getByRole("listitem").filter({ hasText: "octo-live" }).first();
    await expect.poll(() => row.isVisible(), { timeout: 5_000 }).toBe(true);
    expect(await page.title()).toMatch(/\(\d+\)|\d+/);
    // Another operator approves through the API; this page still shows the button.
    const pending = (await call(broker, "GET", "/v1/approvals", { token: tenant.operatorToken, tenant: tenant.tenantId })).body.data as { approval_id: string; arguments: { repo: string } }[];
    const id = pending.find((approval) => approval.arguments.repo === "octo-live")!.approval_id;
    await call(broker, "POST", `/v1/approvals/${id}/decide`, { token: tenant.operatorToken, tenant: tenant.tenantId, body: { decision: "approve" } });
    await row.getByRole("button", { name: "Approve" }).click({ timeout: 2_000 }).catch(() => undefined);
    await expect.poll(async () => (await page.getByText(/already|no longer pending|approved/i).count()) + (await row.count() === 0 ? 1 : 0), { timeout: 8_000 }).toBeGreaterThan(0);
    await page.close();
  });

  it("denies a call, and the agent's continue is refused", async () => {
    const { jwt, invocationId } = await requestDeletion("hello-world");
    const page = await signIn(tenant.operatorSubject);
    await page.getByRole("link", { name: /Approvals/ }).click();
    const row = page.getByRole("listitem").filter({ hasText: "hello-world" }).first();
    await expect.poll(() => row.isVisible(), { timeout: 10_000 }).toBe(true);
    await row.getByRole("button", { name: "Deny" }).click();
    const confirm = page.getByRole("button", { name: /Deny/ }).last();
    if (await confirm.isVisible({ timeout: 1_000 }).catch(() => false)) await confirm.click();
    await expect.poll(async () => (await call(broker, "POST", `/v1/tools/invocations/${invocationId}/continue`, { token: jwt })).status, { timeout: 10_000 }).toBe(403);
    await page.close();
  });

  it("opens the approval link an MCP agent was given in its tenant (no picker), approves it, and the identical call then runs", async () => {
    const agent = await connectLegacyClient(`${broker.url}/mcp`, await mintBrokerToken(broker, tenant));
    const deletion = { name: "scm.delete_repository", arguments: { owner: "octocat", repo: "private-notes" } };
    const asked = (await agent.callTool(deletion)) as { structuredContent: { error: { details: { approval_id: string; approval_url: string } } } };
    const { approval_id: approvalId, approval_url: approvalUrl } = asked.structuredContent.error.details;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(approvalUrl);
    await page.getByLabel("Subject").fill(tenant.operatorSubject);
    await page.getByRole("button", { name: "Sign in" }).click();
    const approve = page.getByRole("button", { name: "Approve" });
    try {
      await expect.poll(() => approve.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    } catch (error) {
      await shoot(page, "approval-from-mcp-link-failed");
      throw error;
    }
    expect(await page.getByText("private-notes").count()).toBeGreaterThan(0);
    await shoot(page, "approval-from-mcp-link");
    // Approving asks no confirmation; the button goes away as the page shows the decision.
    await approve.first().click();
    const status = async () => (await call(broker, "GET", `/v1/approvals/${approvalId}`, { token: tenant.operatorToken, tenant: tenant.tenantId })).body.status;
    await expect.poll(status, { timeout: 10_000 }).toBe("approved");
    const ran = (await agent.callTool(deletion)) as { isError?: boolean; content: { text: string }[] };
    expect(ran.isError ?? false, ran.content[0]?.text).toBe(false);
    await agent.close();
    await page.close();
  });

  it("lets a viewer see approvals but not decide them", async () => {
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "viewer-1", role: "viewer" }, "test");
    await requestDeletion("private-notes");
    const page = await signIn("viewer-1");
    await page.getByRole("link", { name: /Approvals/ }).click();
    const approve = page.getByRole("button", { name: "Approve" }).first();
    await expect.poll(() => approve.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await approve.isDisabled()).toBe(true);
    // The admin who has not set a display name is still needed, named by their sign-in subject.
    expect(await page.locator(".waiting-for").first().textContent()).toBe(`Still needed from: ${tenant.operatorSubject}`);
    await shoot(page, "approvals-viewer");
    await page.close();
  });

  it("searches the tools, and saves the tenant's own OAuth app without ever showing its secret again", async () => {
    const page = await signIn(tenant.operatorSubject);
    await page.getByRole("link", { name: "Tools" }).click();
    const catalogue = page.getByRole("table", { name: "Tools", exact: true });
    const rows = catalogue.getByRole("row");
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBeGreaterThan(5);
    await page.getByLabel("Provider", { exact: true }).selectOption("scm");
    await page.getByLabel("Search names, titles and descriptions").fill("delete repository");
    await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(2);
    expect(await catalogue.getByRole("cell", { name: "scm.delete_repository" }).count()).toBe(1);
    await shoot(page, "tools-search");

    const app = fakes.github.registerClient();
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "scm" }) });
    await card.getByLabel("Client id").fill(app.clientId);
    await card.getByLabel("Client secret").fill(app.clientSecret);
    await card.getByRole("button", { name: "Save OAuth app" }).click();
    await expect.poll(() => card.getByText(app.clientId).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await shoot(page, "tools-oauth-app");
    const stored = await call(broker, "GET", "/v1/providers/scm/oauth-client?env=test", { token: tenant.operatorToken, tenant: tenant.tenantId });
    expect(stored.body).toMatchObject({ client_id: app.clientId, client_secret_hint: app.clientSecret.slice(-4) });
    expect(await page.content()).not.toContain(app.clientSecret);
    await card.getByRole("button", { name: "Stop using it" }).click();
    await expect.poll(() => card.getByText("Uses the broker-wide client.").count(), { timeout: 10_000 }).toBe(1);
    await page.close();
  });

  it("imports tools from an OpenAPI document into a custom provider, previewing first, then lowers a risk and deletes a tool", async () => {
    const declared = await call(broker, "POST", "/v1/providers", { token: tenant.operatorToken, tenant: tenant.tenantId, body: { declaration: TASKS_PROVIDER } });
    expect(declared.status, declared.text).toBe(201);
    const storedTools = async () =>
      (await call(broker, "GET", "/v1/providers/tasks/tools", { token: tenant.operatorToken, tenant: tenant.tenantId })).body.data as { name: string; risk: string; source: string }[];
    const page = await signIn(tenant.operatorSubject);
    await page.getByRole("link", { name: "Tools" }).click();
    await page.getByRole("tab", { name: "tasks (custom)" }).click();
    const panel = page.getByRole("tabpanel");
    await expect.poll(() => panel.getByText("https://tasks.example.com/api").count(), { timeout: 10_000 }).toBe(1);
    expect(await panel.getByText("API key in header X-Api-Key").count()).toBe(1);

    // A file is read into the textarea as text; pasting works the same way.
    const documentField = page.getByLabel("OpenAPI document (JSON or YAML)");
    await page.getByLabel("Or read a file").setInputFiles({ name: "tasks.yaml", mimeType: "application/yaml", buffer: Buffer.from(TASKS_OPENAPI_YAML) });
    await expect.poll(() => documentField.inputValue(), { timeout: 5_000 }).toBe(TASKS_OPENAPI_YAML);
    await documentField.fill(TASKS_OPENAPI_YAML);
    await page.getByRole("button", { name: "Preview" }).click();
    const preview = page.getByRole("table", { name: "Would create" });
    await expect.poll(() => preview.getByRole("row").count(), { timeout: 10_000 }).toBe(3);
    expect(await preview.getByRole("cell", { name: "tasks.list_tasks" }).count()).toBe(1);
    expect(await preview.getByRole("cell", { name: "tasks.create_task" }).count()).toBe(1);
    const skipped = page.getByRole("list", { name: "Skipped operations" }).getByRole("listitem");
    expect(await skipped.count()).toBe(1);
    expect(await skipped.first().textContent()).toMatch(/countTasks: .*HEAD/i);
    expect(await storedTools()).toEqual([]);
    await shoot(page, "tools-import-preview");
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, "tools-import-preview-phone");
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.getByRole("button", { name: "Import 2 tools" }).click();
    const listed = page.getByRole("table", { name: "Tools of tasks" });
    const row = (name: string) => listed.getByRole("row").filter({ has: page.getByText(name, { exact: true }) });
    await expect.poll(() => row("tasks.create_task").count(), { timeout: 10_000 }).toBe(1);
    expect(await row("tasks.create_task").textContent()).toMatch(/imported.*high risk.*write/);
    expect(await row("tasks.list_tasks").textContent()).toMatch(/imported.*low risk.*read/);
    expect(await page.getByText("Imported tasks.list_tasks, tasks.create_task.").count()).toBe(1);
    await shoot(page, "tools-imported");

    // Importing the same document again is refused as a whole and names the taken tools.
    await documentField.fill(TASKS_OPENAPI_YAML);
    await page.getByRole("button", { name: "Preview" }).click();
    await expect.poll(() => page.getByText(/Already taken: tasks\.\w+, tasks\.\w+/).count(), { timeout: 10_000 }).toBe(1);
    // A document that is not OpenAPI says where it is wrong.
    await documentField.fill("openapi: 2.0\npaths: {}\n");
    await page.getByRole("button", { name: "Preview" }).click();
    await expect.poll(() => page.getByText(/^Where: /).count(), { timeout: 10_000 }).toBe(1);
    await shoot(page, "tools-import-error");
    await documentField.fill("");

    await row("tasks.create_task").getByRole("button", { name: "Make low risk: tasks.create_task" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Make low risk" }).click();
    // The control now offers the way back: the tool is low risk.
    await expect.poll(() => row("tasks.create_task").getByRole("button", { name: "Make high risk: tasks.create_task" }).count(), { timeout: 10_000 }).toBe(1);
    expect(await row("tasks.create_task").textContent()).toMatch(/imported.*low risk.*write/);
    expect((await storedTools()).find((tool) => tool.name === "tasks.create_task")?.risk).toBe("low");

    await row("tasks.list_tasks").getByRole("button", { name: "Delete tasks.list_tasks" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete tool" }).click();
    await expect.poll(() => row("tasks.list_tasks").count(), { timeout: 10_000 }).toBe(0);
    expect((await storedTools()).map((tool) => [tool.name, tool.source, tool.risk])).toEqual([["tasks.create_task", "openapi", "low"]]);
    await shoot(page, "tools-custom");
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, "tools-custom-phone");
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await page.close();
  });

  it("declares a provider from its JSON, saying where a refused declaration is wrong", async () => {
    const page = await signIn(tenant.operatorSubject);
    await page.getByRole("link", { name: "Tools" }).click();
    await page.getByText("Declare a provider of your own").click();
    const declaration = page.getByLabel("Provider declaration (JSON)");
    const notes = { id: "notes", display_name: "Notes", api_base_url: "https://notes.example.com/v2", auth: { type: "oauth2", authorize_url: "https://notes.example.com/oauth/authorize", token_url: "https://notes.example.com/oauth/token" } };
    await declaration.fill(JSON.stringify({ ...notes, id: "scm" }));
    await page.getByRole("button", { name: "Declare provider" }).click();
    await expect.poll(() => page.getByText(/^Where: \/id$/).count(), { timeout: 10_000 }).toBe(1);
    await declaration.fill(JSON.stringify(notes, null, 2));
    await page.getByRole("button", { name: "Declare provider" }).click();
    await expect.poll(async () => page.getByRole("tab", { name: "notes (custom)", selected: true }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole("tabpanel").getByText("https://notes.example.com/v2").count()).toBe(1);
    await shoot(page, "tools-declared-provider");
    await page.close();
  });

  it("shows a viewer the custom tools with every change disabled", async () => {
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "viewer-tools", role: "viewer" }, "test");
    const page = await signIn("viewer-tools");
    await page.getByRole("link", { name: "Tools" }).click();
    await page.getByRole("tab", { name: "tasks (custom)" }).click();
    const remove = page.getByRole("button", { name: "Delete tasks.create_task" });
    await expect.poll(() => remove.count(), { timeout: 10_000 }).toBe(1);
    expect(await remove.isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Make high risk: tasks.create_task" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Preview" }).isDisabled()).toBe(true);
    expect(await page.getByLabel("OpenAPI document (JSON or YAML)").isDisabled()).toBe(true);
    await page.close();
  });

  it("creates a webhook and shows its signing secret once", async () => {
    const page = await signIn(tenant.operatorSubject);
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByLabel("Endpoint URL").fill("http://127.0.0.1:9/hooks");
    await page.getByRole("button", { name: "Create webhook" }).click();
    const secret = page.getByRole("textbox", { name: /Signing secret for/ });
    await expect.poll(() => secret.count(), { timeout: 10_000 }).toBe(1);
    const value = await secret.inputValue();
    expect(value).toMatch(/^whsec_/);
    expect(await page.getByText("You will not see this again").count()).toBeGreaterThan(0);
    await shoot(page, "webhooks-secret");
    await page.getByRole("button", { name: "I have stored it" }).click();
    await expect.poll(() => secret.count(), { timeout: 5_000 }).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByRole("article", { name: /127\.0\.0\.1:9\/hooks/ }).count(), { timeout: 10_000 }).toBe(1);
    // Only the secret's prefix is listed from now on.
    expect(await page.content()).not.toContain(value);
    await page.close();
  });

  it("shows every page without an error, at desktop and phone sizes", async () => {
    const page = await signIn(tenant.operatorSubject);
    for (const name of ["Agent apps", "Tools", "Policy", "Audit log", "Usage", "Settings", "Connections", "Webhooks", "Approvals"]) {
      await page.getByRole("link", { name: new RegExp(`^${name}`) }).click();
      await expect.poll(() => page.getByRole("heading", { level: 1 }).first().textContent(), { timeout: 10_000 }).toContain(name);
      await page.waitForLoadState("networkidle");
      await shoot(page, name.toLowerCase().replace(/ /g, "-"));
    }
    await page.setViewportSize({ width: 390, height: 844 });
    for (const name of ["Agent apps", "Tools", "Policy", "Audit log", "Usage", "Settings", "Connections", "Webhooks", "Approvals"]) {
      await page.getByRole("link", { name: new RegExp(`^${name}`) }).click();
      await page.waitForLoadState("networkidle");
      await shoot(page, `${name.toLowerCase().replace(/ /g, "-")}-phone`);
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });

  it("lists and revokes a connection after confirmation", async () => {
    const page = await signIn(tenant.operatorSubject);
    await page.getByRole("link", { name: "Connections" }).click();
    await expect.poll(() => page.getByText("octocat").first().isVisible(), { timeout: 10_000 }).toBe(true);
    await shoot(page, "connections");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: /Revoke/ }).first().click();
    const confirm = page.getByRole("button", { name: /Revoke/ }).last();
    if (await confirm.isVisible({ timeout: 1_000 }).catch(() => false)) await confirm.click();
    await expect.poll(async () => (await call(broker, "GET", `/v1/connections/${accountId}`, { token: tenant.operatorToken, tenant: tenant.tenantId })).body.status, { timeout: 10_000 }).toBe("revoked");
    await page.close();
  });

  it("says why an expired connection needs a reconnect", async () => {
    const moved = await connectAccount(broker, tenant, "scm");
    // As the broker leaves a connection whose provider was re-pointed since it was connected.
    await broker.services.store.db.updateTable("connections").set({ status: "expired", reconnect_reason: "origin_changed" }).where("id", "=", moved).execute();
    const page = await signIn(tenant.operatorSubject);
    await page.getByRole("link", { name: "Connections" }).click();
    const hint = page.getByText("The provider's address changed since this account was connected");
    await expect.poll(() => hint.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByRole("row").filter({ has: hint }).getByText("expired").isVisible()).toBe(true);
    await shoot(page, "connections-reconnect");
    await page.close();
  });
});
