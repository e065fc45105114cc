import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";
import { approvedDeletion, continueInvocation, createScmTenant, execute, startScmWorld, type ScmWorld } from "./support/approvals.js";

describeEachDatabase("billing from real executions", (kind) => {
  let world: ScmWorld;
  beforeAll(async () => {
    world = await startScmWorld(kind);
  });
  afterAll(() => world.close());

  it("counts each execution that reached the upstream once: replays, continues, failures before the upstream and connects do not count", async () => {
    const tenant = await createScmTenant(world);
    const whoAmI = { token: tenant.token, tool: "scm.get_authenticated_user", args: {}, connectionId: tenant.connectionId };

    // 1 and 2: two plain executions.
    expect((await execute(world.broker, whoAmI)).status).toBe(200);
    expect((await execute(world.broker, whoAmI)).status).toBe(200);
    // 3: an idempotent execution, replayed twice.
    const keyed = { ...whoAmI, extra: { idempotency_key: "billing-once" } };
    expect((await execute(world.broker, keyed)).status).toBe(200);
    const replay = await execute(world.broker, keyed);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    await execute(world.broker, keyed);
    // Not counted: invalid arguments, and a call waiting for approval.
    expect((await execute(world.broker, { ...whoAmI, args: { unexpected: true } })).status).toBe(422);
    // 4: an approved deletion, continued three times.
    const pending = await approvedDeletion(world, tenant, "hello-world");
    for (let i = 0; i < 3; i++) expect((await continueInvocation(world.broker, tenant.token, pending.invocation_id)).status).toBe(200);

    const usage = await call(world.broker, "GET", "/v1/usage", asOperator(tenant));
    expect(usage.body.total).toBe(4);

    const status = await call(world.broker, "GET", "/v1/billing/status", asOperator(tenant));
    expect(status.status, status.text).toBe(200);
    expect(status.body.usage.executions).toBe(4);
    expect(status.body.usage.by_env).toEqual({ test: 4, live: 0 });

    const invoice = await call(world.broker, "POST", "/v1/billing/invoice-preview", { ...asOperator(tenant), body: {} });
    expect(invoice.status, invoice.text).toBe(200);
    expect(invoice.body.usage.executions).toBe(4);
    expect(invoice.body.total).toBe(0);
    expect(invoice.body.livemode).toBe(false);
    expect(invoice.body.customer_notice).toMatch(/4 /);
  });
});
