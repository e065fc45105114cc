/**
 * Issue 39, the end user decides, in a real browser (Debian's Chromium driven by playwright-core):
 * the hosted approval page at phone width shows the call whole (no sideways scrolling, however long
 * an argument) and its Approve button decides under the page's own CSP. Screenshots go to
 * test-output/ (approval-page-phone.png, approval-page-approved-phone.png, approval-page-desktop.png).
 */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScmTenant, deletion, outboxEvents, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "../../server/test/support/approvals.js";
import { asOperator, call } from "../../server/test/support/http.js";

const OUTPUT = fileURLToPath(new URL("../test-output", import.meta.url));
mkdirSync(OUTPUT, { recursive: true });

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const PHONE = { width: 390, height: 844 };
const LONG_REPO = "quarterly-revenue-forecast-archive-2019-to-2026-do-not-delete-without-asking-finance";

if (!existsSync(CHROMIUM)) process.stdout.write(`\n[console] approval page browser tests SKIPPED: missing ${CHROMIUM} (apt-get install chromium)\n\n`);

(existsSync(CHROMIUM) ? describe : describe.skip)("the end user's approval page in Chromium", { timeout: 60_000 }, () => {
  let world: ScmWorld;
  let tenant: ScmTenant;
  let browser: Browser;
  let endUserToken: string;

  /** A deletion for end user alice that she decides; returns the link the `approval.requested` event carried. */
  async function requestForAlice(repo: string) {
    const pending = await requestApproval(world.broker, { ...deletion(tenant, repo), token: endUserToken });
    const event = (await outboxEvents(world.broker, tenant.tenantId, "approval.requested")).find((e) => e.data.approval_id === pending.approval_id)!;
    return { ...pending, url: event.data.end_user_url as string };
  }
  const statusOf = async (approvalId: string) => (await call(world.broker, "GET", `/v1/approvals/${approvalId}`, asOperator(tenant))).body.status as string;

  beforeAll(async () => {
    world = await startScmWorld("sqlite");
    tenant = await createScmTenant(world, "Acme");
    await putPolicy(world.broker, tenant, [{ id: "owner-decides", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: "end_user" } }]);
    const minted = await call(world.broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test", end_user_id: "alice" } });
    endUserToken = minted.body.access_token;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it("fits a phone, shows the call, and approves with a press", async () => {
    const { approval_id, url } = await requestForAlice(LONG_REPO);
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    try {
      const page = await context.newPage();
      const violations: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.goto(url);
      await page.screenshot({ path: `${OUTPUT}/approval-page-phone.png`, fullPage: true });
      expect(await page.locator("h1").textContent()).toBe("Approve this action?");
      await expect.poll(() => page.locator("pre").textContent()).toContain(LONG_REPO);
      // Nothing wider than the screen: the long argument and the digest wrap.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      const approve = page.getByRole("button", { name: "Approve" });
      const box = (await approve.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(box.height).toBeGreaterThanOrEqual(30);
      expect(await statusOf(approval_id)).toBe("pending");

      await approve.tap();
      await expect.poll(() => page.locator("h1").textContent(), { timeout: 10_000 }).toBe("Approved");
      await page.screenshot({ path: `${OUTPUT}/approval-page-approved-phone.png`, fullPage: true });
      expect(await statusOf(approval_id)).toBe("approved");
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("denies with a press at desktop width", async () => {
    const { approval_id, url } = await requestForAlice("spoon-knife");
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(url);
      await page.screenshot({ path: `${OUTPUT}/approval-page-desktop.png`, fullPage: true });
      await page.getByRole("button", { name: "Deny" }).click();
      await expect.poll(() => page.locator("h1").textContent(), { timeout: 10_000 }).toBe("Denied");
      expect(await statusOf(approval_id)).toBe("denied");
    } finally {
      await context.close();
    }
  });
});
