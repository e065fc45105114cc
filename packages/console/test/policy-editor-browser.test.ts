/**
 * Issue 41, the Policy page in Chromium: start from a template, edit a rule in the form and see
 * the JSON follow (and the other way), review what the draft changes against the policy in force
 * (POST /v1/policy/compare), save, reload and find the saved version; invalid JSON holds the form
 * back; a fault the broker finds is shown at its field; a viewer cannot change anything.
 * Screenshots at desktop and phone width go to packages/console/test-output/policy-*.png.
 */
import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS, CONSOLE_DIST, DESKTOP, PHONE, TEST_OUTPUT, browserSuiteSkipped } from "./support/chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "../../server/test/support/broker.js";
import { asOperator, call } from "../../server/test/support/http.js";

const VIEWER = "policy-viewer";

const skipped = browserSuiteSkipped("policy editor");

(skipped ? describe.skip : describe)("the policy editor in Chromium", { timeout: 120_000 }, () => {
  let broker: TestBroker;
  let tenant: TestTenant;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(TEST_OUTPUT, { recursive: true });
    broker = await startBroker("sqlite", { consoleDirectory: CONSOLE_DIST });
    tenant = await createTenant(broker, "Acme");
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: VIEWER, role: "viewer" }, "test");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await broker?.close();
  });

  async function openPolicy(subject: string, viewport = DESKTOP): Promise<Page> {
    const page = await browser.newPage({ viewport });
    await page.goto(`${broker.url}/console/`);
    await page.getByLabel("Subject").fill(subject);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("link", { name: "Policy" }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.getByRole("link", { name: "Policy" }).click();
    await expect.poll(() => page.getByRole("tab", { name: "Form" }).count(), { timeout: 10_000 }).toBe(1);
    return page;
  }

  /** The page, whole and at the screenful around `focus`, at desktop and phone width; nothing may scroll sideways. */
  async function shootBoth(page: Page, name: string, focus?: Locator) {
    for (const [width, viewport] of [["desktop", DESKTOP], ["phone", PHONE]] as const) {
      await page.setViewportSize(viewport);
      await page.screenshot({ path: `${TEST_OUTPUT}/policy-${name}-${width}.png`, fullPage: true });
      if (focus) await focus.evaluate((element) => element.scrollIntoView({ block: "start" }));
      await page.screenshot({ path: `${TEST_OUTPUT}/policy-${name}-${width}-screen.png` });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} at ${width} width scrolls sideways`).toBeLessThanOrEqual(0);
    }
    await page.setViewportSize(DESKTOP);
  }

  const ruleCard = (page: Page, index: number) => page.getByRole("list", { name: "Rules, first match decides" }).locator(":scope > li").nth(index);
  const jsonText = (page: Page) => page.getByLabel("Policy rules (JSON)").inputValue();

  it("starts from a template, edits a rule in the form and in the JSON, shows what changes, saves, and finds it after a reload", async () => {
    const page = await openPolicy(tenant.operatorSubject);
    await page.getByText("Start from a template").click();
    await expect.poll(() => page.getByRole("button", { name: "Use the template Deny destructive" }).count(), { timeout: 10_000 }).toBe(1);
    await shootBoth(page, "templates", page.getByText("Start from a template"));
    await page.getByRole("button", { name: "Use the template Deny destructive" }).click();
    const first = ruleCard(page, 0);
    await expect.poll(() => first.getByLabel("Rule id").inputValue()).toBe("no-destructive-calls");

    // The form edits the rule; the JSON follows.
    await first.getByLabel("Rule id").fill("no-deletes");
    await first.getByLabel("Effect").selectOption("require_approval");
    await first.getByLabel("Who approves").selectOption("admins");
    await first.getByLabel("How many").fill("2");
    await shootBoth(page, "form", first);
    await page.getByRole("tab", { name: "JSON" }).click();
    const edited = JSON.parse(await jsonText(page));
    expect(edited[0]).toMatchObject({ id: "no-deletes", effect: "require_approval", approval: { approvers: { count: 2, of: "admins" } } });
    expect(edited[0].tools).toContain("scm.delete_repository");

    // The JSON edits the rule; the form follows.
    await page.getByLabel("Policy rules (JSON)").fill(JSON.stringify([{ ...edited[0], effect: "deny", approval: undefined }], null, 2));
    await page.getByRole("tab", { name: "Form" }).click();
    await expect.poll(() => first.getByLabel("Effect").inputValue()).toBe("deny");
    expect(await first.getByLabel("Who approves").count()).toBe(0);

    // Review: the high-risk deletion that waited for an approval is now refused.
    await page.getByRole("button", { name: "Review and save" }).click();
    const review = page.getByRole("region", { name: "Review before saving" });
    const diff = review.getByRole("list", { name: "Decisions that change from require_approval to deny" });
    await expect.poll(() => diff.count(), { timeout: 10_000 }).toBe(1);
    // Only the destructive tools change, each on one line for both callers tried; the first 20 show at once.
    expect(await diff.getByRole("listitem").count()).toBe(20);
    await review.getByRole("button", { name: /^Show all \d+ tools$/ }).click();
    const deletion = diff.getByRole("listitem").filter({ hasText: /^scm\.delete_repository: require_approval → deny/ });
    expect(await deletion.count()).toBe(1);
    expect(await deletion.textContent()).toMatch(/with or without an end user \(rule no-deletes\)/);
    // Low-risk destructive tools ran before and are refused now too; nothing else changes.
    const changes = await review.getByRole("list").evaluateAll((lists) => lists.map((list) => list.getAttribute("aria-label")));
    expect(changes.sort()).toEqual(["Decisions that change from allow to deny", "Decisions that change from require_approval to deny"]);
    await shootBoth(page, "review", review);
    await review.getByRole("button", { name: "Save as version 1" }).click();
    await expect.poll(() => page.getByText("Saved as version 1.").count(), { timeout: 10_000 }).toBe(1);

    await page.reload();
    await expect.poll(() => page.getByText(/^Version 1, saved/).count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole("tab", { name: "JSON" }).click();
    expect(JSON.parse(await jsonText(page))).toEqual([expect.objectContaining({ id: "no-deletes", effect: "deny" })]);
    const stored = await call(broker, "GET", "/v1/policy?env=test", asOperator(tenant));
    expect(stored.body).toMatchObject({ version: 1, rules: [{ id: "no-deletes", effect: "deny" }] });
    await page.close();
  });

  it("edits conditions, end users and the order of rules in the form, and the JSON follows", async () => {
    const page = await openPolicy(tenant.operatorSubject);
    await page.getByRole("button", { name: "Add rule" }).click();
    const added = ruleCard(page, 1);
    await added.getByLabel("Rule id").fill("alice-prod");
    await added.getByLabel("Effect").selectOption("deny");
    await added.getByLabel("Tools", { exact: true }).fill("scm.*");
    await added.getByRole("button", { name: "Add tool" }).click();
    await added.getByLabel("End users").selectOption("list");
    await added.getByLabel("End user ids").fill("alice, bob");
    await added.getByRole("button", { name: "Add condition" }).click();
    await added.getByLabel("Argument (JSON pointer)").fill("/repo");
    await added.getByLabel("Test").selectOption("prefix");
    await added.getByLabel("Value").fill("prod-");
    await page.getByRole("button", { name: "Move Rule 2 up" }).click();
    await shootBoth(page, "conditions", ruleCard(page, 0));
    await page.getByRole("tab", { name: "JSON" }).click();
    const rules = JSON.parse(await jsonText(page));
    expect(rules.map((rule: { id: string }) => rule.id)).toEqual(["alice-prod", "no-deletes"]);
    expect(rules[0]).toEqual({ id: "alice-prod", effect: "deny", tools: ["scm.*"], end_users: ["alice", "bob"], conditions: [{ pointer: "/repo", prefix: "prod-" }] });
    await page.close();
  });

  it("reviews the Read-only agent template: writes that ran are refused, reads are not in the list", async () => {
    const page = await openPolicy(tenant.operatorSubject);
    await page.getByText("Start from a template").click();
    await page.getByRole("button", { name: "Use the template Read-only agent" }).click();
    await expect.poll(() => ruleCard(page, 0).getByLabel("Rule id").inputValue()).toMatch(/^reads-run/);
    await page.getByRole("button", { name: "Review and save" }).click();
    const review = page.getByRole("region", { name: "Review before saving" });
    const refused = review.getByRole("list", { name: "Decisions that change from allow to deny" });
    await expect.poll(() => refused.count(), { timeout: 15_000 }).toBe(1);
    for (const button of await review.getByRole("button", { name: /^Show all/ }).all()) await button.click();
    expect(await refused.getByRole("listitem").filter({ hasText: /^scm\.create_issue: allow → deny/ }).count()).toBe(1);
    expect(await review.getByText(/^scm\.get_repository:/).count()).toBe(0);
    await shootBoth(page, "read-only-review", review);
    await review.getByRole("button", { name: "Keep editing" }).click();
    expect(await review.count()).toBe(0);
    await page.close();
  });

  it("holds the form back while the JSON does not parse, and shows why", async () => {
    const page = await openPolicy(tenant.operatorSubject);
    await page.getByRole("tab", { name: "JSON" }).click();
    await page.getByLabel("Policy rules (JSON)").fill('[{"id": ');
    await expect.poll(() => page.getByText(/not valid JSON/).count()).toBeGreaterThan(0);
    await page.getByRole("tab", { name: "Form" }).click();
    await expect.poll(() => page.getByText(/Fix it in the JSON view/).count()).toBe(1);
    expect(await page.getByRole("button", { name: "Review and save" }).isDisabled()).toBe(true);
    await page.close();
  });

  it("shows a fault the broker finds next to the field it concerns", async () => {
    const page = await openPolicy(tenant.operatorSubject);
    await page.getByRole("button", { name: "Add rule" }).click();
    const added = ruleCard(page, 1);
    await added.getByLabel("Tools", { exact: true }).fill("nowhere.*");
    await added.getByRole("button", { name: "Add tool" }).click();
    await page.getByRole("button", { name: "Review and save" }).click();
    const fault = added.getByRole("alert").filter({ hasText: /matches no known tool/ });
    await expect.poll(() => fault.count(), { timeout: 10_000 }).toBe(1);
    // Beside the Tools field of the second rule, not in a list at the end of the page.
    expect(await added.getByLabel("Tools", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await ruleCard(page, 0).getByRole("alert").count()).toBe(0);
    await shootBoth(page, "fault", added);
    expect((await call(broker, "GET", "/v1/policy?env=test", asOperator(tenant))).body.version).toBe(1);
    await page.close();
  });

  it("lets a viewer read the policy and nothing more", async () => {
    const page = await openPolicy(VIEWER);
    const first = ruleCard(page, 0);
    await expect.poll(() => first.getByLabel("Rule id").inputValue(), { timeout: 10_000 }).toBe("no-deletes");
    expect(await first.getByLabel("Rule id").isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Review and save" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Add rule" }).isDisabled()).toBe(true);
    await page.getByText("Start from a template").click();
    await expect.poll(() => page.getByRole("button", { name: "Use the template Read-only agent" }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole("button", { name: "Use the template Read-only agent" }).isDisabled()).toBe(true);
    await page.getByRole("tab", { name: "JSON" }).click();
    expect(await page.getByLabel("Policy rules (JSON)").getAttribute("readonly")).not.toBeNull();
    await shootBoth(page, "viewer");
    await page.close();
  });
});
