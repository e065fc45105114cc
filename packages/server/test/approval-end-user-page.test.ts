/**
 * Issue 39, "the end user decides": a rule routes the approval to the end user the call acts for;
 * the broker gives a signed one-time link (in the `approval.requested` webhook and the API) to a
 * hosted page that shows the call and decides it with a press. Another end user's link, a tampered,
 * reused or expired one, and a post that did not come from the page decide nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import { continueInvocation, createScmTenant, deleteCalls, deletion, outboxEvents, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { openApprovalPage, pathOf, pressOnApprovalPage, tampered } from "./support/approval-pages.js";

const OWNER_DECIDES = { id: "owner-decides", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: "end_user", ttl_seconds: 3600 } };

describeEachDatabase("the end user's approval page", (kind) => {
  const clock = manualClock(new Date());
  let world: ScmWorld;
  let tenant: ScmTenant;
  let other: ScmTenant;
  const tokens: Record<string, string> = {};

  const mintFor = async (endUserId: string) => {
    const minted = await call(world.broker, "POST", "/v1/broker/token", { token: tenant.testKey, body: { agent_app_id: tenant.agentAppId, env: "test", end_user_id: endUserId } });
    expect(minted.status, minted.text).toBe(200);
    return minted.body.access_token as string;
  };

  /** An approval of a deletion for `endUserId`, with the link the `approval.requested` event carried. */
  async function requestFor(endUserId: string, repo: string) {
    const pending = await requestApproval(world.broker, { ...deletion(tenant, repo), token: tokens[endUserId]! });
    const events = await outboxEvents(world.broker, tenant.tenantId, "approval.requested");
    const event = events.find((e) => e.data.approval_id === pending.approval_id)!;
    expect(event.data.end_user_id).toBe(endUserId);
    return { ...pending, url: event.data.end_user_url as string };
  }
  const statusOf = async (approvalId: string) => (await call(world.broker, "GET", `/v1/approvals/${approvalId}`, asOperator(tenant))).body.status as string;
  const approvalRow = (approvalId: string) => world.broker.services.approvals.get(tenant.tenantId, approvalId);

  beforeAll(async () => {
    world = await startScmWorld(kind, { clock });
    tenant = await createScmTenant(world, "Acme");
    other = await createScmTenant(world, "Other");
    await putPolicy(world.broker, tenant, [OWNER_DECIDES]);
    tokens.alice = await mintFor("alice");
    tokens.bob = await mintFor("bob");
  });
  afterAll(() => world?.close());

  it("lets an end user approve their own call on the page; the agent's continue then runs it", async () => {
    const { approval_id, invocation_id, url } = await requestFor("alice", "hello-world");
    expect(url).toMatch(new RegExp(`^${world.broker.url}/approve/al1\\.`));
    // The API gives the customer's backend the same link as the webhook.
    expect((await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(tenant))).body.end_user_url).toBe(url);
    const view = await openApprovalPage(world.broker, url);
    expect(view.page.status).toBe(200);
    expect(view.page.headers.get("content-security-policy")).toContain("form-action 'self'");
    const binding = await world.broker.services.approvalBindings.describe(await approvalRow(approval_id));
    for (const shown of ["scm.delete_repository", "hello-world", binding.agentApp.name, binding.account!.displayName, binding.digest]) expect(view.page.text).toContain(shown);
    expect(view.page.text).not.toContain("<script");
    expect(await statusOf(approval_id)).toBe("pending");

    const pressed = await pressOnApprovalPage(world.broker, view, url, { decision: "approve" });
    expect(pressed.status, pressed.text).toBe(200);
    expect(pressed.text).toContain("Approved");
    const shown = await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(tenant));
    expect(shown.body).toMatchObject({ status: "approved", approvers: { rule: "end_user", votes: [{ voter: { kind: "end_user", id: "alice" }, decision: "approve", via: "end_user_page" }] } });
    const ran = await continueInvocation(world.broker, tokens.alice!, invocation_id);
    expect(ran.status, ran.text).toBe(200);
    expect(deleteCalls(world, tenant, "hello-world")).toBe(1);
    const audit = await call(world.broker, "GET", "/v1/audit?action=approval.decided", asOperator(tenant));
    expect(audit.body.data.find((entry: { target: { id: string } }) => entry.target.id === approval_id)?.actor).toMatchObject({ type: "end_user", id: "alice" });
  });

  it("refuses a reused link (410 approval_link_used); opened again, the page shows the outcome and no form", async () => {
    const { approval_id, url } = await requestFor("alice", "spoon-knife");
    const view = await openApprovalPage(world.broker, url);
    expect((await pressOnApprovalPage(world.broker, view, url, { decision: "deny" })).status).toBe(200);
    expect(await statusOf(approval_id)).toBe("denied");
    expectError(await pressOnApprovalPage(world.broker, view, url, { decision: "approve" }, { accept: "application/json" }), 410, "approval_link_used");
    const again = await openApprovalPage(world.broker, url);
    expect(again.page.status).toBe(200);
    expect(again.page.text).toContain("already denied");
    expect(again.pageToken).toBe("");
    expect(await statusOf(approval_id)).toBe("denied");
  });

  describe("links that decide nothing", () => {
    let pending: Awaited<ReturnType<typeof requestFor>>;
    beforeAll(async () => {
      pending = await requestFor("alice", "private-notes");
    });

    it("refuses another end user's link: bob's own link retargeted (404), a link naming bob for alice's approval (403)", async () => {
      const bobs = await requestFor("bob", "private-notes");
      const [, kid, payload] = pathOf(bobs.url).split("/")[2]!.split(".");
      const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
      const retargeted = Buffer.from(JSON.stringify({ ...claims, a: pending.approval_id })).toString("base64url");
      const forged = bobs.url.replace(`${kid}.${payload}`, `${kid}.${retargeted}`);
      expectError(await call(world.broker, "GET", pathOf(forged)), 404, "not_found");

      const signedForBob = world.broker.services.approvalLinks.endUserUrl({ ...(await approvalRow(pending.approval_id)), endUserId: "bob" })!;
      const refused = await call(world.broker, "GET", pathOf(signedForBob));
      expectError(refused, 403, "forbidden");
      expect(refused.body.error.details).toEqual({ reason: "not_your_approval" });
      const view = await openApprovalPage(world.broker, pending.url);
      expectError(await pressOnApprovalPage(world.broker, view, signedForBob, { decision: "approve" }, { accept: "application/json" }), 403, "forbidden");
      expect(await statusOf(pending.approval_id)).toBe("pending");
    });

    it("answers 404 for another tenant's approval, and for a tampered, truncated or made-up link", async () => {
      const otherTenants = world.broker.services.approvalLinks.endUserUrl({ ...(await approvalRow(pending.approval_id)), tenantId: other.tenantId })!;
      expectError(await call(world.broker, "GET", pathOf(otherTenants)), 404, "not_found");
      for (const url of [tampered(pending.url), pending.url.slice(0, -5), `${world.broker.url}/approve/al1.x.y.z`, `${world.broker.url}/approve/${"a".repeat(2000)}`]) {
        expectError(await call(world.broker, "GET", pathOf(url)), 404, "not_found");
      }
      const asBrowser = await call(world.broker, "GET", pathOf(tampered(pending.url)), { headers: { accept: "text/html" } });
      expect(asBrowser.status).toBe(404);
      expect(asBrowser.headers.get("content-type")).toContain("text/html");
      expect(await statusOf(pending.approval_id)).toBe("pending");
    });

    it("refuses a post that did not come from the page: no cookie, no token, another page's token, a cross-site post", async () => {
      const view = await openApprovalPage(world.broker, pending.url);
      const json = { accept: "application/json" };
      const bare = await call(world.broker, "POST", pathOf(pending.url), { rawBody: "decision=approve", headers: { ...json, "content-type": "application/x-www-form-urlencoded" } });
      expectError(bare, 403, "forbidden");
      expect(bare.body.error.details).toEqual({ reason: "not_from_approval_page" });
      expectError(await pressOnApprovalPage(world.broker, { ...view, cookie: "" }, pending.url, { decision: "approve" }, json), 403, "forbidden");
      expectError(await pressOnApprovalPage(world.broker, { ...view, pageToken: "" }, pending.url, { decision: "approve" }, json), 403, "forbidden");
      const elsewhere = await openApprovalPage(world.broker, (await requestFor("alice", "hello-world")).url);
      expectError(await pressOnApprovalPage(world.broker, { ...view, pageToken: elsewhere.pageToken }, pending.url, { decision: "approve" }, json), 403, "forbidden");
      expectError(await pressOnApprovalPage(world.broker, view, pending.url, { decision: "approve" }, { ...json, "sec-fetch-site": "cross-site" }), 403, "forbidden");
      expect(await statusOf(pending.approval_id)).toBe("pending");
    });

    it("refuses hostile posts: no choice, an unknown choice, unknown fields, JSON, an oversized body", async () => {
      const view = await openApprovalPage(world.broker, pending.url);
      const json = { accept: "application/json" };
      expectError(await pressOnApprovalPage(world.broker, view, pending.url, {}, json), 400, "invalid_request");
      expect((await pressOnApprovalPage(world.broker, view, pending.url, { decision: "maybe" }, json)).status).toBe(400);
      expect((await pressOnApprovalPage(world.broker, view, pending.url, { decision: "approve", arguments: "{}" }, json)).status).toBe(400);
      // A script's JSON post carries neither the page's cookie nor its token.
      expectError(await call(world.broker, "POST", pathOf(pending.url), { body: { decision: "approve" }, headers: json }), 403, "forbidden");
      const huge = await pressOnApprovalPage(world.broker, view, pending.url, { decision: "approve", page_token: "x".repeat(20_000) }, json);
      expect(huge.status).toBe(413);
      expect(await statusOf(pending.approval_id)).toBe("pending");
    });

    it("never writes a link into the logs", () => {
      const token = pathOf(pending.url).split("/")[2]!;
      expect(world.broker.logs.filter((line) => line.includes(token))).toEqual([]);
      expect(world.broker.logs.some((line) => line.includes("/approve/…"))).toBe(true);
    });

    it("refuses an expired link (410 approval_link_expired) and decides nothing", async () => {
      const view = await openApprovalPage(world.broker, pending.url);
      clock.advance(3601 * 1000);
      expectError(await call(world.broker, "GET", pathOf(pending.url)), 410, "approval_link_expired");
      expectError(await pressOnApprovalPage(world.broker, view, pending.url, { decision: "approve" }, { accept: "application/json" }), 410, "approval_link_expired");
      expect((await approvalRow(pending.approval_id)).status).toBe("pending");
    });
  });
});
