/** The audit log: filterable, paged with the broker's cursor (older / newer), one event in detail. */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api } from "../api/client";
import { useTenant } from "../tenant/tenant-context";
import { ActorName } from "../names/names";
import { StatusTag } from "../ui/bits";
import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { PageHeader } from "../ui/page";
import { Time } from "../ui/time";
import { AuditDetail } from "./audit-detail";
import { AuditFiltersForm, type AuditFilters } from "./audit-filters";
import { ChainStatus } from "./chain-status";

const PAGE = 50;
const tone = (outcome: string) => (outcome === "success" ? "good" : outcome === "denied" || outcome.includes("fail") || outcome.includes("error") ? "bad" : "neutral");

export function AuditPage() {
  const { tenant_id } = useTenant();
  const [filters, setFilters] = useState<AuditFilters>({});
  // Cursors of the pages before the current one; the last is the current page's.
  const [cursors, setCursors] = useState<string[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const cursor = cursors[cursors.length - 1];
  const page = useQuery({
    queryKey: [tenant_id, "audit", filters, cursor],
    queryFn: () => api("get", "/v1/audit", { query: { ...filters, limit: PAGE, ...(cursor ? { cursor } : {}) } }),
    placeholderData: keepPreviousData,
  });
  const events = page.data?.data ?? [];
  const chosen = events.find((event) => event.id === selected);

  return (
    <>
      <PageHeader title="Audit log">
        <p>Every change and every tool call, newest first, in a tamper-evident hash chain.</p>
      </PageHeader>
      <ChainStatus />
      <AuditFiltersForm filters={filters} onChange={(next) => (setFilters(next), setCursors([]), setSelected(null))} />
      {page.isPending ? <Loading label="Loading audit events…" /> : null}
      <ErrorMessage error={page.error} prefix="The audit log could not be loaded" />
      {page.data && events.length === 0 ? <EmptyState>No audit events match.</EmptyState> : null}
      {chosen ? <AuditDetail event={chosen} onClose={() => setSelected(null)} /> : null}
      {events.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Audit events, page {cursors.length + 1}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Tool</th>
                <th scope="col">Outcome</th>
                <th scope="col">
                  <span className="visually-hidden">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {events.map((event) => (
                <tr key={event.id} className={event.id === selected ? "selected" : undefined}>
                  <td>
                    <Time value={event.occurred_at} />
                  </td>
                  <td>
                    <ActorName actor={event.actor} />
                  </td>
                  <td>{event.action}</td>
                  <td>{event.tool_name ?? "—"}</td>
                  <td>
                    <StatusTag status={event.outcome} tone={tone(event.outcome)} />
                  </td>
                  <td>
                    <button type="button" className="button button-secondary" aria-pressed={event.id === selected} onClick={() => setSelected(event.id === selected ? null : event.id)}>
                      Details
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <nav className="button-row" aria-label="Audit log pages">
        <button type="button" className="button button-secondary" disabled={cursors.length === 0} onClick={() => setCursors((stack) => stack.slice(0, -1))}>
          Newer events
        </button>
        <span className="muted">Page {cursors.length + 1}</span>
        <button type="button" className="button button-secondary" disabled={!page.data?.next_cursor} onClick={() => page.data?.next_cursor && setCursors((stack) => [...stack, page.data.next_cursor!])}>
          Older events
        </button>
      </nav>
    </>
  );
}
