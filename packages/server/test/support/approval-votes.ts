/** Helpers for the approval decision suites: more members of a tenant, and votes as one of them. */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import type { TestBroker, TestTenant } from "./broker.js";
import { asOperator, call } from "./http.js";

/** A member of the tenant as a test acts: their member id and the operator headers to send. */
export type TestMember = { memberId: string; auth: { token: string; tenant: string } };

/** The tenant's bootstrapped admin as a TestMember. */
export async function adminOf(broker: TestBroker, tenant: TestTenant): Promise<TestMember> {
  const issuer = broker.runtime.developmentIssuer!;
  const membership = await broker.services.tenants.findMembership(tenant.tenantId, issuer.issuer, tenant.operatorSubject);
  return { memberId: membership!.memberId, auth: asOperator(tenant) };
}

/** Adds a member with a role (and, through PATCH /v1/members, a display name and groups). */
export async function addMember(broker: TestBroker, tenant: TestTenant, role: "admin" | "viewer", profile: { display_name?: string; groups?: string[] } = {}): Promise<TestMember> {
  const issuer = broker.runtime.developmentIssuer!;
  const subject = `member-${randomBytes(4).toString("hex")}`;
  await broker.services.tenants.addMember(tenant.tenantId, { issuer: issuer.issuer, subject, role }, "test");
  const membership = await broker.services.tenants.findMembership(tenant.tenantId, issuer.issuer, subject);
  const member = { memberId: membership!.memberId, auth: { token: await issuer.issue(subject), tenant: tenant.tenantId } };
  if (Object.keys(profile).length > 0) {
    const patched = await call(broker, "PATCH", `/v1/members/${member.memberId}`, { ...asOperator(tenant), body: profile });
    expect(patched.status, patched.text).toBe(200);
  }
  return member;
}

export type VoteBody = { decision: "approve" | "deny"; reason?: string; arguments?: Record<string, unknown>; digest?: string };

export const vote = (broker: TestBroker, member: TestMember, approvalId: string, body: VoteBody) =>
  call(broker, "POST", `/v1/approvals/${approvalId}/decide`, { ...member.auth, body });

export const showApproval = (broker: TestBroker, member: TestMember, approvalId: string) => call(broker, "GET", `/v1/approvals/${approvalId}`, member.auth);

/** Audit entries of one action on one approval, their data parsed. */
export async function auditOf(broker: TestBroker, tenantId: string, action: string, approvalId: string) {
  const rows = await broker.services.store.db.selectFrom("audit_events").selectAll().where("tenant_id", "=", tenantId).where("action", "=", action).where("target_id", "=", approvalId).execute();
  return rows.map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
}
