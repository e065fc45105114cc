/**
 * An approved call's outcome is kept under the idempotency key of the request that asked for it:
 * execute(K) → approval_required → approve → continue, then execute(K) with the identical request
 * replays that outcome (no new approval, no second write); another request under K is refused.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { continueInvocation, createScmTenant, decide, deleteCalls, execute, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";

describeEachDatabase("an approved call under an idempotency key", (kind) => {
  let world: ScmWorld;
  let tenant: ScmTenant;

  beforeAll(async () => {
    world = await startScmWorld(kind);
    tenant = await createScmTenant(world, "Keyed approvals");
  });
  afterAll(() => world.close());

  const approvalsOf = () => world.broker.services.store.db.selectFrom("approvals").select("id").where("tenant_id", "=", tenant.tenantId).execute();

  it("replays the continued call's outcome for the same key and request, and refuses another request under the key", async () => {
    const key = `approved-${randomUUID()}`;
    const request = { token: tenant.token, tool: "scm.delete_repository", args: { owner: tenant.owner, repo: "spoon-knife" }, connectionId: tenant.connectionId, extra: { idempotency_key: key } };
    const asked = await execute(world.broker, request);
    expectError(asked, 409, "approval_required");
    const { approval_id, invocation_id } = asked.body.error.details;
    expect((await decide(world.broker, tenant, approval_id, "approve")).status).toBe(200);

    const continued = await continueInvocation(world.broker, tenant.token, invocation_id);
    expect(continued.status, continued.text).toBe(200);
    expect(deleteCalls(world, tenant, "spoon-knife")).toBe(1);

    const replayed = await execute(world.broker, request);
    expect(replayed.status, replayed.text).toBe(200);
    expect(replayed.body).toEqual(continued.body);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(deleteCalls(world, tenant, "spoon-knife")).toBe(1);
    expect(await approvalsOf()).toHaveLength(1);

    const other = await execute(world.broker, { ...request, args: { owner: tenant.owner, repo: "hello-world" } });
    expectError(other, 409, "idempotency_key_reused");
    expect(deleteCalls(world, tenant, "hello-world")).toBe(0);
    expect(await approvalsOf()).toHaveLength(1);
  });
});
