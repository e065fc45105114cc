/** Every provider the tenant sees, built-in and custom, one tab each: its summary, its tools, and the OpenAPI import. */
import { useState } from "react";
import { ErrorMessage, Loading } from "../ui/feedback";
import { Section } from "../ui/page";
import { Tabs } from "../ui/tabs";
import type { CatalogueProvider } from "../api/types";
import { useProviders, useProviderTools } from "./catalogue-queries";
import { ScopeTable } from "./provider-identity";
import { ImportForm } from "./import-form";
import { ProviderDeclare } from "./provider-declare";
import { ProviderSummary } from "./provider-summary";
import { ProviderTools } from "./provider-tools";

export function ProviderCatalogue() {
  const providers = useProviders();
  const [chosen, setChosen] = useState<string | null>(null);
  const list = providers.data?.data ?? [];
  // A provider deleted meanwhile (here or by another operator) falls back to the first one.
  const selected = list.find((provider) => provider.id === chosen) ?? list[0];

  return (
    <Section title="Providers and their tools" id="providers-heading">
      <p className="field-hint">Built-in tools come with the broker; custom and imported ones are this tenant's own, and go through the same policy, approvals and audit.</p>
      {providers.isPending ? <Loading label="Loading providers…" /> : null}
      <ErrorMessage error={providers.error} prefix="The providers could not be loaded" />
      {selected ? (
        <Tabs label="Providers" tabs={list.map((provider) => ({ id: provider.id, label: provider.source === "custom" ? `${provider.id} (custom)` : provider.id }))} selected={selected.id} onSelect={setChosen}>
          <div className="stack">
            <ProviderSummary key={selected.id} provider={selected} onDeleted={() => setChosen(null)} />
            <ProviderScopes provider={selected} />
            <ProviderTools provider={selected.id} />
            <ImportForm key={`import-${selected.id}`} provider={selected.id} />
          </div>
        </Tabs>
      ) : null}
      <ProviderDeclare onCreated={setChosen} />
    </Section>
  );
}

/** The scopes the provider asks for and which of its tools need each one. */
function ProviderScopes({ provider }: { provider: CatalogueProvider }) {
  const tools = useProviderTools(provider.id);
  if (!provider.auth_modes.includes("oauth2") || !tools.data) return null;
  return (
    <div className="stack">
      <h4>OAuth scopes</h4>
      <ScopeTable provider={provider} tools={tools.data.data} />
    </div>
  );
}
