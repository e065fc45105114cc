/** Filters for the connections list, kept in the URL so a filtered view can be linked to. */
import { useState, type FormEvent } from "react";
import type { ConnectionFilters } from "./connection-queries";

const STATUSES = ["active", "expired", "revoked"] as const;

export function ConnectionFiltersForm({ filters, providers, onChange }: { filters: ConnectionFilters; providers: { id: string; name: string }[]; onChange(next: ConnectionFilters): void }) {
  const [draft, setDraft] = useState<ConnectionFilters>(filters);
  const set = (patch: Partial<ConnectionFilters>) => setDraft((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(draft);
  };
  const clear = () => {
    setDraft({});
    onChange({});
  };
  return (
    <form className="filters card" onSubmit={submit} aria-label="Filter connections">
      <div className="field">
        <label htmlFor="filter-provider">Provider</label>
        <select id="filter-provider" value={draft.provider ?? ""} onChange={(event) => set({ provider: event.target.value || undefined })}>
          <option value="">Any</option>
          {providers.map((provider) => (
            <option key={provider.id} value={provider.id}>
              {provider.name} ({provider.id})
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-status">Status</label>
        <select id="filter-status" value={draft.status ?? ""} onChange={(event) => set({ status: (event.target.value || undefined) as ConnectionFilters["status"] })}>
          <option value="">Any</option>
          {STATUSES.map((status) => (
            <option key={status}>{status}</option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-env">Environment</label>
        <select id="filter-env" value={draft.env ?? ""} onChange={(event) => set({ env: (event.target.value || undefined) as ConnectionFilters["env"] })}>
          <option value="">Any</option>
          <option value="test">test</option>
          <option value="live">live</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-end-user">End user id</label>
        <input id="filter-end-user" value={draft.end_user_id ?? ""} onChange={(event) => set({ end_user_id: event.target.value || undefined })} />
      </div>
      <div className="button-row">
        <button type="submit" className="button button-primary">
          Apply filters
        </button>
        <button type="button" className="button button-secondary" onClick={clear}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
