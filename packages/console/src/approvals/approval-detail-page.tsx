/**
 * /console/approvals/{id}: one approval in any state, as a deep link that works on reload: what
 * it is bound to, the arguments (and what an edit changed), the approvers and their votes, the
 * editor for edit-then-approve, and where else the request was sent.
 */
import { useEffect, useState } from "react";
import { Link, useLocation, useParams } from "react-router-dom";
import type { Approval } from "../api/types";
import { Details, JsonView } from "../ui/bits";
import { ErrorMessage, Loading, OutcomeMessage } from "../ui/feedback";
import { PageHeader, Section } from "../ui/page";
import { Time } from "../ui/time";
import { useOperatorName } from "../names/name-queries";
import { ProviderName } from "../names/names";
import { ArgumentChanges } from "./argument-changes";
import { bindingItems } from "./approval-binding";
import { useApproval, useMemberNames } from "./approval-queries";
import { ApprovalRisk } from "./approval-risk";
import { ApprovalStatus } from "./approval-status";
import { ApproversPanel, decidedBy } from "./approvers-panel";
import { DecideControls, type DecisionOutcome } from "./decide-controls";
import { DeliveriesList } from "./deliveries-list";
import { EditArguments } from "./edit-arguments";
import { RevealArguments } from "./reveal-arguments";

function Summary({ approval }: { approval: Approval }) {
  const decision = approval.decision;
  const names = useMemberNames();
  const deciderName = useOperatorName();
  return (
    <Details
      items={[
        ["Status", <ApprovalStatus status={approval.status} />],
        ["Risk", <ApprovalRisk risk={approval.risk} />],
        ...bindingItems(approval),
        ["Provider", <ProviderName id={approval.provider} />],
        ["End user", approval.end_user_id ? <span className="mono">{approval.end_user_id}</span> : "none"],
        ["Environment", approval.env],
        ["Rule", approval.rule_id ?? "risk default"],
        ["Requested", <Time value={approval.requested_at} showRelative />],
        ["Expires", <Time value={approval.expires_at} showRelative />],
        ["Decided by", decision || approval.status === "expired" ? decidedBy(approval, names, deciderName) : undefined],
        ["Decided", decision ? <Time value={decision.decided_at} /> : undefined],
        ["Reason", decision?.reason ?? undefined],
        ["Used", approval.consumed_at ? <Time value={approval.consumed_at} /> : undefined],
        ["Approval id", <span className="mono">{approval.approval_id}</span>],
        ["Invocation id", <span className="mono">{approval.invocation_id}</span>],
      ]}
    />
  );
}

function ApprovalView({ approval, onOutcome }: { approval: Approval; onOutcome(outcome: DecisionOutcome): void }) {
  const pending = approval.status === "pending";
  const memberDecides = approval.approvers.rule !== "end_user";
  const mayDecide = pending && memberDecides && (approval.you?.may_decide ?? false) && !approval.you?.vote;
  const { hash } = useLocation();
  // The inbox's "Edit, then approve" links here with #edit: the editor is rendered only once the approval has loaded.
  useEffect(() => {
    if (hash !== "#edit" || !mayDecide) return;
    document.getElementById("edit")?.scrollIntoView({ block: "start" });
    document.querySelector<HTMLTextAreaElement>("#edit textarea")?.focus({ preventScroll: true });
  }, [hash, mayDecide]);
  return (
    <>
      <div className="card stack">
        <Summary approval={approval} />
        <ApproversPanel approval={approval} headingLevel={2} />
        {pending ? <DecideControls approval={approval} onOutcome={onOutcome} /> : null}
      </div>
      <Section title={approval.edit ? "Arguments as requested (credentials redacted)" : "Arguments (credentials redacted)"} id="arguments-heading">
        <JsonView value={approval.arguments} label={`Arguments of ${approval.tool_name}`} />
        {pending ? <RevealArguments key={approval.approval_id} approval={approval} /> : null}
      </Section>
      {approval.edit ? (
        <Section title="Edited before approval" id="edit-changes-heading">
          <ArgumentChanges edit={approval.edit} />
          <JsonView value={approval.edit.arguments} label={`Arguments of ${approval.tool_name} as edited`} />
        </Section>
      ) : null}
      {mayDecide ? (
        <section className="section" id="edit" aria-labelledby="edit-heading">
          <h2 id="edit-heading">Edit, then approve</h2>
          <EditArguments key={approval.digest} approval={approval} onOutcome={onOutcome} />
        </section>
      ) : null}
      <Section title="Slack and email" id="deliveries-heading">
        <DeliveriesList deliveries={approval.deliveries} />
      </Section>
    </>
  );
}

export function ApprovalDetailPage() {
  const { id = "" } = useParams();
  const approval = useApproval(id, true);
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
      {data ? <ApprovalView approval={data} onOutcome={setOutcome} /> : null}
    </>
  );
}
