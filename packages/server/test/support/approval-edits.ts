/**
 * An approver's edit, as the edits suites make it: `POST /v1/approvals/{id}/decide` with the
 * changed `arguments`, by the tenant's admin.
 */
import { expect } from "vitest";
import type { TestBroker, TestTenant } from "./broker.js";
import { asOperator, call } from "./http.js";

export const decideWithArguments = (broker: TestBroker, tenant: TestTenant, approvalId: string, args: Record<string, unknown>) =>
  call(broker, "POST", `/v1/approvals/${approvalId}/decide`, { ...asOperator(tenant), body: { decision: "approve", arguments: args } });

/** Approves the call with the arguments changed to `args`; the decision must be final (one admin decides). */
export async function approveWithEdit(broker: TestBroker, tenant: TestTenant, approvalId: string, args: Record<string, unknown>) {
  const decided = await decideWithArguments(broker, tenant, approvalId, args);
  expect(decided.status, decided.text).toBe(200);
  expect(decided.body.status, decided.text).toBe("approved");
  return decided;
}
