/**
 * Approvals people want, in the console in Chromium against a real broker: two admins approving
 * one call (who approved, who is still needed), edit then approve (the refusal says why; the page
 * shows what changed), a rule that forbids edits, an approval the end user decides (waiting, with
 * the link), and Settings (members' approver profiles, the approval channels, then a request delivered to Slack). Every page is shot
 * at desktop (1280×800) and phone (390×844) width into packages/console/test-output/.
 */
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "../../server/test/support/broker.js";
import { connectAccount } from "../../server/test/support/connect.js";
import { startFakeUpstreams, type FakeUpstreams } from "../../server/test/support/fake-upstreams/index.js";
import { call } from "../../server/test/support/http.js";

const CHROMIUM = "/usr/bin/chromium";
const DIST = fileURLToPath(new URL("../dist", import.meta.url));
const OUTPUT = fileURLToPath(new URL("../test-output", import.meta.url));
const CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const missing = [!existsSync(CHROMIUM) && `${CHROMIUM} (apt-get install chromium)`, !existsSync(`${DIST}/index.html`) && "the console build (npm run build -w @toolbroker/console)"].filter(Boolean);
if (missing.length) process.stdout.write(`\n[console] approvals browser tests SKIPPED: missing ${missing.join(" and ")}\n\n`);

type ApprovalBody = {
  approval_id: string;
  status: string;
  digest: string;
  requested_digest: string;
  edit: { changes: { path: string; from?: unknown; to?: unknown }[] } | null;
  approvers: { approved: number; needed: number };
  end_user_url: string | null;
};

(missing.length ? describe.skip : describe)("approvals in the console, in Chromium", { timeout: 120_000 }, () => {
  let fakes: FakeUpstreams;
  let broker: TestBroker;
  let tenant: TestTenant;
  let browser: Browser;
  let accountId: string;
  const members: Record<"alice" | "bob", string> = { alice: "", bob: "" };
  const BOB = "admin-bob";

  const asOperator = () => ({ token: tenant.operatorToken, tenant: tenant.tenantId });
  const approvalOf = async (id: string) => (await call<ApprovalBody>(broker, "GET", `/v1/approvals/${id}`, asOperator())).body;

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    fakes = await startFakeUpstreams();
    broker = await startBroker("sqlite", { env: { ...fakes.env, BROKER_APPROVAL_WORKER_INTERVAL_MS: "200" }, consoleDirectory: DIST });
    tenant = await createTenant(broker, "Acme");
    const issuer = broker.runtime.developmentIssuer!;
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: BOB, role: "admin" }, "test");
    await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "viewer-settings", role: "viewer" }, "test");
    const listed = (await call(broker, "GET", "/v1/members", asOperator())).body.data as { id: string; subject: string }[];
    members.alice = listed.find((member) => member.subject === tenant.operatorSubject)!.id;
    members.bob = listed.find((member) => member.subject === BOB)!.id;
    for (const [id, name] of [[members.alice, "Alice Admin"], [members.bob, "Bob Admin"]] as const) {
      const named = await call(broker, "PATCH", `/v1/members/${id}`, { ...asOperator(), body: { display_name: name } });
      expect(named.status, named.text).toBe(200);
    }
    accountId = await connectAccount(broker, tenant, "scm");
    const deletion = { effect: "require_approval", tools: ["scm.delete_repository"] };
    const policy = await call(broker, "PUT", "/v1/policy", {
      ...asOperator(),
      body: {
        env: "test",
        rules: [
          { ...deletion, id: "end-user-decides", end_users: "any", approval: { approvers: "end_user" } },
          { ...deletion, id: "two-admins", conditions: [{ pointer: "/repo", equals: "hello-world" }], approval: { approvers: { count: 2, of: "admins" } } },
          { ...deletion, id: "no-edits", conditions: [{ pointer: "/repo", prefix: "frozen-" }], approval: { edits: "forbidden" } },
        ],
      },
    });
    expect(policy.status, policy.text).toBe(200);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await broker?.close();
    await fakes?.close();
  });

  const shoot = (page: Page, name: string) => page.screenshot({ path: `${OUTPUT}/${name}.png`, fullPage: true });

  /** Shoots the page at desktop width, then at phone width (where nothing may overflow sideways), and back. */
  async function shootBoth(page: Page, name: string) {
    await shoot(page, name);
    await page.setViewportSize(PHONE);
    await shoot(page, `${name}-phone`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `${name} overflows at phone width`).toBeLessThanOrEqual(0);
    await page.setViewportSize(DESKTOP);
  }

  async function signIn(subject: string): Promise<Page> {
    const page = await browser.newPage({ viewport: DESKTOP });
    await page.goto(`${broker.url}/console/`);
    await page.getByLabel("Subject").fill(subject);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("link", { name: /^Approvals/ }).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    return page;
  }

  /** An agent asks to delete `repo` (for `endUserId`, if given); the call waits for an approval. */
  async function requestDeletion(repo: string, endUserId?: string) {
    const minted = await call(broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test", ...(endUserId ? { end_user_id: endUserId } : {}) } });
    const jwt = minted.body.access_token as string;
    const asked = await call(broker, "POST", "/v1/tools/execute", {
      token: jwt,
      body: { tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo }, connected_account_id: accountId },
    });
    expect(asked.status, asked.text).toBe(409);
    return { jwt, approvalId: asked.body.error.details.approval_id as string, invocationId: asked.body.error.details.invocation_id as string };
  }

  async function openInbox(page: Page, repo: string) {
    await page.getByRole("link", { name: /^Approvals/ }).click();
    const card = page.getByRole("listitem").filter({ hasText: repo }).first();
    await expect.poll(() => card.isVisible(), { timeout: 10_000 }).toBe(true);
    return card;
  }

  it("shows a 2-of-admins call's binding, who approved and who is still needed, and counts the second approval", async () => {
    const { jwt, approvalId, invocationId } = await requestDeletion("hello-world");
    const page = await signIn(tenant.operatorSubject);
    const card = await openInbox(page, "hello-world");
    const approval = await approvalOf(approvalId);
    expect(await card.getByText("octocat").first().isVisible()).toBe(true);
    expect(await card.getByText(approval.digest.slice(0, 19)).count()).toBe(1);
    expect(await card.getByRole("heading", { name: "Approvers: 0 of 2 approvals" }).count()).toBe(1);
    expect(await card.getByText("Still needed from:").textContent()).toBeDefined();
    expect(await card.locator(".waiting-for").textContent()).toContain("Bob Admin");
    await shootBoth(page, "approvals-two-admins");

    await card.getByRole("button", { name: "Approve", exact: true }).click();
    await expect.poll(() => card.getByRole("heading", { name: "Approvers: 1 of 2 approvals" }).count(), { timeout: 10_000 }).toBe(1);
    expect(await card.getByText("You approved this call.").count()).toBe(1);
    expect(await card.getByRole("button", { name: "Approve", exact: true }).isDisabled()).toBe(true);
    expect(await card.locator(".waiting-for").textContent()).toMatch(/Still needed from: Bob Admin$/);
    expect(await card.getByRole("list", { name: "Votes" }).textContent()).toMatch(/Alice Admin.*Approved.*via console/);
    expect(await page.getByText(/Your approval of scm.delete_repository is recorded: 1 of 2 approvals/).count()).toBe(1);
    await shootBoth(page, "approvals-one-of-two");
    // One approval is not enough: the agent still waits.
    expect((await call(broker, "POST", `/v1/tools/invocations/${invocationId}/continue`, { token: jwt })).status).not.toBe(200);

    const bob = await broker.runtime.developmentIssuer!.issue(BOB);
    const second = await call(broker, "POST", `/v1/approvals/${approvalId}/decide`, { token: bob, tenant: tenant.tenantId, body: { decision: "approve" } });
    expect(second.status, second.text).toBe(200);
    await expect.poll(() => card.count(), { timeout: 10_000 }).toBe(0);
    await page.getByRole("tab", { name: "Decided and expired" }).click();
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "scm.delete_repository" }) }).filter({ hasText: "Alice Admin" }).first();
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.textContent()).toMatch(/Approved.*Alice Admin, Bob Admin/);
    await shootBoth(page, "approvals-decided");
    expect((await call(broker, "POST", `/v1/tools/invocations/${invocationId}/continue`, { token: jwt })).status).toBe(200);
    await page.close();
  });

  it("edits the arguments, then approves: a malformed or refused edit says why, and the page shows what changed", async () => {
    const { approvalId, jwt, invocationId } = await requestDeletion("typo-repo");
    const page = await signIn(tenant.operatorSubject);
    const card = await openInbox(page, "typo-repo");
    await card.getByRole("link", { name: "Edit, then approve" }).click();
    const editor = page.getByLabel("Arguments to run (JSON)");
    await expect.poll(() => editor.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(JSON.parse(await editor.inputValue())).toEqual({ owner: "octocat", repo: "typo-repo" });
    const approve = page.getByRole("button", { name: "Approve with these arguments" });

    await editor.fill('{"owner": "octocat", "repo": }');
    expect(await page.getByRole("alert").filter({ hasText: "Not valid JSON" }).count()).toBe(1);
    expect(await approve.isDisabled()).toBe(true);
    await editor.fill(JSON.stringify({ owner: "octocat", repo: 42 }, null, 2));
    await approve.click();
    const refusal = page.getByRole("alert").filter({ hasText: "The edited call was not approved: " });
    await expect.poll(() => refusal.count(), { timeout: 10_000 }).toBe(1);
    await shootBoth(page, "approval-edit-refused");
    expect((await approvalOf(approvalId)).status).toBe("pending");

    await editor.fill(JSON.stringify({ owner: "octocat", repo: "spoon-knife" }, null, 2));
    await approve.click();
    const changes = page.getByRole("table", { name: "What the edit changed" });
    await expect.poll(() => changes.count(), { timeout: 10_000 }).toBe(1);
    expect(await changes.getByRole("row").nth(1).textContent()).toBe('/repo"typo-repo""spoon-knife"');
    expect(await page.getByText("Approved scm.delete_repository as edited.").count()).toBe(1);
    expect(await page.getByText("Edited by Alice Admin").count()).toBe(1);
    const approved = await approvalOf(approvalId);
    expect(approved).toMatchObject({ status: "approved", edit: { changes: [{ path: "/repo", from: "typo-repo", to: "spoon-knife" }] } });
    expect(approved.digest).not.toBe(approved.requested_digest);
    expect(await page.getByText("Digest as requested").count()).toBe(1);
    await shootBoth(page, "approval-edited");
    // The agent's continue runs the call as edited.
    const ran = await call(broker, "POST", `/v1/tools/invocations/${invocationId}/continue`, { token: jwt });
    expect(ran.status, ran.text).toBe(200);
    expect(ran.body.result).toMatchObject({ full_name: "octocat/spoon-knife" });
    await page.close();
  });

  it("offers no editor when the rule forbids edits", async () => {
    const { approvalId } = await requestDeletion("frozen-repo");
    const page = await signIn(tenant.operatorSubject);
    const card = await openInbox(page, "frozen-repo");
    expect(await card.getByRole("link", { name: "Edit, then approve" }).count()).toBe(0);
    await page.goto(`${broker.url}/console/approvals/${approvalId}`);
    await expect.poll(() => page.getByRole("heading", { name: /Approvers/ }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByLabel("Arguments to run (JSON)").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Approve", exact: true }).isEnabled()).toBe(true);
    await page.close();
  });

  it("shows an approval the end user decides as waiting for them, with their link and no vote buttons", async () => {
    const { approvalId } = await requestDeletion("alice-notes", "alice");
    const page = await signIn(tenant.operatorSubject);
    const card = await openInbox(page, "alice-notes");
    expect(await card.getByText("Waiting for the end user").count()).toBe(1);
    expect(await card.getByRole("heading", { name: "Approver: the end user" }).count()).toBe(1);
    expect(await card.getByRole("button", { name: "Approve", exact: true }).count()).toBe(0);
    const { end_user_url: link } = await approvalOf(approvalId);
    const field = card.getByRole("textbox", { name: "The end user's approval link" });
    if (link) expect(await field.inputValue()).toBe(link);
    else expect(await field.count()).toBe(0);
    await shootBoth(page, "approval-end-user");
    await page.close();
  });

  it("edits your own email and Slack user (saying which field is wrong), and only another member's name and groups", async () => {
    const page = await signIn(tenant.operatorSubject);
    await page.getByRole("link", { name: "Settings" }).click();
    const alice = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Alice Admin" }) });
    const bob = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Bob Admin" }) });
    await expect.poll(() => bob.count(), { timeout: 10_000 }).toBe(1);
    await shootBoth(page, "settings-members");
    await alice.getByRole("button", { name: "Edit Alice Admin" }).click();
    await alice.getByLabel("Slack user").fill("not a slack id");
    await alice.getByRole("button", { name: "Save member" }).click();
    await expect.poll(() => alice.getByRole("alert").filter({ hasText: "The member was not saved: check the marked fields." }).count(), { timeout: 10_000 }).toBe(1);
    expect(await alice.getByLabel("Slack user").getAttribute("aria-invalid")).toBe("true");
    expect(await alice.getByText(/^The Slack team id and user id in capitals/).count()).toBe(1);
    await alice.getByLabel("Email").fill("alice@example.com");
    await alice.getByLabel("Slack user").fill("T0123ABCD:U0456EFGH");
    await shootBoth(page, "settings-member-edit");
    await alice.getByRole("button", { name: "Save member" }).click();
    await expect.poll(() => page.getByText("Saved Alice Admin.").count(), { timeout: 10_000 }).toBe(1);

    // Another member's email and Slack user are theirs to set: the form offers their name and groups only.
    await bob.getByRole("button", { name: "Edit Bob Admin" }).click();
    expect(await bob.getByLabel("Email").count()).toBe(0);
    expect(await bob.getByLabel("Slack user").count()).toBe(0);
    expect(await bob.getByText(/^Email and Slack user are set by the member themselves/).count()).toBe(1);
    await bob.getByLabel("Groups").fill("finance, ops, finance");
    await shootBoth(page, "settings-member-edit-other");
    await bob.getByRole("button", { name: "Save member" }).click();
    await expect.poll(() => page.getByText("Saved Bob Admin.").count(), { timeout: 10_000 }).toBe(1);
    expect(await bob.textContent()).toContain("finance, ops");
    const stored = (await call(broker, "GET", "/v1/members", asOperator())).body.data as { id: string }[];
    expect(stored.find((member) => member.id === members.alice)).toMatchObject({ email: "alice@example.com", slack_user_id: "T0123ABCD:U0456EFGH", display_name: "Alice Admin" });
    expect(stored.find((member) => member.id === members.bob)).toMatchObject({ email: null, slack_user_id: null, groups: ["finance", "ops"], display_name: "Bob Admin" });
    await page.close();
  });

  it("saves the approval channels (Slack through the tenant's connection), and an approval's page shows its Slack delivery", async () => {
    const slackAccount = await connectAccount(broker, tenant, "chat");
    const page = await signIn(tenant.operatorSubject);
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByRole("tab", { name: "Approval channels" }).click();
    const slack = page.getByLabel(/^Slack: a message/);
    await expect.poll(() => slack.count(), { timeout: 10_000 }).toBe(1);
    await slack.check();
    // Slack without a connection and a channel cannot be saved.
    const save = page.getByRole("button", { name: "Save approval channels" });
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel("Slack connection").selectOption(slackAccount);
    await page.getByLabel("Slack channel").fill("not a channel!");
    await save.click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: "The approval channels were not saved: " }).count(), { timeout: 10_000 }).toBe(1);
    await page.getByLabel("Slack channel").fill("#general");
    await save.click();
    await expect.poll(() => page.getByText("Saved the approval channels.").count(), { timeout: 10_000 }).toBe(1);
    expect((await call(broker, "GET", "/v1/approval-settings", asOperator())).body).toMatchObject({ channels: ["slack"], slack: { connected_account_id: slackAccount, channel: "#general" } });
    await shootBoth(page, "settings-approval-channels");

    const { approvalId } = await requestDeletion("private-notes");
    await page.goto(`${broker.url}/console/approvals/${approvalId}`);
    const slackRequest = page.getByRole("list", { name: "Channel deliveries" }).getByRole("listitem").filter({ hasText: "Slack: Request" });
    await expect.poll(async () => (await slackRequest.count()) && (await slackRequest.textContent()), { timeout: 15_000 }).toMatch(/Sent.*sent .*1 attempt$/);
    await shootBoth(page, "approval-slack-delivery");
    await call(broker, "PUT", "/v1/approval-settings", { ...asOperator(), body: { channels: [] } });
    await page.close();
  });

  it("shows a viewer the members with every change disabled, and tells them the channels are for admins", async () => {
    const page = await signIn("viewer-settings");
    await page.getByRole("link", { name: "Settings" }).click();
    const edit = page.getByRole("button", { name: "Edit Bob Admin" });
    await expect.poll(() => edit.count(), { timeout: 10_000 }).toBe(1);
    expect(await edit.isDisabled()).toBe(true);
    // Their own row: they set their own email and Slack user, not their name or groups.
    const own = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "viewer-settings" }) });
    await own.getByRole("button", { name: "Edit viewer-settings" }).click();
    expect(await own.getByLabel("Groups").count()).toBe(0);
    expect(await own.getByLabel("Display name").count()).toBe(0);
    await own.getByLabel("Email").fill("viewer@example.com");
    await own.getByRole("button", { name: "Save member" }).click();
    await expect.poll(() => page.getByText("Saved viewer-settings.").count(), { timeout: 10_000 }).toBe(1);
    const stored = (await call(broker, "GET", "/v1/members", asOperator())).body.data.find((member: { subject: string }) => member.subject === "viewer-settings");
    expect(stored).toMatchObject({ email: "viewer@example.com", slack_user_id: null, display_name: null, groups: [] });
    await page.getByRole("tab", { name: "Approval channels" }).click();
    await expect.poll(() => page.getByText("Only admins see and change the approval channels.").count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole("button", { name: "Save approval channels" }).count()).toBe(0);
    await page.close();
  });
});
