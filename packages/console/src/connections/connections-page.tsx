/** Connected accounts (first, so the one just connected is in view), then connecting through OAuth per provider (or going to store an API key). */
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { EmptyState, ErrorMessage, Loading, Notice } from "../ui/feedback";
import { PageHeader, Section } from "../ui/page";
import { useProviders } from "../tools/catalogue-queries";
import { useProviderNames } from "../names/name-queries";
import { ConnectedNotice } from "./connected-notice";
import { useConnections, type ConnectionFilters } from "./connection-queries";
import { ConnectionFiltersForm } from "./connection-filters";
import { ConnectionTable } from "./connection-table";
import { ProvidersPanel } from "./providers-panel";

const FILTER_KEYS = ["provider", "status", "env", "end_user_id"] as const;

export function ConnectionsPage() {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTER_KEYS.flatMap((key) => (params.get(key) ? [[key, params.get(key)]] : []))) as ConnectionFilters;
  const connections = useConnections(filters);
  const providers = (useProviders().data?.data ?? []).map((provider) => ({ id: provider.id, name: provider.display_name }));
  const providerName = useProviderNames();
  const [announcement, setAnnouncement] = useState<string | null>(null);
  // The broker sends the browser back here with ?connected_account_id=… after a connect.
  const connectedId = params.get("connected_account_id");
  const rows = connections.data?.pages.flatMap((page) => page.data) ?? [];
  const connected = connectedId ? rows.find((row) => row.connected_account_id === connectedId) : undefined;

  const applyFilters = (next: ConnectionFilters) => {
    setAnnouncement(null);
    setParams(Object.fromEntries(Object.entries(next).filter(([, value]) => value)) as Record<string, string>, { replace: true });
  };

  const announceRevoked = (message: string) => {
    setAnnouncement(message);
    if (connectedId) setParams(Object.fromEntries([...params].filter(([key]) => key !== "connected_account_id")), { replace: true });
  };

  return (
    <>
      <PageHeader title="Connections">
        <p>Accounts the broker holds tokens for: shared ones an operator connected, and those end users connected for themselves.</p>
      </PageHeader>
      {connectedId ? <ConnectedNotice id={connectedId} account={connected ? `${connected.display_name} (${providerName(connected.provider)})` : undefined} /> : null}
      {announcement ? <Notice tone="success">{announcement}</Notice> : null}
      <Section title="Connected accounts" id="connections-heading">
        <ConnectionFiltersForm key={params.toString()} filters={filters} providers={providers} onChange={applyFilters} />
        {connections.isPending ? <Loading label="Loading connections…" /> : null}
        <ErrorMessage error={connections.error} prefix="The connections could not be loaded" />
        {connections.data && rows.length === 0 ? <EmptyState>No connections match.</EmptyState> : null}
        {rows.length > 0 ? <ConnectionTable connections={rows} onRevoked={announceRevoked} /> : null}
        {connections.hasNextPage ? (
          <button type="button" className="button button-secondary" onClick={() => connections.fetchNextPage()} disabled={connections.isFetchingNextPage}>
            Load more connections
          </button>
        ) : null}
      </Section>
      <ProvidersPanel />
    </>
  );
}
