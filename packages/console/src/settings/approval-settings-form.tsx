/**
 * Where approval requests go besides the console, for rules that name no channels: Slack (a
 * channel, posted through one of the tenant's Slack connections) and email (to each approver's
 * address). A failing channel never loses a request: it stays in the console.
 */
import { useId, useState, type FormEvent } from "react";
import type { ApprovalSettings } from "../api/types";
import { ErrorMessage, Loading, Notice } from "../ui/feedback";
import { useTenant } from "../tenant/tenant-context";
import { Time } from "../ui/time";
import { WriteButton } from "../ui/write-button";
import { useApprovalSettings, useSaveApprovalSettings, useSlackConnections } from "./settings-queries";

type Channel = ApprovalSettings["channels"][number];

function SettingsForm({ settings }: { settings: ApprovalSettings }) {
  const [channels, setChannels] = useState<Channel[]>(settings.channels);
  const [connection, setConnection] = useState(settings.slack?.connected_account_id ?? "");
  const [slackChannel, setSlackChannel] = useState(settings.slack?.channel ?? "");
  const save = useSaveApprovalSettings();
  const slackConnections = useSlackConnections();
  const connectionId = useId();
  const channelId = useId();
  const toggle = (channel: Channel, on: boolean) => (save.reset(), setChannels((now) => (on ? [...now.filter((entry) => entry !== channel), channel] : now.filter((entry) => entry !== channel))));
  const slackIncomplete = channels.includes("slack") && (!connection || !slackChannel.trim());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ channels, slack: connection && slackChannel.trim() ? { connected_account_id: connection, channel: slackChannel.trim() } : null });
  };
  return (
    <form className="card stack" onSubmit={submit} aria-label="Approval channels">
      <fieldset className="stack">
        <legend>Send approval requests to</legend>
        <label className="checkbox">
          <input type="checkbox" checked={channels.includes("slack")} onChange={(event) => toggle("slack", event.target.checked)} />
          Slack: a message with Approve and Deny buttons in a channel
        </label>
        <label className="checkbox">
          <input type="checkbox" checked={channels.includes("email")} onChange={(event) => toggle("email", event.target.checked)} />
          Email: one message per approver, with single-use links
        </label>
        <p className="field-hint">Policy rules that name their own channels use those instead. The console always shows every request.</p>
      </fieldset>
      <fieldset className="stack">
        <legend>Slack</legend>
        <div className="form-grid">
          <div className="field">
            <label htmlFor={connectionId}>Slack connection</label>
            <select id={connectionId} value={connection} onChange={(event) => (save.reset(), setConnection(event.target.value))}>
              <option value="">{slackConnections.data?.length === 0 ? "No active Slack connection" : "Choose a connection"}</option>
              {(slackConnections.data ?? []).map((entry) => (
                <option key={entry.connected_account_id} value={entry.connected_account_id}>
                  {entry.label ?? entry.display_name} ({entry.env})
                </option>
              ))}
            </select>
            <p className="field-hint">Messages are posted as this connection. Connect Slack under Connections first.</p>
          </div>
          <div className="field">
            <label htmlFor={channelId}>Slack channel</label>
            <input id={channelId} value={slackChannel} placeholder="#approvals or C0123ABCD" spellCheck={false} onChange={(event) => (save.reset(), setSlackChannel(event.target.value))} />
            <p className="field-hint">Invite the connection's Slack app to the channel.</p>
          </div>
        </div>
        <ErrorMessage error={slackConnections.error} prefix="The Slack connections could not be loaded" />
      </fieldset>
      {slackIncomplete ? <p className="warning">Slack needs a connection and a channel.</p> : null}
      <ErrorMessage error={save.error} prefix="The approval channels were not saved" />
      {save.isSuccess ? <Notice tone="success">Saved the approval channels.</Notice> : null}
      {settings.updated_at ? (
        <p className="muted">
          Last changed <Time value={settings.updated_at} showRelative />.
        </p>
      ) : null}
      <div className="button-row">
        <WriteButton type="submit" variant="primary" busy={save.isPending} disabled={slackIncomplete}>
          Save approval channels
        </WriteButton>
      </div>
    </form>
  );
}

export function ApprovalSettingsForm() {
  const { canWrite } = useTenant();
  if (!canWrite) return <Notice>Only admins see and change the approval channels.</Notice>;
  return <LoadedSettingsForm />;
}

function LoadedSettingsForm() {
  const settings = useApprovalSettings();
  if (settings.isPending) return <Loading label="Loading the approval channels…" />;
  if (!settings.data) return <ErrorMessage error={settings.error} prefix="The approval channels could not be loaded" />;
  return <SettingsForm settings={settings.data} />;
}
