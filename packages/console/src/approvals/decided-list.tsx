/**
 * Decided and expired approvals: every decision in the audit log (anyone's, newest first), plus
 * the approvals this tab saw pending that ended without one (expired).
 */
import { useQueries } from "@tanstack/react-query";
import type { ReactElement } from "react";
import { Link } from "react-router-dom";
import { api } from "../api/client";
import type { Approval, AuditEvent } from "../api/types";
import { useTenant } from "../tenant/tenant-context";
import { StatusTag } from "../ui/bits";
import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { Time } from "../ui/time";
import { ApprovalStatus } from "./approval-status";
import { usePendingApprovals, useRecentDecisions } from "./approval-queries";
import { seenApprovals } from "./seen-approvals";

type Row = { id: string; tool: string; agentAppId: string | null; outcome: ReactElement; by: string | null; reason: string | null; at: string };

function fromAudit(event: AuditEvent): Row | null {
  if (!event.target) return null;
  const decision = event.data["decision"];
  const reason = event.data["reason"];
  return {
    id: event.target.id,
    tool: event.tool_name ?? "—",
    agentAppId: event.agent_app_id,
    outcome: decision === "approve" ? <StatusTag status="Approved" tone="good" /> : <StatusTag status="Denied" tone="bad" />,
    by: event.actor.id,
    reason: typeof reason === "string" ? reason : null,
    at: event.occurred_at,
  };
}

function fromApproval(approval: Approval): Row {
  return {
    id: approval.approval_id,
    tool: approval.tool_name,
    agentAppId: approval.agent_app_id,
    outcome: <ApprovalStatus status={approval.status} />,
    by: approval.decision?.decided_by ?? null,
    reason: approval.decision?.reason ?? null,
    at: approval.decision?.decided_at ?? approval.expires_at,
  };
}

export function DecidedList({ appNames }: { appNames: Map<string, string> }) {
  const { tenant_id } = useTenant();
  const decisions = useRecentDecisions(true);
  const pending = usePendingApprovals();
  const decidedIds = new Set((decisions.data?.data ?? []).flatMap((event) => (event.target ? [event.target.id] : [])));
  const pendingIds = new Set((pending.data ?? []).map((approval) => approval.approval_id));
  const vanished = decisions.data && pending.data ? seenApprovals(tenant_id).filter((id) => !decidedIds.has(id) && !pendingIds.has(id)) : [];
  const ended = useQueries({
    queries: vanished.map((id) => ({
      queryKey: [tenant_id, "approvals", "one", id],
      queryFn: () => api("get", "/v1/approvals/{id}", { path: { id } }),
      staleTime: 60_000,
    })),
  });

  const rows = [
    ...(decisions.data?.data ?? []).flatMap((event) => fromAudit(event) ?? []),
    ...ended.flatMap((query) => (query.data && query.data.status !== "pending" ? [fromApproval(query.data)] : [])),
  ].sort((a, b) => b.at.localeCompare(a.at));

  if (decisions.isPending) return <Loading label="Loading decided approvals…" />;
  return (
    <>
      <ErrorMessage error={decisions.error} prefix="The decisions could not be loaded" />
      {rows.length === 0 && !decisions.error ? <EmptyState>No decided or expired approvals yet</EmptyState> : null}
      {rows.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Decided and expired approvals, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Agent app</th>
                <th scope="col">Outcome</th>
                <th scope="col">Decided by</th>
                <th scope="col">Reason</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id}>
                  <td>
                    <Link to={`/approvals/${row.id}`}>{row.tool}</Link>
                  </td>
                  <td>{row.agentAppId ? (appNames.get(row.agentAppId) ?? <span className="mono">{row.agentAppId}</span>) : "—"}</td>
                  <td>{row.outcome}</td>
                  <td>{row.by ?? "—"}</td>
                  <td>{row.reason ?? "—"}</td>
                  <td>
                    <Time value={row.at} />
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
