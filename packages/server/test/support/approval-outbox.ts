/** Helpers for the approval outbox suites: a call parked for approval in a service world, and its deliveries. */
import { randomUUID } from "node:crypto";
import type { Approval } from "../../src/approvals/approval.js";
import { uuidv7 } from "../../src/ids.js";
import type { RuleApproval } from "../../src/policy/policy-document.js";
import type { ServiceWorld } from "./service-world.js";

/** Parks a call the way execute does, under a rule with this approval block; resolves with its approval. */
export function parkCall(world: ServiceWorld, ruleApproval: RuleApproval | undefined, endUserId: string | null = null): Promise<Approval> {
  const { tenantId, agentAppId } = world.tenant;
  return world.services.lifecycle.park(
    {
      caller: { kind: "agent_app", tenantId, env: "test", agentAppId, endUserId },
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
    },
    { provider: "scm", args: { title: "t" }, ruleId: "needs-approval", ruleApproval },
  );
}

export const deliveriesOf = (world: ServiceWorld, approvalId: string) => world.services.approvalDeliveries.listForApprovals(world.tenant.tenantId, [approvalId]);

export async function deliveryOf(world: ServiceWorld, approvalId: string, purpose: "request" | "reminder" | "outcome", channel: "slack" | "email" = "email") {
  const row = (await deliveriesOf(world, approvalId)).find((d) => d.purpose === purpose && d.channel === channel);
  if (!row) throw new Error(`no ${channel} ${purpose} delivery for approval ${approvalId}`);
  return row;
}

export const approvalOf = (world: ServiceWorld, id: string) => world.services.approvals.get(world.tenant.tenantId, id);
