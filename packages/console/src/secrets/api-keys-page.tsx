/**
 * API keys: the vault's secret items for providers that take a key instead of OAuth (Linear, a
 * tenant's own API). Store one (shared, or for one end user), see each with its hint, rotate it,
 * delete it. Reached from the navigation and from a provider's Add API key on Connections, which
 * opens the form for that provider (?provider=…&env=…).
 */
import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import type { Env } from "../api/types";
import { useProviders } from "../tools/catalogue-queries";
import { useTenant } from "../tenant/tenant-context";
import { CopyButton } from "../ui/copy-button";
import { EmptyState, ErrorMessage, Loading, Notice } from "../ui/feedback";
import { PageHeader, Section } from "../ui/page";
import { SecretForm } from "./secret-form";
import { useSecretItems, type SecretFilters } from "./secret-queries";
import { SecretTable } from "./secret-table";

type Stored = { name: string; id: string; provider: string; hint: string | null };

export function ApiKeysPage() {
  const { canWrite } = useTenant();
  const [params] = useSearchParams();
  const catalogue = useProviders();
  const keyProviders = (catalogue.data?.data ?? []).filter((provider) => provider.auth_modes.includes("api_key"));
  const nameOf = (id: string) => keyProviders.find((provider) => provider.id === id)?.display_name ?? id;
  const [filters, setFilters] = useState<SecretFilters>({});
  const items = useSecretItems(filters);
  const [stored, setStored] = useState<Stored | null>(null);
  const [changed, setChanged] = useState<string | null>(null);
  const initialEnv: Env = params.get("env") === "live" ? "live" : "test";

  return (
    <>
      <PageHeader title="API keys">
        <p>
          Keys for providers that take an API key instead of OAuth. The broker keeps each one encrypted and sends it only to its provider; agents name it by its <code>secret_item_id</code> in{" "}
          <code>POST /v1/tools/execute</code>. A key is write-only: after you store it, nobody sees it again.
        </p>
      </PageHeader>
      <Section title="Store an API key" id="store-key-heading">
        {catalogue.isPending ? <Loading label="Loading providers…" /> : null}
        <ErrorMessage error={catalogue.error} prefix="The providers could not be loaded" />
        {catalogue.data && keyProviders.length === 0 ? <EmptyState>No provider of this tenant takes API keys. Declare one on the Tools page.</EmptyState> : null}
        {stored ? (
          <div className="message message-success connected-notice" role="status">
            <p>
              <span className="message-icon" aria-hidden="true">✓</span>
              Stored the API key {stored.name} for {nameOf(stored.provider)}
              {stored.hint ? <> (ends in <span className="mono">{stored.hint}</span>)</> : null}. Agents use it by passing this <code>secret_item_id</code>:
            </p>
            <p>
              <span className="mono">{stored.id}</span> <CopyButton value={stored.id} label="Copy the secret_item_id" />
            </p>
          </div>
        ) : null}
        {keyProviders.length > 0 ? (
          <SecretForm
            key={`${params.get("provider") ?? ""}-${initialEnv}`}
            providers={keyProviders}
            initialProvider={params.get("provider") ?? ""}
            initialEnv={initialEnv}
            onStored={(item) => (setChanged(null), setStored(item))}
          />
        ) : null}
        {canWrite ? null : <p className="field-hint">Only admins store, rotate and delete keys.</p>}
      </Section>
      <Section title="Stored keys" id="stored-keys-heading">
        <div className="filters card" role="group" aria-label="Filter API keys">
          <div className="field">
            <label htmlFor="secrets-filter-provider">Provider</label>
            <select id="secrets-filter-provider" value={filters.provider ?? ""} onChange={(event) => setFilters((current) => ({ ...current, provider: event.target.value || undefined }))}>
              <option value="">Any</option>
              {keyProviders.map((provider) => (
                <option key={provider.id} value={provider.id}>
                  {provider.display_name} ({provider.id})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="secrets-filter-end-user">End user id</label>
            <input id="secrets-filter-end-user" value={filters.end_user_id ?? ""} maxLength={255} onChange={(event) => setFilters((current) => ({ ...current, end_user_id: event.target.value || undefined }))} />
          </div>
        </div>
        {changed ? <Notice tone="success">{changed}</Notice> : null}
        {items.isPending ? <Loading label="Loading API keys…" /> : null}
        <ErrorMessage error={items.error} prefix="The API keys could not be loaded" />
        {items.data && items.data.data.length === 0 ? <EmptyState>No API keys match.</EmptyState> : null}
        {items.data && items.data.data.length > 0 ? <SecretTable items={items.data.data} onChanged={(message) => (setStored(null), setChanged(message))} /> : null}
      </Section>
    </>
  );
}
