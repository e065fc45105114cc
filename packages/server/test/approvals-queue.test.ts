/**
 * The approval queue: a call that needs a human is held (409 approval_required), listed for
 * operators, and decided once. Continue and re-execute are in approvals-continue.test.ts.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call } from "./support/http.js";
import {
  createScmTenant,
  decide,
  deletion,
  execute,
  outboxEvents,
  requestApproval,
  startScmWorld,
  type ScmTenant,
  type ScmWorld,
} from "./support/approvals.js";

const DAY_MS = 24 * 60 * 60 * 1000;

describeEachDatabase("approvals queue", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;
  let other: ScmTenant;
  let viewer: { token: string; tenant: string };

  beforeAll(async () => {
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world, "Acme");
    other = await createScmTenant(world, "Other");
    const issuer = world.broker.runtime.developmentIssuer!;
    await world.broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject: "approvals-viewer", role: "viewer" }, "test");
    viewer = { token: await issuer.issue("approvals-viewer"), tenant: tenant.tenantId };
  });
  afterAll(() => world.close());

  describe("authentication and tenant isolation", () => {
    it("refuses the approval routes without an operator session (401), including broker JWTs; a control key reads but never decides", async () => {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const body = { decision: "approve" };
      for (const token of [undefined, tenant.testKey, tenant.token]) {
        const auth = token ? { token } : {};
        // The customer's backend reads approvals with its control key (approvals-end-user-link-readers.test.ts).
        if (token !== tenant.testKey) {
          expectError(await call(world.broker, "GET", "/v1/approvals", auth), 401, "unauthorized");
          expectError(await call(world.broker, "GET", `/v1/approvals/${approval_id}`, auth), 401, "unauthorized");
        }
        expectError(await call(world.broker, "POST", `/v1/approvals/${approval_id}/decide`, { ...auth, body }), 401, "unauthorized");
      }
    });

    it("lets a viewer read approvals but not decide one its rule gives to the admins (403 approval_not_eligible)", async () => {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      expect((await call(world.broker, "GET", "/v1/approvals", viewer)).status).toBe(200);
      expect((await call(world.broker, "GET", `/v1/approvals/${approval_id}`, viewer)).status).toBe(200);
      expectError(await call(world.broker, "POST", `/v1/approvals/${approval_id}/decide`, { ...viewer, body: { decision: "approve" } }), 403, "approval_not_eligible");
      expect((await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(tenant))).body.status).toBe("pending");
    });

    it("neither lists, shows nor lets another tenant decide an approval: 404, and it stays pending", async () => {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const listed = await call(world.broker, "GET", "/v1/approvals?limit=200", asOperator(other));
      expect(listed.body.data.map((a: { approval_id: string }) => a.approval_id)).not.toContain(approval_id);
      expectError(await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(other)), 404, "not_found");
      expectError(await decide(world.broker, other, approval_id, "approve"), 404, "not_found");
      expect((await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(tenant))).body.status).toBe("pending");
    });

    it("answers 404 for an approval id that does not exist", async () => {
      expectError(await call(world.broker, "GET", `/v1/approvals/${randomUUID()}`, asOperator(tenant)), 404, "not_found");
      expectError(await decide(world.broker, tenant, randomUUID(), "approve"), 404, "not_found");
    });
  });

  describe("a high-risk call without approval_id", () => {
    it("answers 409 approval_required with approval_id, invocation_id and expires_at 24 hours on, without calling GitHub", async () => {
      const before = world.github.stats.apiCalls.length;
      const result = await execute(world.broker, deletion(tenant, "hello-world"));
      expectError(result, 409, "approval_required");
      const { approval_id, invocation_id, expires_at } = result.body.error.details;
      expect(approval_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(invocation_id).toMatch(/^[0-9a-f-]{36}$/);
      const approval = await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(tenant));
      expect(approval.body).toMatchObject({ status: "pending", invocation_id, expires_at });
      expect(Date.parse(expires_at) - Date.parse(approval.body.requested_at)).toBe(DAY_MS);
      expect(world.github.stats.apiCalls.length).toBe(before);
    });

    it("stores the invocation as awaiting_approval, its arguments sealed rather than in plain text", async () => {
      const { invocation_id } = await requestApproval(world.broker, deletion(tenant, "spoon-knife"));
      const shown = await call(world.broker, "GET", `/v1/tools/invocations/${invocation_id}`, { token: tenant.token });
      expect(shown.body).toMatchObject({ invocation_id, status: "awaiting_approval", tool_name: "scm.delete_repository" });
      const row = await world.broker.services.store.db.selectFrom("invocations").selectAll().where("id", "=", invocation_id).executeTakeFirstOrThrow();
      expect(row.arguments_sealed).toBeTruthy();
      expect(row.arguments_sealed).not.toContain("spoon-knife");
      expect(row.arguments_sealed).not.toContain(tenant.owner);
      expect(await world.broker.services.seals.openArguments({ tenantId: row.tenant_id, id: row.id, argumentsSealed: row.arguments_sealed })).toEqual({ owner: tenant.owner, repo: "spoon-knife" });
    });

    it("emits approval.requested through the events table", async () => {
      const { approval_id, invocation_id, expires_at } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const events = await outboxEvents(world.broker, tenant.tenantId, "approval.requested");
      const event = events.find((e) => e.data.approval_id === approval_id);
      expect(event?.data).toEqual({ approval_id, invocation_id, tool_name: "scm.delete_repository", agent_app_id: tenant.agentAppId, end_user_id: null, env: "test", expires_at, end_user_url: null });
      expect(await outboxEvents(world.broker, other.tenantId, "approval.requested")).not.toContainEqual(expect.objectContaining({ data: expect.objectContaining({ approval_id }) }));
    });
  });

  describe("listing and reading", () => {
    it("lists a pending approval with tool, provider, agent app, env, arguments, requested_at and expires_at", async () => {
      const fresh = await createScmTenant(world, "Lister");
      const { approval_id, invocation_id, expires_at } = await requestApproval(world.broker, deletion(fresh, "hello-world"));
      const listed = await call(world.broker, "GET", "/v1/approvals", asOperator(fresh));
      expect(listed.status).toBe(200);
      expect(listed.body.next_cursor).toBeNull();
      expect(listed.body.data).toHaveLength(1);
      expect(listed.body.data[0]).toMatchObject({
        approval_id,
        invocation_id,
        status: "pending",
        tool_name: "scm.delete_repository",
        provider: "scm",
        agent_app_id: fresh.agentAppId,
        env: "test",
        connected_account_id: fresh.connectionId,
        arguments: { owner: fresh.owner, repo: "hello-world" },
        rule_id: null,
        expires_at,
        decision: null,
      });
      expect(Date.parse(listed.body.data[0].requested_at)).toBeLessThan(Date.parse(expires_at));
      const one = await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(fresh));
      expect(one.body).toEqual(listed.body.data[0]);
    });

    it("pages through pending approvals oldest first with a cursor, and leaves decided ones out", async () => {
      const fresh = await createScmTenant(world, "Pager");
      const ids: string[] = [];
      for (const repo of ["hello-world", "spoon-knife", "private-notes", "hello-world"]) ids.push((await requestApproval(world.broker, deletion(fresh, repo))).approval_id);
      expect((await decide(world.broker, fresh, ids[3]!, "deny")).status).toBe(200);

      const first = await call(world.broker, "GET", "/v1/approvals?limit=2", asOperator(fresh));
      expect(first.body.data.map((a: { approval_id: string }) => a.approval_id)).toEqual(ids.slice(0, 2));
      expect(first.body.next_cursor).toEqual(expect.any(String));
      const second = await call(world.broker, "GET", `/v1/approvals?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, asOperator(fresh));
      expect(second.body.data.map((a: { approval_id: string }) => a.approval_id)).toEqual([ids[2]]);
      expect(second.body.next_cursor).toBeNull();
    });
  });

  describe("deciding", () => {
    it("records an approval with the decider and the time, and audits it", async () => {
      const { approval_id, invocation_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const result = await decide(world.broker, tenant, approval_id, "approve", "looks right");
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ approval_id, status: "approved", decision: { decision: "approve", decided_by: expect.any(String), reason: "looks right" } });
      expect(Date.parse(result.body.decision.decided_at)).not.toBeNaN();
      const audit = await call(world.broker, "GET", "/v1/audit?action=approval.decided&limit=200", asOperator(tenant));
      const entry = audit.body.data.find((e: { target: { id: string } }) => e.target.id === approval_id);
      expect(entry).toMatchObject({ actor: { type: "operator", id: result.body.decision.decided_by }, outcome: "success", data: { decision: "approve", invocation_id, reason: "looks right" } });
    });

    it("records a denial, and emits approval.decided for both decisions", async () => {
      const approved = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const denied = await requestApproval(world.broker, deletion(tenant, "spoon-knife"));
      await decide(world.broker, tenant, approved.approval_id, "approve");
      const result = await decide(world.broker, tenant, denied.approval_id, "deny", "not today");
      expect(result.body).toMatchObject({ status: "denied", decision: { decision: "deny", reason: "not today" } });

      const events = await outboxEvents(world.broker, tenant.tenantId, "approval.decided");
      const byApproval = (id: string) => events.find((e) => e.data.approval_id === id)?.data;
      expect(byApproval(approved.approval_id)).toMatchObject({ invocation_id: approved.invocation_id, tool_name: "scm.delete_repository", decision: "approve" });
      expect(byApproval(denied.approval_id)).toMatchObject({ invocation_id: denied.invocation_id, decision: "deny", decided_by: result.body.decision.decided_by });
    });

    it("refuses to decide an approval twice (409 approval_already_decided) and keeps the first decision", async () => {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      await decide(world.broker, tenant, approval_id, "deny");
      expectError(await decide(world.broker, tenant, approval_id, "approve"), 409, "approval_already_decided");
      expectError(await decide(world.broker, tenant, approval_id, "deny"), 409, "approval_already_decided");
      expect((await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(tenant))).body.status).toBe("denied");
      const events = await outboxEvents(world.broker, tenant.tenantId, "approval.decided");
      expect(events.filter((e) => e.data.approval_id === approval_id)).toHaveLength(1);
    });

    it("lets exactly one of several concurrent decisions win", async () => {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const results = await Promise.all(Array.from({ length: 5 }, (_, i) => decide(world.broker, tenant, approval_id, i % 2 ? "deny" : "approve")));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const loser of results.filter((r) => r.status !== 200)) expectError(loser, 409, "approval_already_decided");
    });

    it("validates the decision body (400 for an unknown decision)", async () => {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const result = await call(world.broker, "POST", `/v1/approvals/${approval_id}/decide`, { ...asOperator(tenant), body: { decision: "maybe" } });
      expect(result.status).toBe(400);
      expect((await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(tenant))).body.status).toBe("pending");
    });
  });
});
