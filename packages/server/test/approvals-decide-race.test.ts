/**
 * Votes racing from two broker instances on one database are counted exactly once: a 2-of-3 rule
 * is approved by two distinct people and never by one person voting twice, one deny racing two
 * approvals ends it either way, and the final decision is announced once.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBroker, testMasterKey, type TestBroker } from "./support/broker.js";
import { describeEachDatabase } from "./support/databases.js";
import { createScmTenant, deletion, outboxEvents, putPolicy, requestApproval, startScmWorld, type ScmTenant, type ScmWorld } from "./support/approvals.js";
import { addMember, adminOf, showApproval, vote, type TestMember, type VoteBody } from "./support/approval-votes.js";
import { expectRaceOutcome, race } from "./support/races.js";

const TRIES = 8;

describeEachDatabase("approval votes racing from two instances", (kind) => {
  let world: ScmWorld;
  let second: TestBroker;
  let tenant: ScmTenant;
  let admins: TestMember[];

  beforeAll(async () => {
    const env = { BROKER_MASTER_KEYS: testMasterKey() };
    world = await startScmWorld(kind, { env });
    second = await startBroker(kind, { database: world.broker.database, env: { ...world.github.env, ...env } });
    tenant = await createScmTenant(world, "Acme");
    admins = [await adminOf(world.broker, tenant), await addMember(world.broker, tenant, "admin"), await addMember(world.broker, tenant, "admin")];
    await putPolicy(world.broker, tenant, [{ id: "two-of-three", effect: "require_approval", tools: ["scm.delete_repository"], approval: { approvers: { count: 2, of: "admins" } } }]);
  });
  afterAll(async () => {
    await second.close();
    await world.close();
  });

  /** Each vote goes to the instance of its index's parity: 0 and 2 to the first, 1 to the second. */
  const instanceOf = (i: number) => (i % 2 === 0 ? world.broker : second);

  async function votesOf(approvalId: string) {
    return world.broker.services.store.db.selectFrom("approval_votes").select(["voter", "decision"]).where("approval_id", "=", approvalId).execute();
  }

  async function decisionsAnnounced(approvalId: string) {
    return (await outboxEvents(world.broker, tenant.tenantId, "approval.decided")).filter((event) => event.data.approval_id === approvalId);
  }

  it("approves with two distinct admins when all three approve at once, announcing it once", async () => {
    for (let i = 0; i < TRIES; i += 1) {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const results = await race(i, admins.map((admin, index) => () => vote(instanceOf(index), admin, approval_id, { decision: "approve" })));
      for (const result of results) expectRaceOutcome(result, [200, 409]);
      for (const loser of results.filter((r) => r.status === 409)) expect(loser.body.error.code).toBe("approval_already_decided");
      const counted = await votesOf(approval_id);
      // Exactly the 200s were counted; the vote that completed it found two on the digest, so at most one more lost.
      expect(counted).toHaveLength(results.filter((r) => r.status === 200).length);
      expect(counted.length).toBeGreaterThanOrEqual(2);
      expect(new Set(counted.map((v) => v.voter)).size).toBe(counted.length);
      const shown = await showApproval(world.broker, admins[0]!, approval_id);
      expect(shown.body).toMatchObject({ status: "approved", approvers: { needed: 2 } });
      expect(shown.body.approvers.approved).toBe(counted.length);
      expect(await decisionsAnnounced(approval_id)).toHaveLength(1);
    }
  });

  it("counts one admin's approval once when it arrives at both instances at the same time", async () => {
    for (let i = 0; i < TRIES; i += 1) {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const results = await race(i, [world.broker, second].map((broker) => () => vote(broker, admins[1]!, approval_id, { decision: "approve" })));
      for (const result of results) expect(result.status, result.text).toBe(200);
      expect(await votesOf(approval_id)).toHaveLength(1);
      expect((await showApproval(second, admins[0]!, approval_id)).body).toMatchObject({ status: "pending", approvers: { approved: 1 } });
      expect(await decisionsAnnounced(approval_id)).toHaveLength(0);
    }
  });

  it("ends with exactly one decision when a deny races two approvals", async () => {
    const bodies: VoteBody[] = [{ decision: "approve" }, { decision: "deny" }, { decision: "approve" }];
    for (let i = 0; i < TRIES; i += 1) {
      const { approval_id } = await requestApproval(world.broker, deletion(tenant, "hello-world"));
      const results = await race(i, admins.map((admin, index) => () => vote(instanceOf(index), admin, approval_id, bodies[index]!)));
      for (const result of results) expectRaceOutcome(result, [200, 409]);
      const shown = await showApproval(world.broker, admins[0]!, approval_id);
      const denyCounted = results[1]!.status === 200;
      // The deny wins unless both approvals were counted before it.
      expect(shown.body.status).toBe(denyCounted ? "denied" : "approved");
      if (!denyCounted) expect(results[0]!.status + results[2]!.status).toBe(400);
      const announced = await decisionsAnnounced(approval_id);
      expect(announced.map((event) => event.data.decision)).toEqual([denyCounted ? "deny" : "approve"]);
    }
  });
});
