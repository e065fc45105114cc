/**
 * An approved call survives a broker crash without being sent twice or hanging. Consuming the
 * approval and marking the call `sending` are one step, so a broker killed with SIGKILL while the
 * provider holds the approved write leaves a call that answers 409 request_in_progress while it
 * might still be running, then 409 outcome_unknown (audited once) once the takeover window has
 * passed: to continue and to execute with the same idempotency key alike, with no new approval and
 * no second write. A re-execute carrying `approval_id` starts the same way.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { IN_PROGRESS_STALE_MS } from "../src/invocations/idempotency.js";
import { continueInvocation, decide, type PendingApproval } from "./support/approvals.js";
import { asTestBroker, startSiblingProcess, type BrokerProcess } from "./support/broker-process.js";
import { describeEachDatabase } from "./support/databases.js";
import { expectError } from "./support/expect.js";
import { connect, execute, startToolWorld, tenantRows, type ExecuteRequest, type ToolWorld } from "./support/tool-execution.js";

async function waitFor(probe: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describeEachDatabase("an approved call across a broker crash", (kind) => {
  const clock = manualClock(new Date());
  let world: ToolWorld;
  let scm: string;
  let doomed: BrokerProcess;

  beforeAll(async () => {
    world = await startToolWorld(kind, { clock });
    scm = await connect(world, "scm");
    doomed = await startSiblingProcess(world.broker.config, world.fakes.github.env);
  });
  afterAll(async () => {
    await doomed?.stop();
    await world.close();
  });

  const deletes = () => world.fakes.github.stats.apiCalls.filter((c) => c.method === "DELETE").length;
  const approvals = () => world.broker.services.store.db.selectFrom("approvals").select("id").where("tenant_id", "=", world.tenant.tenantId).execute();

  async function approved(request: ExecuteRequest): Promise<PendingApproval> {
    const asked = await execute(world.broker, world.jwt, request);
    expectError(asked, 409, "approval_required");
    const pending = asked.body.error.details as PendingApproval;
    const decided = await decide(world.broker, world.tenant, pending.approval_id, "approve");
    expect(decided.status, decided.text).toBe(200);
    return pending;
  }

  it("answers outcome_unknown after the takeover window, to continue and to the same key, and never sends the write again", async () => {
    const key = `crash-approved-${randomUUID()}`;
    const keyed = { tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "hello-world" }, connected_account_id: scm, idempotency_key: key };
    const unkeyed = { tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "private-notes" }, connected_account_id: scm };
    const reexecuted = { tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "spoon-knife" }, connected_account_id: scm };
    const withKey = await approved(keyed);
    const withoutKey = await approved(unkeyed);
    const byApprovalId = await approved(reexecuted);
    const reexecute = { ...reexecuted, approval_id: byApprovalId.approval_id, idempotency_key: `crash-reexecute-${randomUUID()}` };

    // The doomed broker continues both; the provider holds the writes until the broker is killed.
    world.fakes.github.setApiDelay(60_000);
    const before = deletes();
    const crashed = asTestBroker(doomed);
    void continueInvocation(crashed, world.jwt, withKey.invocation_id).catch(() => undefined);
    void continueInvocation(crashed, world.jwt, withoutKey.invocation_id).catch(() => undefined);
    void execute(crashed, world.jwt, reexecute).catch(() => undefined);
    await waitFor(() => deletes() === before + 3, "the three writes at the provider");
    doomed.child.kill("SIGKILL");
    await doomed.exited;
    world.fakes.github.setApiDelay(0);

    const started = [withKey, withoutKey, byApprovalId].map((pending) => pending.invocation_id);
    const invocations = async () => (await tenantRows(world.broker, "invocations", world.tenant.tenantId)).filter((row) => started.includes(row.id));
    expect((await invocations()).map((row) => row.status)).toEqual(["sending", "sending", "sending"]);
    const keyRow = (await tenantRows(world.broker, "idempotency_keys", world.tenant.tenantId)).find((row) => row.key === key);
    expect(keyRow).toMatchObject({ status: "sending", invocation_id: withKey.invocation_id });

    // While the calls might still be running somewhere: 409 request_in_progress, nothing sent.
    expectError(await continueInvocation(world.broker, world.jwt, withKey.invocation_id), 409, "request_in_progress");
    expectError(await continueInvocation(world.broker, world.jwt, withoutKey.invocation_id), 409, "request_in_progress");
    expectError(await execute(world.broker, world.jwt, keyed), 409, "request_in_progress");
    expectError(await execute(world.broker, world.jwt, reexecute), 409, "request_in_progress");

    clock.advance(IN_PROGRESS_STALE_MS + 180_000); // the manual clock stood still while the test set up
    // The re-executed call is settled through its key first, then answers continue the same way.
    const sameRequest = await execute(world.broker, world.jwt, reexecute);
    expectError(sameRequest, 409, "outcome_unknown");
    expect(sameRequest.body.error.details.invocation_id).toBe(byApprovalId.invocation_id);
    for (const { invocation_id } of [withKey, withoutKey, byApprovalId]) {
      const unknown = await continueInvocation(world.broker, world.jwt, invocation_id);
      expectError(unknown, 409, "outcome_unknown");
      expect(unknown.body.error.details.invocation_id).toBe(invocation_id);
      const again = await continueInvocation(world.broker, world.jwt, invocation_id);
      expectError(again, 409, "outcome_unknown");
      expect(again.headers.get("idempotent-replayed")).toBe("true");
    }
    const sameKey = await execute(world.broker, world.jwt, keyed);
    expectError(sameKey, 409, "outcome_unknown");
    expect(sameKey.body.error.details).toMatchObject({ invocation_id: withKey.invocation_id, idempotency_key: key });
    expect(sameKey.headers.get("idempotent-replayed")).toBe("true");

    expect(deletes()).toBe(before + 3);
    expect(await approvals()).toHaveLength(3);
    for (const row of await invocations()) expect(row).toMatchObject({ status: "unknown", error_code: "outcome_unknown" });
    const audit = await tenantRows(world.broker, "audit_events", world.tenant.tenantId);
    for (const invocation_id of started) {
      const fate = audit.filter((row) => row.target_id === invocation_id && row.action === "tool.executed");
      expect(fate).toHaveLength(1);
      expect(fate[0]).toMatchObject({ outcome: "unknown" });
    }
  });

  it("settles a call a broker before this fix left awaiting approval with its approval consumed", async () => {
    const pending = await approved({ tool_name: "scm.delete_repository", arguments: { owner: "octocat", repo: "legacy" }, connected_account_id: scm });
    // What a broker that consumed the approval apart from marking the call left behind when it died.
    await world.broker.services.store.db.updateTable("approvals").set({ status: "consumed", consumed_at: clock.now().toISOString() }).where("id", "=", pending.approval_id).execute();
    const before = deletes();

    expectError(await continueInvocation(world.broker, world.jwt, pending.invocation_id), 409, "request_in_progress");
    clock.advance(IN_PROGRESS_STALE_MS + 1000);
    const unknown = await continueInvocation(world.broker, world.jwt, pending.invocation_id);
    expectError(unknown, 409, "outcome_unknown");
    expect(unknown.body.error.details).toEqual({ invocation_id: pending.invocation_id });
    expect(deletes()).toBe(before);
    const audit = (await tenantRows(world.broker, "audit_events", world.tenant.tenantId)).filter((row) => row.target_id === pending.invocation_id && row.action === "tool.executed");
    expect(audit.map((row) => row.outcome)).toEqual(["unknown"]);
  });
});
