/**
 * An approver's edit, as the edits suites make it: the arguments changed, then approved.
 */
import { expect } from "vitest";
import { fingerprint } from "../../src/shared/canonical-json.js";
import { redactArguments } from "../../src/tools/scrub.js";
import type { TestBroker, TestTenant } from "./broker.js";
import { asOperator, call } from "./http.js";

/** Writes the edit into the approval row as the approval service would, then approves through the API. */
export async function approveWithEdit(broker: TestBroker, tenant: TestTenant, approvalId: string, args: Record<string, unknown>) {
  const { store, seals } = broker.services;
  const row = await store.db.selectFrom("approvals").select(["invocation_id"]).where("id", "=", approvalId).executeTakeFirstOrThrow();
  await store.db
    .updateTable("approvals")
    .set({
      edited_arguments_sealed: await seals.sealEditedArguments(tenant.tenantId, row.invocation_id, args),
      edited_arguments_redacted: JSON.stringify(redactArguments(args)),
      edited_fingerprint: fingerprint(args),
      edited_by: tenant.operatorSubject,
      edited_at: new Date().toISOString(),
    })
    .where("id", "=", approvalId)
    .execute();
  const decided = await call(broker, "POST", `/v1/approvals/${approvalId}/decide`, { ...asOperator(tenant), body: { decision: "approve" } });
  expect(decided.status, decided.text).toBe(200);
  return decided;
}
