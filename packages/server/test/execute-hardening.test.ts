/**
 * Edges of the execute contract: JSON bodies are validated as sent (never coerced), an upstream
 * slower than BROKER_UPSTREAM_TIMEOUT_MS fails as upstream_error, and an idempotency key whose
 * first request died mid-flight is not stuck for 24 hours.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { IN_PROGRESS_STALE_MS } from "../src/invocations/idempotency.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { connect, execute, startToolWorld, type ToolWorld } from "./support/tool-execution.js";

describeEachDatabase("execute edges", (kind) => {
  const clock = manualClock(new Date());
  let world: ToolWorld;
  let scm: string;
  beforeAll(async () => {
    world = await startToolWorld(kind, { clock, env: { BROKER_UPSTREAM_TIMEOUT_MS: "300" } });
    scm = await connect(world, "scm");
  });
  afterAll(() => world.close());

  const whoAmI = { tool_name: "scm.get_authenticated_user" };

  it("refuses an empty idempotency_key instead of treating it as no key", async () => {
    const result = await execute(world.broker, world.jwt, { ...whoAmI, connected_account_id: scm, idempotency_key: "" });
    expectError(result, 422, "invalid_request");
    expect(result.body.error.details.fields.map((f: { field: string }) => f.field)).toContain("/idempotency_key");
  });

  it("refuses a tool_name that is not a string instead of coercing it", async () => {
    const result = await execute(world.broker, world.jwt, { ...whoAmI, connected_account_id: scm, tool_name: 123 as unknown as string });
    expectError(result, 422, "invalid_request");
  });

  it("fails a call whose upstream answers after BROKER_UPSTREAM_TIMEOUT_MS with 502 upstream_error (timeout)", async () => {
    world.fakes.github.setApiDelay(1000);
    try {
      const result = await execute(world.broker, world.jwt, { ...whoAmI, connected_account_id: scm });
      expectError(result, 502, "upstream_error");
      expect(result.body.error.details.reason).toBe("timeout");
    } finally {
      world.fakes.github.setApiDelay(0);
    }
  });

  it("takes over an idempotency key whose first request never finished, once it is stale", async () => {
    const key = "abandoned-key";
    const claimedAt = clock.now();
    await world.broker.runtime.store.db
      .insertInto("idempotency_keys")
      .values({
        tenant_id: world.tenant.tenantId,
        env: "test",
        agent_app_id: world.tenant.agentAppId,
        key,
        request_fingerprint: "from a process that died",
        status: "in_progress",
        invocation_id: "00000000-0000-4000-8000-000000000000",
        response_status: null,
        response_sealed: null,
        created_at: claimedAt.toISOString(),
        expires_at: new Date(claimedAt.getTime() + 86_400_000).toISOString(),
      })
      .execute();
    const request = { ...whoAmI, connected_account_id: scm, idempotency_key: key };
    expectError(await execute(world.broker, world.jwt, request), 409, "idempotency_key_reused");
    clock.advance(IN_PROGRESS_STALE_MS + 1000);
    // The broker JWT (15 min) outlives the 5-minute staleness bound.
    const result = await execute(world.broker, world.jwt, request);
    expect(result.status, result.text).toBe(200);
  });
});
