/** Agent apps: create one, disable one (after a confirmation). */
import { useState, type FormEvent } from "react";
import type { AgentApp } from "../api/types";
import { StatusTag } from "../ui/bits";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { EmptyState, ErrorMessage, Loading, Notice } from "../ui/feedback";
import { Section } from "../ui/page";
import { Time } from "../ui/time";
import { WriteButton } from "../ui/write-button";
import { useAgentApps, useCreateAgentApp, useDisableAgentApp } from "./agent-app-queries";

export function AgentAppSection() {
  const apps = useAgentApps();
  const create = useCreateAgentApp();
  const disable = useDisableAgentApp();
  const [name, setName] = useState("");
  const [confirming, setConfirming] = useState<AgentApp | null>(null);
  const [announcement, setAnnouncement] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name.trim(), { onSuccess: (app) => (setName(""), setAnnouncement(`Created agent app ${app.name}.`)) });
  };
  const confirmDisable = () =>
    confirming && disable.mutate(confirming.id, { onSuccess: (app) => (setConfirming(null), setAnnouncement(`Disabled agent app ${app.name}.`)) });

  return (
    <Section title="Agent apps" id="agent-apps-heading">
      <form className="filters card" onSubmit={submit}>
        <div className="field">
          <label htmlFor="agent-app-name">Agent app name</label>
          <input id="agent-app-name" value={name} maxLength={200} onChange={(event) => setName(event.target.value)} required />
        </div>
        <WriteButton type="submit" variant="primary" busy={create.isPending} disabled={name.trim() === ""}>
          Create agent app
        </WriteButton>
      </form>
      <ErrorMessage error={create.error} prefix="The agent app was not created" />
      {announcement ? <Notice tone="success">{announcement}</Notice> : null}
      {apps.isPending ? <Loading label="Loading agent apps…" /> : null}
      <ErrorMessage error={apps.error} prefix="The agent apps could not be loaded" />
      {apps.data?.data.length === 0 ? <EmptyState>No agent apps yet.</EmptyState> : null}
      {apps.data && apps.data.data.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Agent apps</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Agent app id</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {apps.data.data.map((app) => (
                <tr key={app.id}>
                  <td>{app.name}</td>
                  <td>{app.status === "active" ? <StatusTag status="active" tone="good" /> : <StatusTag status="disabled" tone="neutral" />}</td>
                  <td className="mono">{app.id}</td>
                  <td>
                    <Time value={app.created_at} />
                  </td>
                  <td>
                    {app.status === "active" ? (
                      <WriteButton variant="danger" onClick={() => (disable.reset(), setConfirming(app))}>
                        Disable
                      </WriteButton>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {confirming ? (
        <ConfirmDialog title={`Disable ${confirming.name}?`} confirmLabel="Disable agent app" onConfirm={confirmDisable} onCancel={() => setConfirming(null)} busy={disable.isPending} error={disable.error}>
          <p>It can no longer mint broker JWTs. Tokens already minted keep working until they expire (minutes). This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
