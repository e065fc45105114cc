/**
 * Approvals expire (BROKER_APPROVAL_TTL_SECONDS, here one hour) on the broker's injected clock:
 * an expired approval can be neither decided nor used, whether it was still pending or approved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { asOperator, call, mintBrokerToken } from "./support/http.js";
import {
  continueInvocation,
  createScmTenant,
  decide,
  deleteCalls,
  deletion,
  execute,
  requestApproval,
  startScmWorld,
  type ScmTenant,
  type ScmWorld,
} from "./support/approvals.js";

const TTL_SECONDS = 3600;

describeEachDatabase("approval expiry", (kind) => {
  const clock = manualClock();
  let world: ScmWorld;

  beforeAll(async () => {
    world = await startScmWorld(kind, { clock, env: { BROKER_APPROVAL_TTL_SECONDS: String(TTL_SECONDS) } });
  });
  afterAll(() => world.close());

  /** Moves the clock on; the broker JWT (15 minutes) is minted again on the new time. */
  async function later(tenant: ScmTenant, seconds: number): Promise<ScmTenant> {
    clock.advance(seconds * 1000);
    return { ...tenant, token: await mintBrokerToken(world.broker, tenant) };
  }

  const approvalOf = async (tenant: ScmTenant, id: string) => (await call(world.broker, "GET", `/v1/approvals/${id}`, asOperator(tenant))).body;

  it("sets expires_at to the request time plus BROKER_APPROVAL_TTL_SECONDS", async () => {
    const tenant = await createScmTenant(world, "Ttl");
    const { approval_id, expires_at } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
    const approval = await approvalOf(tenant, approval_id);
    expect(approval.requested_at).toBe(clock.now().toISOString());
    expect(expires_at).toBe(new Date(clock.now().getTime() + TTL_SECONDS * 1000).toISOString());
    expect(approval.expires_at).toBe(expires_at);
  });

  describe("a pending approval past its expiry", () => {
    it("shows as expired and leaves the pending list", async () => {
      const tenant = await createScmTenant(world, "Lapsed list");
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      await later(tenant, TTL_SECONDS);
      expect((await approvalOf(tenant, approval_id)).status).toBe("expired");
      expect((await call(world.broker, "GET", "/v1/approvals", asOperator(tenant))).body.data).toEqual([]);
    });

    it("cannot be decided any more: 409 approval_expired", async () => {
      const tenant = await createScmTenant(world, "Lapsed decide");
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      await later(tenant, TTL_SECONDS + 1);
      expectError(await decide(world.broker, tenant, approval_id, "approve"), 409, "approval_expired");
      expect((await approvalOf(tenant, approval_id)).decision).toBeNull();
    });

    it("answers continue and re-execute with 409 approval_expired, and GitHub is never called", async () => {
      const tenant = await createScmTenant(world, "Lapsed use");
      const { approval_id, invocation_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const now = await later(tenant, TTL_SECONDS + 1);
      expectError(await continueInvocation(world.broker, now.token, invocation_id), 409, "approval_expired");
      expectError(await execute(world.broker, { ...deletion(now, "hello-world"), approvalId: approval_id }), 409, "approval_expired");
      expect(deleteCalls(world, tenant, "hello-world")).toBe(0);
    });
  });

  describe("an approved approval not used before its expiry", () => {
    it("answers continue and re-execute with 409 approval_expired, and GitHub is never called", async () => {
      const tenant = await createScmTenant(world, "Approved too late");
      const { approval_id, invocation_id } = await requestApproval(world.broker, deletion(tenant, "spoon-knife"));
      expect((await decide(world.broker, tenant, approval_id, "approve")).status).toBe(200);
      const now = await later(tenant, TTL_SECONDS);
      expectError(await continueInvocation(world.broker, now.token, invocation_id), 409, "approval_expired");
      expectError(await execute(world.broker, { ...deletion(now, "spoon-knife"), approvalId: approval_id }), 409, "approval_expired");
      expect(deleteCalls(world, tenant, "spoon-knife")).toBe(0);
    });
  });

  it("still lets an approval be decided and used one second before it expires", async () => {
    const tenant = await createScmTenant(world, "Just in time");
    const { approval_id, invocation_id } = await requestApproval(world.broker, deletion(tenant, "private-notes"));
    const now = await later(tenant, TTL_SECONDS - 1);
    expect((await decide(world.broker, tenant, approval_id, "approve")).status).toBe(200);
    const result = await continueInvocation(world.broker, now.token, invocation_id);
    expect(result.status, result.text).toBe(200);
    expect(deleteCalls(world, tenant, "private-notes")).toBe(1);
  });
});
