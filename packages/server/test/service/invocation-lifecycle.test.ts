/**
 * The invocation lifecycle against a real database, without HTTP: each step writes everything
 * that goes with it in one transaction, an approval starts exactly one call however many requests
 * race for it, and a step repeated or arriving late changes nothing twice.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BrokerError } from "../../src/errors.js";
import { uuidv7 } from "../../src/ids.js";
import type { ActingCaller } from "../../src/invocations/caller.js";
import { createInvocationLifecycle } from "../../src/invocations/invocation-lifecycle.js";
import { createInvocationQueries } from "../../src/invocations/invocation-queries.js";
import type { CallDescription } from "../../src/invocations/invocation-states.js";
import { describeEachDatabase } from "../support/databases.js";
import { startServiceWorld, type ServiceWorld } from "../support/service-world.js";

describeEachDatabase("the invocation lifecycle", (kind) => {
  let world: ServiceWorld;
  let caller: ActingCaller;

  beforeAll(async () => {
    world = await startServiceWorld(kind);
    caller = { kind: "agent_app", tenantId: world.tenant.tenantId, env: "test", agentAppId: world.tenant.agentAppId, endUserId: null };
  });
  afterAll(() => world?.close());

  const db = () => world.services.store.db;
  const invocation = async (id: string) => (await createInvocationQueries(world.services.store).find(world.tenant.tenantId, id))!;
  const auditActions = async (invocationId: string) =>
    (await db().selectFrom("audit_events").select(["action", "outcome"]).where("target_id", "=", invocationId).orderBy("seq").execute()).map((row) => `${row.action}:${row.outcome}`);
  const usageEvents = async (invocationId: string) => (await db().selectFrom("usage_events").select("id").where("invocation_id", "=", invocationId).execute()).length;
  const outboxTypes = async (invocationId: string) =>
    (await db().selectFrom("events").select(["type", "payload"]).where("tenant_id", "=", world.tenant.tenantId).execute())
      .filter((row) => row.payload.includes(invocationId))
      .map((row) => row.type);

  function describeCall(overrides: Partial<CallDescription> = {}): CallDescription {
    return {
      caller,
      invocationId: uuidv7(),
      toolName: "scm.create_issue",
      provider: "scm",
      connectionId: null,
      secretItemId: null,
      argumentsRedacted: { title: "t" },
      argumentsFingerprint: randomUUID(),
      approvalId: null,
      idempotency: undefined,
      requestFingerprint: null,
      existing: false,
      channel: "rest",
      ...overrides,
    };
  }

  /** A call parked and approved by an operator: what continue finds. */
  async function approvedCall(overrides: Partial<CallDescription> = {}) {
    const call = describeCall(overrides);
    const approval = await world.services.lifecycle.park(call, { provider: "scm", args: { title: "t" }, ruleId: null });
    await world.services.approvals.decide(world.tenant.tenantId, approval.id, { decision: "approve" }, world.decider);
    return { call: { ...call, approvalId: approval.id, existing: true }, approval };
  }

  it("parks a call with its sealed arguments, its approval, the approval.requested event and its audit entry together", async () => {
    const call = describeCall();
    const approval = await world.services.lifecycle.park(call, { provider: "scm", args: { title: "secret title" }, ruleId: "r1" });
    const parked = await invocation(call.invocationId);
    expect({ status: parked.status, approvalId: parked.approvalId }).toEqual({ status: "awaiting_approval", approvalId: approval.id });
    expect(await world.services.seals.openArguments(parked)).toEqual({ title: "secret title" });
    expect((await world.services.approvals.get(world.tenant.tenantId, approval.id)).status).toBe("pending");
    expect(await outboxTypes(call.invocationId)).toEqual(["approval.requested"]);
    expect(await auditActions(call.invocationId)).toEqual(["tool.approval_requested:success"]);
  });

  it("starts an approved call exactly once when requests race for its approval", async () => {
    const { call, approval } = await approvedCall();
    const started = await Promise.all(Array.from({ length: 6 }, () => world.services.lifecycle.start(call)));
    expect(started.filter(Boolean)).toHaveLength(1);
    expect((await invocation(call.invocationId)).status).toBe("sending");
    expect((await world.services.approvals.get(world.tenant.tenantId, approval.id)).status).toBe("consumed");
  });

  it("consumes nothing when the call it would start no longer waits", async () => {
    const { call, approval } = await approvedCall();
    const error = new BrokerError("policy_denied", "denied by a rule added since", {});
    await world.services.lifecycle.denyWaiting(await invocation(call.invocationId), caller, error);
    await expect(world.services.lifecycle.start(call)).rejects.toMatchObject({ code: "conflict" });
    expect((await world.services.approvals.get(world.tenant.tenantId, approval.id)).status).toBe("approved");
    expect((await invocation(call.invocationId)).status).toBe("denied");
  });

  it("finishes a started call with its outcome, audit entry and one usage event, and a repeated finish changes nothing", async () => {
    const { call } = await approvedCall();
    expect(await world.services.lifecycle.start(call)).toBe(true);
    await world.services.lifecycle.finish(call, { kind: "succeeded", result: { number: 7 }, upstreamStatus: 201, latencyMs: 12 });
    await world.services.lifecycle.finish(call, { kind: "succeeded", result: { number: 8 }, upstreamStatus: 201, latencyMs: 12 });
    const finished = await invocation(call.invocationId);
    expect({ status: finished.status, upstreamStatus: finished.upstreamStatus }).toEqual({ status: "succeeded", upstreamStatus: 201 });
    expect(await world.services.seals.openOutcome(finished)).toMatchObject({ kind: "result", result: { number: 7 } });
    expect(await usageEvents(call.invocationId)).toBe(1);
  });

  it("denies a waiting call once, with one audit entry, and leaves a started call alone", async () => {
    const { call } = await approvedCall();
    const error = new BrokerError("policy_denied", "an operator denied this call", {});
    await world.services.lifecycle.denyWaiting(await invocation(call.invocationId), caller, error);
    await world.services.lifecycle.denyWaiting(await invocation(call.invocationId), caller, error);
    expect((await invocation(call.invocationId)).errorCode).toBe("policy_denied");
    expect(await auditActions(call.invocationId)).toEqual(["tool.approval_requested:success", "tool.executed:denied"]);

    const { call: running } = await approvedCall();
    expect(await world.services.lifecycle.start(running)).toBe(true);
    await world.services.lifecycle.denyWaiting(await invocation(running.invocationId), caller, error);
    expect((await invocation(running.invocationId)).status).toBe("sending");
  });

  it("settles an abandoned send as unknown once, and its key replays that outcome", async () => {
    const scope = { tenantId: caller.tenantId, env: caller.env, agentAppId: caller.agentAppId, endUserId: null, key: `k-${randomUUID()}` };
    const call = describeCall({ idempotency: scope, requestFingerprint: "fp" });
    expect(await world.services.idempotency.claim(scope, "fp", call.invocationId)).toEqual({ kind: "claimed" });
    await world.services.lifecycle.markSending(call);
    const sending = await invocation(call.invocationId);
    await Promise.all([world.services.lifecycle.markUnknown(sending, scope.key), world.services.lifecycle.markUnknown(sending, scope.key)]);
    expect((await invocation(call.invocationId)).status).toBe("unknown");
    expect(await auditActions(call.invocationId)).toEqual(["tool.executed:unknown"]);
    expect(await world.services.idempotency.claim(scope, "fp", uuidv7())).toEqual({ kind: "replay", invocationId: call.invocationId });
  });

  it("never answers a finish that lost its races with conflict's 'try again' once the call may have been sent", async () => {
    const services = world.services;
    const conflict = new BrokerError("conflict", "the change collided with concurrent changes and was not made; try again", { reason: "concurrent_change" });
    const losing = createInvocationLifecycle({
      store: { kind: services.store.kind, transaction: () => Promise.reject(conflict) },
      queries: createInvocationQueries(services.store),
      approvals: services.approvals,
      events: services.events,
      audit: services.audit,
      idempotency: services.idempotency,
      vault: services.vault,
      clock: services.clock,
    });
    const sent = losing.finish(describeCall(), { kind: "succeeded", result: {}, upstreamStatus: 200, latencyMs: 1 });
    await expect(sent).rejects.toMatchObject({ code: "internal_error", message: expect.stringContaining("check with the provider") });
    const neverLeft = losing.finish(describeCall(), { kind: "failed", error: new BrokerError("connection_unusable", "revoked", {}), upstreamStatus: null, latencyMs: null, requestMayHaveLeft: false });
    await expect(neverLeft).rejects.toBe(conflict);
    await losing.close();
  });

  it("records a refusal with the event it raises in the same step", async () => {
    const call = describeCall();
    const error = new BrokerError("credential_required", "connect an account", { provider: "scm" });
    await world.services.lifecycle.reject(call, error, { tenantId: caller.tenantId, type: "connection.required", data: { invocation_id: call.invocationId } });
    expect((await invocation(call.invocationId)).status).toBe("rejected");
    expect(await outboxTypes(call.invocationId)).toEqual(["connection.required"]);
    expect(await auditActions(call.invocationId)).toEqual(["tool.executed:failure"]);
  });
});
