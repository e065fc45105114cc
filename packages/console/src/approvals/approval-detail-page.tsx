/** /console/approvals/{id}: one approval in any state; works as a deep link on reload. */
import { useState } from "react";
import { Link, useParams } from "react-router-dom";
import { Details, JsonView } from "../ui/bits";
import { ErrorMessage, Loading, OutcomeMessage } from "../ui/feedback";
import { PageHeader } from "../ui/page";
import { Time } from "../ui/time";
import { ApprovalRisk } from "./approval-risk";
import { ApprovalStatus } from "./approval-status";
import { useAgentAppNames, useApproval } from "./approval-queries";
import { DecideControls, type DecisionOutcome } from "./decide-controls";
import { RevealArguments } from "./reveal-arguments";

export function ApprovalDetailPage() {
  const { id = "" } = useParams();
  const approval = useApproval(id, true);
  const appNames = useAgentAppNames();
  const [outcome, setOutcome] = useState<DecisionOutcome | null>(null);
  const data = approval.data;
  return (
    <>
      <PageHeader title={data ? `Approval: ${data.tool_name}` : "Approval"} documentTitle="Approval">
        <Link to="/approvals">Back to approvals</Link>
      </PageHeader>
      {approval.isPending ? <Loading label="Loading the approval…" /> : null}
      <ErrorMessage error={approval.error} prefix="The approval could not be loaded" />
      <OutcomeMessage outcome={outcome} />
      {data ? (
        <div className="card stack">
          <Details
            items={[
              ["Status", <ApprovalStatus status={data.status} />],
              ["Tool", data.tool_name],
              ["Risk", <ApprovalRisk risk={data.risk} />],
              ["Provider", data.provider],
              ["Agent app", appNames.get(data.agent_app_id) ?? <span className="mono">{data.agent_app_id}</span>],
              ["End user", data.end_user_id ? <span className="mono">{data.end_user_id}</span> : "none"],
              ["Environment", data.env],
              ["Rule", data.rule_id ?? "risk default"],
              ["Requested", <Time value={data.requested_at} showRelative />],
              ["Expires", <Time value={data.expires_at} showRelative />],
              ["Decided by", data.decision ? (data.decision.decided_by ?? "—") : undefined],
              ["Decided", data.decision ? <Time value={data.decision.decided_at} /> : undefined],
              ["Reason", data.decision?.reason ?? undefined],
              ["Used", data.consumed_at ? <Time value={data.consumed_at} /> : undefined],
              ["Approval id", <span className="mono">{data.approval_id}</span>],
              ["Invocation id", <span className="mono">{data.invocation_id}</span>],
            ]}
          />
          <h2>Arguments (credentials redacted)</h2>
          <JsonView value={data.arguments} label={`Arguments of ${data.tool_name}`} />
          <RevealArguments key={data.approval_id} approval={data} />
          {data.status === "pending" ? <DecideControls approval={data} onOutcome={setOutcome} /> : null}
        </div>
      ) : null}
    </>
  );
}
