/** One pending approval in the inbox: what would run, how risky, for whom, until when, and the decision buttons. */
import { useId } from "react";
import { Link } from "react-router-dom";
import type { Approval } from "../api/types";
import { Details, JsonView } from "../ui/bits";
import { Time } from "../ui/time";
import { ApprovalRisk } from "./approval-risk";
import { DecideControls, type DecisionOutcome } from "./decide-controls";
import { RevealArguments } from "./reveal-arguments";

export function ApprovalCard({ approval, appName, onOutcome }: { approval: Approval; appName: string | undefined; onOutcome(outcome: DecisionOutcome): void }) {
  const headingId = useId();
  return (
    <article className="card approval" aria-labelledby={headingId}>
      <h3 id={headingId} className="approval-tool">
        <Link to={`/approvals/${approval.approval_id}`}>{approval.tool_name}</Link>
      </h3>
      <Details
        items={[
          ["Risk", <ApprovalRisk risk={approval.risk} />],
          ["Agent app", appName ?? <span className="mono">{approval.agent_app_id}</span>],
          ["End user", approval.end_user_id ? <span className="mono">{approval.end_user_id}</span> : undefined],
          ["Environment", approval.env],
          ["Requested", <Time value={approval.requested_at} showRelative />],
          ["Expires", <Time value={approval.expires_at} showRelative />],
          ["Rule", approval.rule_id ?? "risk default"],
        ]}
      />
      <details className="arguments" open>
        <summary>Arguments (credentials redacted)</summary>
        <JsonView value={approval.arguments} label={`Arguments of ${approval.tool_name}`} />
      </details>
      <RevealArguments approval={approval} />
      <DecideControls approval={approval} onOutcome={onOutcome} />
    </article>
  );
}
