/**
 * The call an approval lets run. An approver may have edited its arguments before approving: then
 * the edited arguments are the ones sent, and the call is recorded and answered as edited (what
 * changed, who edited, what the agent asked for). Continue and re-execute (REST and MCP) share this.
 */
import type { Approval } from "../approvals/approval.js";
import type { CallDescription } from "../invocations/invocation-states.js";
import type { InvocationSeals } from "../invocations/invocation-seals.js";

export type ApprovedRun = { call: CallDescription; args: Record<string, unknown> };

export type EditedArguments = Pick<InvocationSeals, "openEditedArguments">;

/**
 * `requested` is the call as the agent asked for it, with its arguments. What changed was computed
 * when the edit was made (from the real arguments, values redacted): the agent is told every path
 * an approver changed, but never a credential-like value, not even one an approver typed.
 */
export async function approvedRun(requested: ApprovedRun, approval: Approval, seals: EditedArguments): Promise<ApprovedRun> {
  const { edit } = approval;
  if (!edit) return requested;
  const args = await seals.openEditedArguments(approval.tenantId, approval.invocationId, edit.argumentsSealed);
  const call: CallDescription = {
    ...requested.call,
    argumentsRedacted: edit.argumentsRedacted,
    argumentsFingerprint: edit.argumentsFingerprint,
    approvalEdit: {
      changes: edit.changes,
      editedBy: edit.editedBy,
      requestedArgumentsRedacted: approval.argumentsRedacted,
    },
  };
  return { call, args };
}
