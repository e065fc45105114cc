/**
 * The approvals inbox: pending calls newest first (polled every 3 s, so new requests and other
 * operators' votes appear without reload) and a second tab for decided and expired ones.
 */
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { Badge } from "../ui/bits";
import { EmptyState, ErrorMessage, Loading, OutcomeMessage } from "../ui/feedback";
import { PageHeader } from "../ui/page";
import { Tabs } from "../ui/tabs";
import { ApprovalCard } from "./approval-card";
import { usePendingApprovals } from "./approval-queries";
import type { DecisionOutcome } from "./decide-controls";
import { DecidedList } from "./decided-list";

export function ApprovalsPage() {
  const pending = usePendingApprovals();
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "decided" ? "decided" : "pending";
  const [outcome, setOutcome] = useState<DecisionOutcome | null>(null);
  const count = pending.data?.length ?? 0;

  return (
    <>
      <PageHeader title="Approvals" documentTitle={count > 0 ? `(${count}) Approvals` : "Approvals"} after={<Badge count={count} label="pending" />}>
        <p>Calls that policy held for a person's decision. This page refreshes every 3 seconds.</p>
      </PageHeader>
      <OutcomeMessage outcome={outcome} />
      <Tabs
        label="Approvals"
        selected={tab}
        onSelect={(id) => setParams(id === "decided" ? { tab: "decided" } : {}, { replace: true })}
        tabs={[
          { id: "pending", label: `Pending (${count})` },
          { id: "decided", label: "Decided and expired" },
        ]}
      >
        {tab === "pending" ? (
          <>
            {pending.isPending ? <Loading label="Loading pending approvals…" /> : null}
            <ErrorMessage error={pending.error} prefix="The pending approvals could not be loaded" />
            {pending.data?.length === 0 ? <EmptyState>No approvals pending</EmptyState> : null}
            <ul className="approval-list plain-list" aria-label="Pending approvals, newest first">
              {pending.data?.map((approval) => (
                <li key={approval.approval_id}>
                  <ApprovalCard approval={approval} onOutcome={setOutcome} />
                </li>
              ))}
            </ul>
          </>
        ) : (
          <DecidedList />
        )}
      </Tabs>
    </>
  );
}
