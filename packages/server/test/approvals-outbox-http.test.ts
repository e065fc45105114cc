/**
 * The approval outbox seen over HTTP: an approval the sweeper expired answers the agent's continue
 * and re-execute with approval_expired (GitHub never called), and an approval shows how its
 * channel deliveries fared, to its own tenant only.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import { continueInvocation, createScmTenant, deleteCalls, deletion, execute, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";

const TTL_SECONDS = 600;
const RULE = { id: "deletes-by-email", effect: "require_approval", tools: ["scm.delete_repository"], approval: { ttl_seconds: TTL_SECONDS, channels: ["email"] } };

describeEachDatabase("the approval outbox over HTTP", (kind) => {
  const clock = manualClock();
  let world: ScmWorld;

  beforeAll(async () => {
    // The loop is driven by hand (runOnce) so each step happens at a known time on the fake clock.
    world = await startScmWorld(kind, { clock, env: { BROKER_APPROVAL_WORKER: "false" } });
  });
  afterAll(() => world?.close());

  const approvalOf = (tenant: ScmTenant, id: string) => call(world.broker, "GET", `/v1/approvals/${id}`, asOperator(tenant));

  it("answers continue and re-execute with approval_expired once the sweeper expired the approval", async () => {
    const tenant = await createScmTenant(world, "Swept");
    await putPolicy(world.broker, tenant, [RULE]);
    const { approval_id, invocation_id, expires_at } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    expect(expires_at).toBe(new Date(clock.now().getTime() + TTL_SECONDS * 1000).toISOString());
    clock.advance(TTL_SECONDS * 1000);
    await world.broker.services.approvalOutbox.runOnce();
    const token = await mintBrokerToken(world.broker, tenant);

    expect((await world.broker.services.approvalQueries.findById(approval_id))?.status).toBe("expired");
    expectError(await continueInvocation(world.broker, token, invocation_id), 409, "approval_expired");
    expectError(await execute(world.broker, { ...deletion({ ...tenant, token }, "hello-world"), approvalId: approval_id }), 409, "approval_expired");
    expect(deleteCalls(world, tenant, "hello-world")).toBe(0);
  });

  it("shows an approval's channel deliveries, and another tenant gets 404", async () => {
    const tenant = await createScmTenant(world, "Delivered");
    await putPolicy(world.broker, tenant, [RULE]);
    const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    await world.broker.services.approvalOutbox.runOnce();

    const shown = await approvalOf(tenant, approval_id);
    expect(shown.status, shown.text).toBe(200);
    // This broker has no email channel (no SMTP): the delivery waits for its retry, saying why.
    expect(shown.body.deliveries).toEqual([
      {
        channel: "email",
        purpose: "request",
        status: "pending",
        attempts: 1,
        last_error: "no email channel is configured on this broker",
        next_attempt_at: expect.any(String),
        sent_at: null,
      },
    ]);
    const listed = await call(world.broker, "GET", "/v1/approvals", asOperator(tenant));
    expect(listed.body.data.find((approval: { approval_id: string }) => approval.approval_id === approval_id).deliveries).toHaveLength(1);

    const other = await createScmTenant(world, "Other");
    expectError(await approvalOf(other, approval_id), 404, "not_found");
  });
});
