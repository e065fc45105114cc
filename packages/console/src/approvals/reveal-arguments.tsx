/**
 * Below an approval's redacted arguments: admins may reveal the exact ones the call will send.
 * The broker records each reveal in the audit log; the values are shown until hidden, never kept.
 */
import { useId } from "react";
import type { Approval } from "../api/types";
import { JsonView } from "../ui/bits";
import { ErrorMessage } from "../ui/feedback";
import { WriteButton } from "../ui/write-button";
import { useRevealArguments } from "./approval-queries";

export function RevealArguments({ approval }: { approval: Pick<Approval, "approval_id" | "tool_name"> }) {
  const reveal = useRevealArguments(approval.approval_id);
  const hintId = useId();
  const revealed = reveal.data;
  return (
    <div className="reveal-arguments">
      {revealed ? (
        <>
          <p className="warning">
            <span aria-hidden="true">⚠ </span>
            Exact arguments, unredacted: credentials included.
          </p>
          <JsonView value={revealed.arguments} label={`Exact arguments of ${approval.tool_name}`} />
          <div className="button-row">
            <button type="button" className="button button-secondary" onClick={() => reveal.reset()}>
              Hide exact arguments
            </button>
          </div>
        </>
      ) : (
        <>
          <div className="button-row">
            <WriteButton onClick={() => reveal.mutate()} busy={reveal.isPending} aria-describedby={hintId}>
              Reveal exact arguments
            </WriteButton>
          </div>
          <p id={hintId} className="field-hint">
            Admins only. Shows the values without redaction; each reveal is recorded in the audit log under your name.
          </p>
          <ErrorMessage error={reveal.error} prefix="The exact arguments could not be revealed" />
        </>
      )}
    </div>
  );
}
