/**
 * Issues 40 and 41: the Usage page in Chromium, against a real broker and the fake GitHub, after
 * real tool calls. Every chart is drawn by recharts with a title, a description, axes that name
 * their unit, a tooltip on hover and the numbers in a hidden table; the last hour's chart shows the
 * calls just made (and the error among them) in the current minute. At 1280×800 and 390×844,
 * nothing scrolls sideways, and the browser reports no error and no Content-Security-Policy
 * violation. Screenshots go to packages/console/test-output/usage-charts*.png.
 */
import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { CHROMIUM, CHROMIUM_FLAGS, CONSOLE_DIST, TEST_OUTPUT, browserSuiteSkipped } from "./support/chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "../../server/test/support/broker.js";
import { connectAccount } from "../../server/test/support/connect.js";
import { startFakeUpstreams, type FakeUpstreams } from "../../server/test/support/fake-upstreams/index.js";
import { call, mintBrokerToken } from "../../server/test/support/http.js";


const skipped = browserSuiteSkipped("usage");

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
] as const;

const LAST_HOUR_TITLE = "Calls and errors per minute, the last hour";

(skipped ? describe.skip : describe)("the Usage page's charts in Chromium", { timeout: 120_000 }, () => {
  let fakes: FakeUpstreams;
  let broker: TestBroker;
  let tenant: TestTenant;
  let browser: Browser;
  /** The minute (UTC, HH:MM) the calls were made in, and the calls and errors the broker counted for it. */
  let callMinute: { label: string; short: string; calls: number; errors: number };

  beforeAll(async () => {
    mkdirSync(TEST_OUTPUT, { recursive: true });
    fakes = await startFakeUpstreams();
    broker = await startBroker("sqlite", { env: { ...fakes.github.env }, consoleDirectory: CONSOLE_DIST });
    tenant = await createTenant(broker, "Acme");
    const testAccount = await connectAccount(broker, tenant, "scm");
    const liveAccount = await connectAccount(broker, tenant, "scm", { env: "live" });
    const testJwt = await mintBrokerToken(broker, tenant);
    const liveJwt = await mintBrokerToken(broker, tenant, "live");
    const getUser = (token: string, account: string) =>
      call(broker, "POST", "/v1/tools/execute", { token, body: { tool_name: "scm.get_authenticated_user", arguments: {}, connected_account_id: account } });
    const listRepositories = (token: string, account: string) =>
      call(broker, "POST", "/v1/tools/execute", { token, body: { tool_name: "scm.list_repositories", arguments: {}, connected_account_id: account } });
    for (let i = 0; i < 3; i += 1) expect((await getUser(testJwt, testAccount)).status).toBe(200);
    expect((await listRepositories(testJwt, testAccount)).status).toBe(200);
    expect((await getUser(liveJwt, liveAccount)).status).toBe(200);
    fakes.github.failNext(1, { status: 500, body: { message: "Server Error" } });
    expect((await getUser(testJwt, testAccount)).status).toBe(502);
    // The minute the broker put them in (a call made across a minute's end lands in the next one).
    const lastHour = await call(broker, "GET", "/v1/usage/last-hour", { token: tenant.operatorToken, tenant: tenant.tenantId });
    const busy = (lastHour.body.data as { minute: string; calls: number; errors: number }[]).filter((minute) => minute.calls > 0);
    expect(busy.reduce((sum, minute) => sum + minute.calls, 0)).toBe(6);
    const last = busy.at(-1)!;
    callMinute = { label: `${last.minute.slice(0, 10)} ${last.minute.slice(11, 16)} UTC`, short: last.minute.slice(11, 16), calls: last.calls, errors: last.errors };
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await broker?.close();
    await fakes?.close();
  });

  /** A tab that records every console error or warning, uncaught exception and CSP violation. */
  async function openPage(viewport: { width: number; height: number }) {
    const page = await browser.newPage({ viewport });
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error" || message.type() === "warning") problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    // CSP violations also reach the console as errors; the event names the directive.
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        console.error(`CSP violation: ${event.violatedDirective} (${event.blockedURI || "inline"})`);
      });
    });
    return { page, problems };
  }

  async function openUsage(page: Page) {
    await page.goto(`${broker.url}/console/`);
    await page.getByLabel("Subject").fill(tenant.operatorSubject);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("link", { name: /^Usage/ }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).first().textContent(), { timeout: 10_000 }).toContain("Usage");
    await expect.poll(() => page.locator("figure svg.recharts-surface").count(), { timeout: 15_000 }).toBe(4);
    await page.waitForLoadState("networkidle");
  }

  /** The figure whose chart has this title (the SVG's <title>). */
  const chart = (page: Page, title: string) => page.locator("figure").filter({ has: page.locator("svg.recharts-surface > title", { hasText: title }) });

  for (const viewport of VIEWPORTS) {
    it(`draws every chart with a title, a description, unit-named axes and drawn bars (${viewport.name} ${viewport.width}×${viewport.height})`, async () => {
      const { page, problems } = await openPage(viewport);
      await openUsage(page);
      const titles = await page.locator("figure svg.recharts-surface > title").allTextContents();
      expect(titles).toEqual([
        LAST_HOUR_TITLE,
        expect.stringMatching(/^Executions per month, \d{4}-\d{2} to \d{4}-\d{2}$/),
        expect.stringMatching(/^Executions by tool, /),
        expect.stringMatching(/^Executions per day, \d{4}-\d{2}$/),
      ]);
      const descriptions = await page.locator("figure svg.recharts-surface > desc").allTextContents();
      expect(descriptions[0]).toMatch(/^6 calls and 1 error from \d\d:\d\d to \d\d:\d\d UTC\.$/);
      // The failed call reached GitHub, so it is metered: 6 executions, 5 of them of one tool.
      expect(descriptions[1]).toBe("6 executions in total.");
      expect(descriptions[2]).toBe("2 tools; the most used is scm.get_authenticated_user with 5.");
      for (const [title, axes] of [
        [LAST_HOUR_TITLE, ["Minute (UTC)", "Calls"]],
        ["Executions per month", ["Month (UTC)", "Executions"]],
        ["Executions by tool", ["Tool", "Executions"]],
        ["Executions per day", ["Day of the month (UTC)", "Executions"]],
      ] as const) {
        const figure = chart(page, title);
        for (const axis of axes) expect(await figure.locator("svg.recharts-surface text", { hasText: new RegExp(`^${axis.replace(/[()]/g, "\\$&")}$`) }).count(), `${title}: ${axis}`).toBe(1);
        // Bars with a height: recharts drew the data, not an empty frame.
        const drawn = await figure.locator(".recharts-bar-rectangle path").evaluateAll((paths) => paths.filter((path) => (path as SVGGraphicsElement).getBBox().height > 0).length);
        expect(drawn, title).toBeGreaterThan(0);
      }
      // The tool names are on the tool chart's axis.
      expect(await chart(page, "Executions by tool").locator("text", { hasText: "scm.list_repositories" }).count()).toBe(1);
      await page.screenshot({ path: `${TEST_OUTPUT}/usage-charts-${viewport.name}.png`, fullPage: true });
      // Each screen of the page on its own, to look at.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0, part = 1; y < height; y += viewport.height, part += 1) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        await page.screenshot({ path: `${TEST_OUTPUT}/usage-charts-${viewport.name}-${part}.png` });
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(problems).toEqual([]);
      await page.close();
    });

    it(`shows the calls just made in the last hour's chart, with a tooltip on hover (${viewport.name})`, async () => {
      const { page, problems } = await openPage(viewport);
      await openUsage(page);
      const figure = chart(page, LAST_HOUR_TITLE);
      // The hidden table carries the same numbers: 60 minutes, the calls in their minute.
      const rows = figure.locator("table tbody tr");
      expect(await rows.count()).toBe(60);
      const row = rows.filter({ has: page.locator("th", { hasText: callMinute.label }) });
      expect(await row.locator("td").allTextContents()).toEqual([String(callMinute.calls), String(callMinute.errors)]);
      expect(await page.locator("p", { hasText: /^6 calls and 1 error from \d\d:\d\d to \d\d:\d\d UTC, per minute\./ }).count()).toBe(1);

      // Hover the minute's bar: the tooltip names the minute, its calls and its errors.
      const index = await rows.evaluateAll((all, label) => all.findIndex((tr) => tr.querySelector("th")!.textContent === label), callMinute.label);
      // recharts draws no rectangle for an empty minute: aim at the minute's band of the plot.
      await figure.scrollIntoViewIfNeeded();
      const plot = (await figure.locator(".recharts-cartesian-grid").boundingBox())!;
      const x = plot.x + ((index + 0.5) * plot.width) / 60;
      const bar = await figure.locator(".recharts-bar-rectangle path").evaluateAll((paths, at) => paths.some((path) => {
        const box = path.getBoundingClientRect();
        return box.left <= at && at <= box.right && box.height > 0;
      }), x);
      expect(bar, "the minute's bar is drawn").toBe(true);
      await page.mouse.move(x, plot.y + plot.height - 4);
      const tooltip = figure.locator(".chart-tooltip");
      await expect.poll(() => tooltip.isVisible(), { timeout: 5_000 }).toBe(true);
      expect(await tooltip.textContent()).toBe(`${callMinute.label}calls: ${callMinute.calls}errors: ${callMinute.errors}`);
      await page.screenshot({ path: `${TEST_OUTPUT}/usage-charts-tooltip-${viewport.name}.png`, clip: (await figure.boundingBox())! });

      // The tool chart's tooltip too: the tool in full and its executions per env.
      const tools = chart(page, "Executions by tool");
      await tools.scrollIntoViewIfNeeded();
      const toolBar = (await tools.locator(".recharts-bar-rectangle").first().boundingBox())!;
      await page.mouse.move(toolBar.x + toolBar.width / 2, toolBar.y + toolBar.height / 2);
      await expect.poll(async () => ((await tools.locator(".chart-tooltip").count()) ? tools.locator(".chart-tooltip").textContent() : ""), { timeout: 5_000 }).toBe("scm.get_authenticated_usertest: 4live: 1");
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it("opens the tooltip from the keyboard (recharts' accessibility layer)", async () => {
    const { page, problems } = await openPage({ width: 1280, height: 800 });
    await openUsage(page);
    const surface = chart(page, LAST_HOUR_TITLE).locator("svg.recharts-surface");
    await surface.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => chart(page, LAST_HOUR_TITLE).locator(".chart-tooltip").isVisible(), { timeout: 5_000 }).toBe(true);
    expect(await chart(page, LAST_HOUR_TITLE).locator(".chart-tooltip").textContent()).toMatch(/^\d{4}-\d{2}-\d{2} \d\d:\d\d UTCcalls: \d+errors: \d+$/);
    expect(problems).toEqual([]);
    await page.close();
  });
});
