/** The connections table with Revoke (after a confirmation) on each active connection, and why an expired one needs a reconnect. */
import { useState } from "react";
import type { Connection } from "../api/types";
import { ProviderName } from "../names/names";
import { useProviderNames } from "../names/name-queries";
import { StatusTag } from "../ui/bits";
import { CopyButton } from "../ui/copy-button";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { Time } from "../ui/time";
import { WriteButton } from "../ui/write-button";
import { useRevokeConnection } from "./connection-queries";

const TONE = { active: "good", expired: "warn", revoked: "neutral" } as const;

/** What happened to an expired connection, and what to do about it. */
const RECONNECT_HINT: Record<NonNullable<Connection["reconnect_reason"]>, string> = {
  origin_changed: "The provider's address changed since this account was connected; the broker sends its tokens nowhere else. Connect the account again.",
  refresh_interrupted: "A token refresh was cut short (the broker stopped mid-refresh) and the provider no longer accepts the old token. Connect the account again.",
  refresh_refused: "The provider refused to renew the tokens (access withdrawn or expired there). Connect the account again.",
};

function reconnectHint(connection: Connection): string | undefined {
  if (connection.status !== "expired") return undefined;
  const hint = connection.reconnect_reason ? RECONNECT_HINT[connection.reconnect_reason] : "Connect the account again.";
  return connection.end_user_id ? hint.replace("Connect the account again.", "Its end user must connect it again (send them a connect link).") : hint;
}

export function ConnectionTable({ connections, onRevoked }: { connections: Connection[]; onRevoked(message: string): void }) {
  const revoke = useRevokeConnection();
  const providerName = useProviderNames();
  const [confirming, setConfirming] = useState<Connection | null>(null);
  const confirm = () => {
    if (!confirming) return;
    revoke.mutate(confirming.connected_account_id, {
      onSuccess: (revoked) => {
        setConfirming(null);
        onRevoked(`Revoked ${revoked.display_name} (${providerName(revoked.provider)}).${revoked.upstream_revocation === "failed" ? " The provider did not confirm the revocation; the broker deleted its tokens anyway." : ""}`);
      },
    });
  };
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Connections</caption>
        <thead>
          <tr>
            <th scope="col">Provider</th>
            <th scope="col">Account</th>
            <th scope="col">connected_account_id</th>
            <th scope="col">Owner</th>
            <th scope="col">Label</th>
            <th scope="col">Status</th>
            <th scope="col">Env</th>
            <th scope="col">Last used</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {connections.map((connection) => (
            <tr key={connection.connected_account_id}>
              <td>
                <ProviderName id={connection.provider} />
              </td>
              <td>{connection.display_name}</td>
              <td className="id-cell">
                <span className="mono">{connection.connected_account_id}</span> <CopyButton value={connection.connected_account_id} label={`Copy the connected_account_id of ${connection.display_name}`} />
              </td>
              <td>{connection.end_user_id ? <>End user <span className="mono">{connection.end_user_id}</span></> : "Operator (shared)"}</td>
              <td>{connection.label ?? <span className="muted">—</span>}</td>
              <td>
                <StatusTag status={connection.status} tone={TONE[connection.status]} />
                {reconnectHint(connection) ? <p className="field-hint">{reconnectHint(connection)}</p> : null}
              </td>
              <td>{connection.env}</td>
              <td>
                <Time value={connection.last_used_at} />
              </td>
              <td>
                {connection.status !== "revoked" ? (
                  <WriteButton variant="danger" onClick={() => (revoke.reset(), setConfirming(connection))}>
                    Revoke
                  </WriteButton>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {confirming ? (
        <ConfirmDialog title={`Revoke ${confirming.display_name} (${providerName(confirming.provider)})?`} confirmLabel="Revoke connection" onConfirm={confirm} onCancel={() => setConfirming(null)} busy={revoke.isPending} error={revoke.error}>
          <p>Agents lose access at once: the broker deletes the stored tokens and asks the provider to revoke them. This cannot be undone; connect again to restore access.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
