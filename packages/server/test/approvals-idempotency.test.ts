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

  it("refuses to continue a call whose key another call took while it waited (409 idempotency_key_reused), leaving its approval unused", async () => {
    const other = await createScmTenant(world, "Twice asked");
    const request = { token: other.token, tool: "scm.delete_repository", args: { owner: other.owner, repo: "hello-world" }, connectionId: other.connectionId, extra: { idempotency_key: "asked-twice" } };
    // Asking for an approval releases the key, so the same request asks again.
    const first = (await execute(world.broker, request)).body.error.details;
    const second = (await execute(world.broker, request)).body.error.details;
    expect(second.approval_id).not.toBe(first.approval_id);
    for (const { approval_id } of [first, second]) expect((await decide(world.broker, other, approval_id, "approve")).status).toBe(200);

    const ran = await continueInvocation(world.broker, other.token, second.invocation_id);
    expect(ran.status, ran.text).toBe(200);
    const refused = await continueInvocation(world.broker, other.token, first.invocation_id);
    expectError(refused, 409, "idempotency_key_reused");
    expect(refused.body.error.details).toMatchObject({ idempotency_key: "asked-twice", invocation_id: second.invocation_id });
    expect(deleteCalls(world, other, "hello-world")).toBe(1);
    const unused = await world.broker.services.approvals.get(other.tenantId, first.approval_id);
    expect({ status: unused.status, consumed_at: unused.consumedAt }).toEqual({ status: "approved", consumed_at: null });
    const replayed = await execute(world.broker, request);
    expect(replayed.body).toEqual(ran.body);
  });
});
