/** Decided and expired approvals (`GET /v1/approvals?status=decided`), most recently ended first. */
import { Link } from "react-router-dom";
import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { Time } from "../ui/time";
import { useOperatorName } from "../names/name-queries";
import { useDecidedApprovals, useMemberNames } from "./approval-queries";
import { ApprovalStatus } from "./approval-status";
import { decidedBy } from "./approvers-panel";

export function DecidedList() {
  const decided = useDecidedApprovals();
  const names = useMemberNames();
  const deciderName = useOperatorName();
  if (decided.isPending) return <Loading label="Loading decided approvals…" />;
  const rows = decided.data ?? [];
  return (
    <>
      <ErrorMessage error={decided.error} prefix="The decided approvals could not be loaded" />
      {rows.length === 0 && !decided.error ? <EmptyState>No decided or expired approvals yet</EmptyState> : null}
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Decided and expired approvals, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Account</th>
                <th scope="col">Agent app</th>
                <th scope="col">Outcome</th>
                <th scope="col">Decided by</th>
                <th scope="col">Reason</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((approval) => (
                <tr key={approval.approval_id}>
                  <td>
                    <Link to={`/approvals/${approval.approval_id}`}>{approval.tool_name}</Link>
                    {approval.edit ? <span className="muted"> (edited)</span> : null}
                  </td>
                  <td>{approval.account?.display_name ?? "—"}</td>
                  <td>{approval.agent_app.name}</td>
                  <td>
                    <ApprovalStatus status={approval.status} />
                  </td>
                  <td>{decidedBy(approval, names, deciderName)}</td>
                  <td>{approval.decision?.reason ?? "—"}</td>
                  <td>
                    <Time value={approval.decision?.decided_at ?? approval.expires_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </>
  );
}
