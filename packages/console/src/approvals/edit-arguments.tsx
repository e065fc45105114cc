/**
 * Edit, then approve: the approver corrects the call's arguments as JSON and approves the edited
 * call. The broker checks the edit against the tool's schema and the policy; its refusal (and
 * where the arguments are wrong) is shown under the editor, which keeps the text.
 */
import { useId, useState } from "react";
import { ApiError, fieldFaults } from "../api/errors";
import type { Approval } from "../api/types";
import { ErrorMessage } from "../ui/feedback";
import { WriteButton } from "../ui/write-button";
import { useDecide } from "./approval-queries";
import type { DecisionOutcome } from "./decide-controls";

const REDACTED = "[redacted]";

/** The text as a JSON object, or why it is not one. */
export function parseArguments(text: string): { value: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `Not valid JSON: ${(error as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { problem: "The arguments must be a JSON object, like {\"title\": \"…\"}." };
  return { value: value as Record<string, unknown> };
}

function RefusalDetails({ error }: { error: unknown }) {
  const path = error instanceof ApiError && typeof error.details?.["path"] === "string" ? error.details["path"] : undefined;
  const faults = fieldFaults(error);
  // One fault is already in the message; several are listed.
  if (faults.length > 1)
    return (
      <ul className="faults" aria-label="What is wrong">
        {faults.map((fault, index) => (
          <li key={index}>
            <code>{fault.field || "/"}</code>: {fault.message}
          </li>
        ))}
      </ul>
    );
  return path ? (
    <p className="field-hint">
      Where: <code>{path}</code>
    </p>
  ) : null;
}

export function EditArguments({ approval, onOutcome }: { approval: Approval; onOutcome?: (outcome: DecisionOutcome) => void }) {
  const current = approval.edit?.arguments ?? approval.arguments;
  const [text, setText] = useState(() => JSON.stringify(current, null, 2));
  const decide = useDecide(approval.approval_id);
  const fieldId = useId();
  const hintId = useId();
  const parsed = parseArguments(text);
  const mayDecide = approval.you?.may_decide ?? false;

  if (!approval.edits_allowed) return <p className="muted">The policy rule that asked for this approval forbids edits: approve or deny the call as it is.</p>;

  const approve = () => {
    if (!("value" in parsed)) return;
    decide.mutate(
      { decision: "approve", arguments: parsed.value, digest: approval.digest },
      { onSuccess: (result) => onOutcome?.({ message: result.status === "pending" ? `Approved ${approval.tool_name} as edited; more approvals are needed.` : `Approved ${approval.tool_name} as edited.`, tone: "success" }) },
    );
  };
  return (
    <div className="edit-arguments stack">
      <div className="field">
        <label htmlFor={fieldId}>Arguments to run (JSON)</label>
        <textarea id={fieldId} className="mono json-editor" rows={Math.min(18, Math.max(6, text.split("\n").length + 1))} value={text} spellCheck={false} aria-describedby={hintId} aria-invalid={"problem" in parsed || undefined} onChange={(event) => (decide.reset(), setText(event.target.value))} />
        <p id={hintId} className="field-hint">
          Change what the call should do, then approve: the edited call is what runs, the agent is told what changed, and approvals given to the call before the edit no longer count.
        </p>
      </div>
      {"problem" in parsed ? (
        <p className="message message-error" role="alert">
          <span className="message-icon" aria-hidden="true">!</span>
          {parsed.problem}
        </p>
      ) : null}
      {text.includes(REDACTED) ? (
        <p className="warning">
          <span aria-hidden="true">⚠ </span>
          Some values read “{REDACTED}”: they would be sent as that text. Reveal the exact arguments and copy the values you keep.
        </p>
      ) : null}
      <div className="button-row">
        <WriteButton variant="primary" onClick={approve} busy={decide.isPending} disabled={!("value" in parsed) || !mayDecide}>
          Approve with these arguments
        </WriteButton>
        <button type="button" className="button button-secondary" onClick={() => (decide.reset(), setText(JSON.stringify(current, null, 2)))}>
          Reset
        </button>
      </div>
      <ErrorMessage error={decide.error} prefix="The edited call was not approved" />
      <RefusalDetails error={decide.error} />
    </div>
  );
}
