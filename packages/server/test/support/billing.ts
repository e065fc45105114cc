/**
 * Billing test fixtures. Usage rows are seeded straight into `usage_events`, one per invocation,
 * the way the execute pipeline records an execution that reached the upstream.
 */
import { randomBytes, randomUUID } from "node:crypto";
import type { TestBroker, TestTenant } from "./broker.js";

export type SeedUsage = {
  period: string;
  count: number;
  env?: "test" | "live";
  /** Defaults to the 2nd of the period at noon UTC. */
  occurredAt?: string;
};

/** Inserts `count` usage events; returns their invocation ids. */
export async function seedUsage(broker: TestBroker, tenant: TestTenant, usage: SeedUsage): Promise<string[]> {
  const occurredAt = usage.occurredAt ?? `${usage.period}-02T12:00:00.000Z`;
  const rows = Array.from({ length: usage.count }, () => ({
    id: randomUUID(),
    tenant_id: tenant.tenantId,
    env: usage.env ?? "live",
    agent_app_id: tenant.agentAppId,
    tool_name: "scm.get_authenticated_user",
    invocation_id: randomUUID(),
    period: usage.period,
    occurred_at: occurredAt,
  }));
  for (let i = 0; i < rows.length; i += 500) {
    await broker.runtime.store.db.insertInto("usage_events").values(rows.slice(i, i + 500)).execute();
  }
  return rows.map((row) => row.invocation_id);
}

/** Records the usage event a replay or a continue of an already executed invocation would write. */
export async function recordUsageAgain(broker: TestBroker, tenant: TestTenant, invocationId: string, period: string) {
  await broker.runtime.store.db
    .insertInto("usage_events")
    .values({
      id: randomUUID(),
      tenant_id: tenant.tenantId,
      env: "live",
      agent_app_id: tenant.agentAppId,
      tool_name: "scm.get_authenticated_user",
      invocation_id: invocationId,
      period,
      occurred_at: `${period}-03T12:00:00.000Z`,
    })
    .execute();
}

export async function setPlan(broker: TestBroker, tenant: TestTenant, planId: string) {
  await broker.runtime.store.db.updateTable("tenants").set({ plan_id: planId }).where("id", "=", tenant.tenantId).execute();
}

export async function currentPlan(broker: TestBroker, tenant: TestTenant): Promise<string> {
  const row = await broker.runtime.store.db.selectFrom("tenants").select("plan_id").where("id", "=", tenant.tenantId).executeTakeFirstOrThrow();
  return row.plan_id;
}

/** An operator token for a viewer member of the tenant. */
export async function viewerToken(broker: TestBroker, tenant: TestTenant): Promise<string> {
  const issuer = broker.runtime.developmentIssuer!;
  const subject = `viewer-${randomBytes(4).toString("hex")}`;
  await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject, role: "viewer" }, "test");
  return issuer.issue(subject);
}

export async function eventsOf(broker: TestBroker, tenant: TestTenant, type: string) {
  const rows = await broker.runtime.store.db.selectFrom("events").selectAll().where("tenant_id", "=", tenant.tenantId).where("type", "=", type).execute();
  return rows.map((row) => JSON.parse(row.payload) as { type: string; timestamp: string; data: Record<string, unknown> });
}

export async function auditActions(broker: TestBroker, tenant: TestTenant, prefix: string) {
  const rows = await broker.runtime.store.db
    .selectFrom("audit_events")
    .select(["action", "outcome", "data"])
    .where("tenant_id", "=", tenant.tenantId)
    .orderBy("seq")
    .execute();
  return rows.filter((row) => row.action.startsWith(prefix)).map((row) => ({ action: row.action, outcome: row.outcome, data: JSON.parse(row.data) as Record<string, unknown> }));
}
