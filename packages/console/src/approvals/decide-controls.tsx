/**
 * Approve / Deny for one pending approval; Deny asks for an optional reason first. Disabled for
 * an operator who is not one of its approvers (or has voted); an approval decided by the end user
 * has no controls here.
 */
import { useId, useState } from "react";
import { ApiError } from "../api/errors";
import type { Approval } from "../api/types";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ErrorMessage } from "../ui/feedback";
import { WriteButton } from "../ui/write-button";
import { useDecide } from "./approval-queries";
import { progressInWords } from "./approvers-panel";

export type DecisionOutcome = { message: string; tone: "success" | "error" };

export function DecideControls({ approval, onOutcome }: { approval: Approval; onOutcome?: (outcome: DecisionOutcome) => void }) {
  const decide = useDecide(approval.approval_id);
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState("");
  const reasonId = useId();

  // A 409 (decided by someone else, or expired) removes the card at the next poll: say it at page level too.
  const onError = (error: Error) => {
    if (error instanceof ApiError && error.status === 409) onOutcome?.({ message: `${approval.tool_name} was not decided: ${error.message}`, tone: "error" });
  };
  const approved = (result: Approval) =>
    onOutcome?.({
      message: result.status === "pending" ? `Your approval of ${approval.tool_name} is recorded: ${progressInWords(result)}.` : `Approved ${approval.tool_name}.`,
      tone: "success",
    });
  // The approval is bound to the version this page shows: an edit by someone else since is refused (409 approval_changed).
  const approve = () => decide.mutate({ decision: "approve", digest: approval.digest }, { onSuccess: approved, onError });
  const deny = () =>
    decide.mutate(
      { decision: "deny", ...(reason.trim() ? { reason: reason.trim() } : {}) },
      {
        onSuccess: () => {
          setDenying(false);
          onOutcome?.({ message: `Denied ${approval.tool_name}.`, tone: "success" });
        },
        onError,
      },
    );

  if (approval.approvers.rule === "end_user") return null;
  const notYours = approval.you ? !approval.you.may_decide || approval.you.vote !== null : false;
  const why = approval.you?.vote ? "You have voted on this call." : notYours ? "You are not one of this call's approvers." : undefined;
  return (
    <div className="decide">
      <div className="button-row">
        <WriteButton variant="primary" onClick={approve} busy={decide.isPending && !denying} disabled={notYours} title={why}>
          Approve
        </WriteButton>
        <WriteButton variant="danger" onClick={() => (decide.reset(), setDenying(true))} disabled={decide.isPending || notYours} title={why}>
          Deny
        </WriteButton>
      </div>
      {!denying ? <ErrorMessage error={decide.error} prefix="The decision was not recorded" /> : null}
      {denying ? (
        <ConfirmDialog
          title={`Deny ${approval.tool_name}?`}
          confirmLabel="Deny call"
          onConfirm={deny}
          onCancel={() => setDenying(false)}
          busy={decide.isPending}
          error={decide.error}
        >
          <p>The waiting call will not run. The agent sees the denial and your reason.</p>
          <div className="field">
            <label htmlFor={reasonId}>Reason (optional)</label>
            <textarea id={reasonId} value={reason} maxLength={1000} rows={3} onChange={(event) => setReason(event.target.value)} />
          </div>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
