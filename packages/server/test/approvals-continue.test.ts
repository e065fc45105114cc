/**
 * After a human decision: continue (POST /v1/tools/invocations/{id}/continue) or re-execute with
 * approval_id. An approved call runs exactly once against the fake GitHub; a denied one never.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, startBroker } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import {
  approvedDeletion,
  continueInvocation,
  createScmTenant,
  decide,
  deleteCalls,
  deletion,
  execute,
  repoExists,
  requestApproval,
  startScmWorld,
  type ScmTenant,
  type ScmWorld,
} from "./support/approvals.js";

describeEachDatabase("continue and re-execute after approval", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;

  beforeAll(async () => {
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world, "Acme");
  });
  afterAll(() => world.close());

  describe("credentials and visibility", () => {
    it("refuses continue without a credential or with an operator session (401)", async () => {
      const { invocation_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      expectError(await call(world.broker, "POST", `/v1/tools/invocations/${invocation_id}/continue`), 401, "unauthorized");
      expectError(await call(world.broker, "POST", `/v1/tools/invocations/${invocation_id}/continue`, asOperator(tenant)), 401, "unauthorized");
    });

    it("hides the invocation from another tenant and from an unknown id (404)", async () => {
      const other = await createScmTenant(world, "Other");
      const { invocation_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      expectError(await continueInvocation(world.broker, other.token, invocation_id), 404, "not_found");
      expectError(await continueInvocation(world.broker, other.testKey, invocation_id), 404, "not_found");
      expectError(await continueInvocation(world.broker, tenant.token, randomUUID()), 404, "not_found");
    });

    it("accepts the tenant's control key of the same env as well as the agent app's broker JWT", async () => {
      const fresh = await createScmTenant(world, "Keyholder");
      const { invocation_id } = await approvedDeletion(world, fresh, "hello-world");
      const result = await continueInvocation(world.broker, fresh.testKey, invocation_id);
      expect(result.status, result.text).toBe(200);
      expect(await repoExists(world, fresh, "hello-world")).toBe(false);
      expectError(await continueInvocation(world.broker, fresh.liveKey, invocation_id), 404, "not_found");
    });
  });

  describe("approve → continue", () => {
    it("answers 409 approval_pending while nobody has decided, and calls nothing upstream", async () => {
      const { invocation_id, approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const result = await continueInvocation(world.broker, tenant.token, invocation_id);
      expectError(result, 409, "approval_pending");
      expect(result.body.error.details).toMatchObject({ approval_id, invocation_id });
      expect(deleteCalls(world, tenant, "hello-world")).toBe(0);
    });

    it("runs the stored call once when approved: the repository is really deleted", async () => {
      const fresh = await createScmTenant(world, "Deleter");
      const { invocation_id, approval_id } = await approvedDeletion(world, fresh, "spoon-knife");
      expect(await repoExists(world, fresh, "spoon-knife")).toBe(true);

      const result = await continueInvocation(world.broker, fresh.token, invocation_id);
      expect(result.status, result.text).toBe(200);
      expect(result.body).toEqual({ invocation_id, result: expect.anything(), approval: { approval_id, edited: false, changes: [] } });
      expect(deleteCalls(world, fresh, "spoon-knife")).toBe(1);
      expect(await repoExists(world, fresh, "spoon-knife")).toBe(false);
      const shown = await call(world.broker, "GET", `/v1/tools/invocations/${invocation_id}`, { token: fresh.token });
      expect(shown.body).toMatchObject({ status: "succeeded", upstream_status: 204, approval_id });
    });

    it("returns the same stored result on a second continue, without a second upstream call", async () => {
      const fresh = await createScmTenant(world, "Twice");
      const { invocation_id, approval_id } = await approvedDeletion(world, fresh, "hello-world");
      const first = await continueInvocation(world.broker, fresh.token, invocation_id);
      const second = await continueInvocation(world.broker, fresh.token, invocation_id);
      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(deleteCalls(world, fresh, "hello-world")).toBe(1);
      const approval = await call(world.broker, "GET", `/v1/approvals/${approval_id}`, asOperator(fresh));
      expect(approval.body).toMatchObject({ status: "consumed", consumed_at: expect.any(String) });
    });

    it("runs the call exactly once when ten continues race", async () => {
      const fresh = await createScmTenant(world, "Racers");
      const { invocation_id } = await approvedDeletion(world, fresh, "hello-world");
      world.github.setApiDelay(100);
      try {
        const results = await Promise.all(Array.from({ length: 10 }, () => continueInvocation(world.broker, fresh.token, invocation_id)));
        for (const result of results) {
          if (result.status !== 200) expectError(result, 409, "request_in_progress");
        }
        expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
      } finally {
        world.github.setApiDelay(0);
      }
      expect(deleteCalls(world, fresh, "hello-world")).toBe(1);
      const after = await continueInvocation(world.broker, fresh.token, invocation_id);
      expect(after.body).toMatchObject({ invocation_id });
    });
  });

  describe("approve → re-execute with approval_id", () => {
    it("runs the approved call as the invocation that asked for it, once", async () => {
      const fresh = await createScmTenant(world, "Reexecutor");
      const { invocation_id, approval_id } = await approvedDeletion(world, fresh, "hello-world");
      const result = await execute(world.broker, { ...deletion(fresh, "hello-world"), approvalId: approval_id });
      expect(result.status, result.text).toBe(200);
      expect(result.body.invocation_id).toBe(invocation_id);
      expect(deleteCalls(world, fresh, "hello-world")).toBe(1);
      expect(await repoExists(world, fresh, "hello-world")).toBe(false);

      expectError(await execute(world.broker, { ...deletion(fresh, "hello-world"), approvalId: approval_id }), 409, "approval_already_used");
      const resumed = await continueInvocation(world.broker, fresh.token, invocation_id);
      expect(resumed.body).toEqual(result.body);
      expect(deleteCalls(world, fresh, "hello-world")).toBe(1);
    });

    it("lets exactly one of ten concurrent re-executions run; the others hear approval_already_used", async () => {
      const fresh = await createScmTenant(world, "Stampede");
      const { approval_id } = await approvedDeletion(world, fresh, "spoon-knife");
      world.github.setApiDelay(100);
      let results;
      try {
        results = await Promise.all(Array.from({ length: 10 }, () => execute(world.broker, { ...deletion(fresh, "spoon-knife"), approvalId: approval_id })));
      } finally {
        world.github.setApiDelay(0);
      }
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const loser of results.filter((r) => r.status !== 200)) expectError(loser, 409, "approval_already_used");
      expect(deleteCalls(world, fresh, "spoon-knife")).toBe(1);
    });

    it("answers 409 approval_pending for an approval nobody decided yet", async () => {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      expectError(await execute(world.broker, { ...deletion(tenant, "hello-world"), approvalId: approval_id }), 409, "approval_pending");
      expect(deleteCalls(world, tenant, "hello-world")).toBe(0);
    });
  });

  describe("deny", () => {
    it("answers 403 policy_denied to continue and to re-execute, and never calls GitHub", async () => {
      const { invocation_id, approval_id } = await requestApproval(world.broker, deletion(tenant, "private-notes"));
      await decide(world.broker, tenant, approval_id, "deny", "no deletions this week");
      expectError(await continueInvocation(world.broker, tenant.token, invocation_id), 403, "policy_denied");
      expectError(await continueInvocation(world.broker, tenant.token, invocation_id), 403, "policy_denied");
      expectError(await execute(world.broker, { ...deletion(tenant, "private-notes"), approvalId: approval_id }), 403, "policy_denied");
      expect(deleteCalls(world, tenant, "private-notes")).toBe(0);
      const shown = await call(world.broker, "GET", `/v1/tools/invocations/${invocation_id}`, { token: tenant.token });
      expect(shown.body).toMatchObject({ status: "denied", error_code: "policy_denied" });
    });

    it("says the approver's reason in the message and details.reason, on every continue and re-execute (issue 41, item 7)", async () => {
      const { invocation_id, approval_id } = await requestApproval(world.broker, deletion(tenant, "spoon-knife"));
      await decide(world.broker, tenant, approval_id, "deny", "no deletions this week");
      const answers = [
        await continueInvocation(world.broker, tenant.token, invocation_id),
        await continueInvocation(world.broker, tenant.token, invocation_id),
        await execute(world.broker, { ...deletion(tenant, "spoon-knife"), approvalId: approval_id }),
      ];
      for (const answer of answers) {
        expectError(answer, 403, "policy_denied");
        expect(answer.body.error.message).toBe("an approver denied this call: no deletions this week");
        expect(answer.body.error.details).toMatchObject({ approval_id, reason: "no deletions this week" });
      }
    });
  });
});

describeEachDatabase("continue rate limit", (kind) => {
  it("counts continues in the same per-agent-app budget as execute (429 rate_limited)", async () => {
    const broker = await startBroker(kind, { env: { BROKER_RATE_LIMIT_EXECUTE: "2" } });
    try {
      const tenant = await createTenant(broker);
      const token = await mintBrokerToken(broker, tenant);
      expectError(await continueInvocation(broker, token, randomUUID()), 404, "not_found");
      expectError(await execute(broker, { token, tool: "scm.get_authenticated_user", args: {} }), 422, "credential_required");
      const limited = await continueInvocation(broker, token, randomUUID());
      expectError(limited, 429, "rate_limited");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await broker.close();
    }
  });
});
