/** Audit filters; times are entered in local time and sent as ISO timestamps. */
import { useState, type FormEvent } from "react";
import type { ApiQuery } from "../api/types";
import { useAgentApps } from "../agent-apps/agent-app-queries";

export type AuditFilters = Omit<ApiQuery<"get", "/v1/audit">, "limit" | "cursor">;

const toLocalInput = (iso: string | undefined) => {
  if (!iso) return "";
  const date = new Date(iso);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};
const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : undefined);

export function AuditFiltersForm({ filters, onChange }: { filters: AuditFilters; onChange(next: AuditFilters): void }) {
  const apps = useAgentApps();
  const [draft, setDraft] = useState<AuditFilters>(filters);
  const set = (patch: Partial<AuditFilters>) => setDraft((current) => ({ ...current, ...patch }));
  const text = (key: "action" | "tool" | "outcome" | "end_user_id", label: string, placeholder?: string) => (
    <div className="field">
      <label htmlFor={`audit-${key}`}>{label}</label>
      <input id={`audit-${key}`} value={draft[key] ?? ""} placeholder={placeholder} onChange={(event) => set({ [key]: event.target.value || undefined })} />
    </div>
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange(draft);
  };
  return (
    <form className="filters card" onSubmit={submit} aria-label="Filter the audit log">
      {text("action", "Action", "e.g. approval.decided")}
      {text("tool", "Tool")}
      {text("outcome", "Outcome", "e.g. success")}
      <div className="field">
        <label htmlFor="audit-agent-app">Agent app</label>
        <select id="audit-agent-app" value={draft.agent_app_id ?? ""} onChange={(event) => set({ agent_app_id: event.target.value || undefined })}>
          <option value="">Any</option>
          {apps.data?.data.map((app) => (
            <option key={app.id} value={app.id}>
              {app.name}
            </option>
          ))}
        </select>
      </div>
      {text("end_user_id", "End user")}
      <div className="field">
        <label htmlFor="audit-since">Since</label>
        <input id="audit-since" type="datetime-local" value={toLocalInput(draft.since)} onChange={(event) => set({ since: fromLocalInput(event.target.value) })} />
      </div>
      <div className="field">
        <label htmlFor="audit-until">Until</label>
        <input id="audit-until" type="datetime-local" value={toLocalInput(draft.until)} onChange={(event) => set({ until: fromLocalInput(event.target.value) })} />
      </div>
      <div className="button-row">
        <button type="submit" className="button button-primary">
          Apply filters
        </button>
        <button type="button" className="button button-secondary" onClick={() => (setDraft({}), onChange({}))}>
          Clear filters
        </button>
      </div>
    </form>
  );
}
