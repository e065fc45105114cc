/** The tenant's API keys as metadata: hint, owner, status and use; Rotate (a new value, in a dialog) and Delete (after a confirmation). */
import { useState } from "react";
import type { ApiResult } from "../api/types";
import { ProviderName } from "../names/names";
import { useProviderNames } from "../names/name-queries";
import { StatusTag } from "../ui/bits";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { CopyButton } from "../ui/copy-button";
import { Time } from "../ui/time";
import { WriteButton } from "../ui/write-button";
import { useDeleteSecretItem, useRotateSecretItem } from "./secret-queries";

type SecretItem = ApiResult<"get", "/v1/secrets">["data"][number];

export function SecretTable({ items, onChanged }: { items: SecretItem[]; onChanged(message: string): void }) {
  const providerName = useProviderNames();
  const [rotating, setRotating] = useState<SecretItem | null>(null);
  const [deleting, setDeleting] = useState<SecretItem | null>(null);
  const remove = useDeleteSecretItem();
  const confirmDelete = () =>
    deleting &&
    remove.mutate(deleting.secret_item_id, {
      onSuccess: (deleted) => (setDeleting(null), onChanged(`Deleted the API key ${deleted.name} (${providerName(deleted.provider)}). Agents naming it now get 404.`)),
    });
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">API keys</caption>
        <thead>
          <tr>
            <th scope="col">Provider</th>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Owner</th>
            <th scope="col">Env</th>
            <th scope="col">Status</th>
            <th scope="col">Last used</th>
            <th scope="col">secret_item_id</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((item) => (
            <tr key={item.secret_item_id}>
              <td>
                <ProviderName id={item.provider} />
              </td>
              <td>{item.label ? `${item.label} (${item.name})` : item.name}</td>
              <td className="mono hint-cell">{item.value_hint ? `••••${item.value_hint}` : <span className="muted">hidden</span>}</td>
              <td>{item.end_user_id ? <>End user <span className="mono">{item.end_user_id}</span></> : "Shared"}</td>
              <td>{item.env}</td>
              <td>
                {item.reconnect_reason ? <StatusTag status="Store again" tone="warn" /> : <StatusTag status="Usable" tone="good" />}
                {item.reconnect_reason ? <p className="field-hint">The provider's address changed since this key was stored; the broker sends it nowhere else. Rotate it to store it again.</p> : null}
              </td>
              <td>
                <Time value={item.last_used_at} />
              </td>
              <td className="id-cell">
                <span className="mono">{item.secret_item_id}</span> <CopyButton value={item.secret_item_id} label={`Copy the secret_item_id of ${item.name}`} />
              </td>
              <td>
                <div className="button-row">
                  <WriteButton onClick={() => (setRotating(item))}>Rotate</WriteButton>
                  <WriteButton variant="danger" onClick={() => (remove.reset(), setDeleting(item))}>
                    Delete
                  </WriteButton>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rotating ? <RotateDialog item={rotating} onDone={(message) => (setRotating(null), message && onChanged(message))} /> : null}
      {deleting ? (
        <ConfirmDialog title={`Delete the API key ${deleting.name} (${providerName(deleting.provider)})?`} confirmLabel="Delete API key" onConfirm={confirmDelete} onCancel={() => setDeleting(null)} busy={remove.isPending} error={remove.error}>
          <p>Agents naming its secret_item_id get 404 from then on. The broker keeps no copy: to use the key again, store it again.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}

/** A new value for the item, typed into the dialog; the item keeps its id, so agents need no change. */
function RotateDialog({ item, onDone }: { item: SecretItem; onDone(message: string | null): void }) {
  const rotate = useRotateSecretItem();
  const providerName = useProviderNames();
  const [value, setValue] = useState("");
  const confirm = () => {
    if (!value) return;
    rotate.mutate(
      { id: item.secret_item_id, value },
      { onSuccess: (rotated) => (setValue(""), onDone(`Rotated ${rotated.name} (${providerName(rotated.provider)})${rotated.value_hint ? `: the key now ends in ${rotated.value_hint}` : ""}. The next call sends the new key.`)) },
    );
  };
  return (
    <ConfirmDialog title={`Rotate ${item.name} (${providerName(item.provider)})`} confirmLabel="Replace the key" danger={false} onConfirm={confirm} onCancel={() => onDone(null)} busy={rotate.isPending} error={rotate.error}>
      <p>The new key replaces the old one at once; the item keeps its secret_item_id.</p>
      <div className="field">
        <label htmlFor="rotate-value">New API key</label>
        <input id="rotate-value" type="password" autoComplete="off" spellCheck={false} value={value} maxLength={8192} required onChange={(event) => setValue(event.target.value)} />
      </div>
    </ConfirmDialog>
  );
}
