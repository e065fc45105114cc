/** Control keys per env: create (the key shown once), revoke (after a confirmation). */
import { useState, type FormEvent } from "react";
import type { ControlKey, CreatedControlKey, Env } from "../api/types";
import { StatusTag } from "../ui/bits";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { EmptyState, ErrorMessage, Loading, Notice } from "../ui/feedback";
import { Section } from "../ui/page";
import { SecretOnce } from "../ui/secret-once";
import { Time } from "../ui/time";
import { WriteButton } from "../ui/write-button";
import { useControlKeys, useCreateControlKey, useRevokeControlKey } from "./agent-app-queries";

export function ControlKeySection() {
  const keys = useControlKeys();
  const create = useCreateControlKey();
  const revoke = useRevokeControlKey();
  const [env, setEnv] = useState<Env>("test");
  const [name, setName] = useState("");
  const [created, setCreated] = useState<CreatedControlKey | null>(null);
  const [confirming, setConfirming] = useState<ControlKey | null>(null);
  const [announcement, setAnnouncement] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAnnouncement(null);
    create.mutate({ env, name: name.trim() }, { onSuccess: (key) => (setName(""), setCreated(key)) });
  };
  const confirmRevoke = () =>
    confirming && revoke.mutate(confirming.id, { onSuccess: (key) => (setConfirming(null), setAnnouncement(`Revoked control key ${key.name} (${key.prefix}…).`)) });
  const sorted = [...(keys.data?.data ?? [])].sort((a, b) => a.env.localeCompare(b.env) || b.created_at.localeCompare(a.created_at));

  return (
    <Section title="Control keys" id="control-keys-heading">
      <p className="field-hint">Your backend uses a control key to mint broker JWTs and call the broker. A test key works only in the test environment, a live key only in live.</p>
      <form className="filters card" onSubmit={submit}>
        <div className="field">
          <label htmlFor="key-env">Environment</label>
          <select id="key-env" value={env} onChange={(event) => setEnv(event.target.value as Env)}>
            <option value="test">test</option>
            <option value="live">live</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="key-name">Key name (optional)</label>
          <input id="key-name" value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
        </div>
        <WriteButton type="submit" variant="primary" busy={create.isPending}>
          Create control key
        </WriteButton>
      </form>
      <ErrorMessage error={create.error} prefix="The key was not created" />
      {created ? <SecretOnce label={`New ${created.env} control key “${created.name}”`} value={created.key} onDismiss={() => setCreated(null)} /> : null}
      {announcement ? <Notice tone="success">{announcement}</Notice> : null}
      {keys.isPending ? <Loading label="Loading control keys…" /> : null}
      <ErrorMessage error={keys.error} prefix="The control keys could not be loaded" />
      {keys.data?.data.length === 0 ? <EmptyState>No control keys yet.</EmptyState> : null}
      {sorted.length > 0 ? (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Control keys</caption>
            <thead>
              <tr>
                <th scope="col">Env</th>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sorted.map((key) => (
                <tr key={key.id}>
                  <td>{key.env}</td>
                  <td>{key.name}</td>
                  <td className="mono">{key.prefix}…</td>
                  <td>{key.status === "active" ? <StatusTag status="active" tone="good" /> : <StatusTag status="revoked" tone="neutral" />}</td>
                  <td>
                    <Time value={key.created_at} />
                  </td>
                  <td>
                    <Time value={key.last_used_at} />
                  </td>
                  <td>
                    {key.status === "active" ? (
                      <WriteButton variant="danger" onClick={() => (revoke.reset(), setConfirming(key))}>
                        Revoke
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
        <ConfirmDialog title={`Revoke control key ${confirming.name}?`} confirmLabel="Revoke key" onConfirm={confirmRevoke} onCancel={() => setConfirming(null)} busy={revoke.isPending} error={revoke.error}>
          <p>
            Calls with <span className="mono">{confirming.prefix}…</span> fail from now on. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
