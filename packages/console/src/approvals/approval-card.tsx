/**
 * One pending approval in the inbox: what would run, on which account, for which agent app, how
 * risky, who has decided and who is still needed, and the decision buttons. Editing the call
 * happens on the approval's page.
 */
import { useId } from "react";
import { Link } from "react-router-dom";
import type { Approval } from "../api/types";
import { Details, JsonView } from "../ui/bits";
import { Time } from "../ui/time";
import { bindingItems } from "./approval-binding";
import { ApprovalRisk } from "./approval-risk";
import { ApproversPanel } from "./approvers-panel";
import { DecideControls, type DecisionOutcome } from "./decide-controls";
import { RevealArguments } from "./reveal-arguments";

export function ApprovalCard({ approval, onOutcome }: { approval: Approval; onOutcome(outcome: DecisionOutcome): void }) {
  const headingId = useId();
  const mayEdit = approval.edits_allowed && approval.approvers.rule !== "end_user" && (approval.you?.may_decide ?? false) && !approval.you?.vote;
  return (
    <article className="card approval" aria-labelledby={headingId}>
      <div className="approval-title-row">
        <h3 id={headingId} className="approval-tool">
          <Link to={`/approvals/${approval.approval_id}`}>{approval.tool_name}</Link>
        </h3>
        <ApprovalRisk risk={approval.risk} />
        {approval.edit ? <span className="tag tag-warn">Edited</span> : null}
      </div>
      <Details
        items={[
          ...bindingItems(approval),
          ["End user", approval.end_user_id ? <span className="mono">{approval.end_user_id}</span> : undefined],
          ["Environment", approval.env],
          ["Requested", <Time value={approval.requested_at} showRelative />],
          ["Expires", <Time value={approval.expires_at} showRelative />],
          ["Rule", approval.rule_id ?? "risk default"],
        ]}
      />
      <details className="arguments" open>
        <summary>{approval.edit ? "Arguments as edited (credentials redacted)" : "Arguments (credentials redacted)"}</summary>
        <JsonView value={approval.edit?.arguments ?? approval.arguments} label={`Arguments of ${approval.tool_name}`} />
      </details>
      <RevealArguments approval={approval} />
      <ApproversPanel approval={approval} />
      <div className="button-row approval-actions">
        <DecideControls approval={approval} onOutcome={onOutcome} />
        {mayEdit ? (
          <Link className="button button-secondary link-button" to={`/approvals/${approval.approval_id}#edit`}>
            Edit, then approve
          </Link>
        ) : null}
      </div>
    </article>
  );
}
