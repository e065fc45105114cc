/** Approve / Deny for one pending approval; Deny asks for an optional reason first. */
import { useId, useState } from "react";
import { ApiError } from "../api/errors";
import type { Approval } from "../api/types";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ErrorMessage } from "../ui/feedback";
import { WriteButton } from "../ui/write-button";
import { useDecide } from "./approval-queries";

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
  const approve = () =>
    decide.mutate({ decision: "approve" }, { onSuccess: () => onOutcome?.({ message: `Approved ${approval.tool_name}.`, tone: "success" }), onError });
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

  return (
    <div className="decide">
      <div className="button-row">
        <WriteButton variant="primary" onClick={approve} busy={decide.isPending && !denying}>
          Approve
        </WriteButton>
        <WriteButton variant="danger" onClick={() => (decide.reset(), setDenying(true))} disabled={decide.isPending}>
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
