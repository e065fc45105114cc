/** The actions on one endpoint that need more than a click: enable/disable, rotate secret, send test, edit events. */
import { useState } from "react";
import type { CreatedWebhook, WebhookEndpoint } from "../api/types";
import { ConfirmDialog } from "../ui/confirm-dialog";
import { ErrorMessage, Notice } from "../ui/feedback";
import { SecretOnce } from "../ui/secret-once";
import { Time } from "../ui/time";
import { WriteButton } from "../ui/write-button";
import { EventPicker, type EventChoice } from "./event-picker";
import { useRotateSecret, useSendTest, useUpdateWebhook } from "./webhook-queries";

export function EnableToggle({ endpoint }: { endpoint: WebhookEndpoint }) {
  const update = useUpdateWebhook(endpoint.id);
  const enabled = endpoint.status === "enabled";
  return (
    <>
      <WriteButton variant={enabled ? "danger" : "secondary"} busy={update.isPending} onClick={() => update.mutate({ enabled: !enabled })}>
        {enabled ? "Disable" : "Enable"}
      </WriteButton>
      <ErrorMessage error={update.error} />
    </>
  );
}

export function RotateSecret({ endpoint }: { endpoint: WebhookEndpoint }) {
  const rotate = useRotateSecret(endpoint.id);
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState<CreatedWebhook | null>(null);
  const confirm = () => rotate.mutate(undefined, { onSuccess: (result) => (setConfirming(false), setRotated(result)) });
  return (
    <>
      <WriteButton onClick={() => (rotate.reset(), setConfirming(true))}>Rotate secret</WriteButton>
      {confirming ? (
        <ConfirmDialog title="Rotate the signing secret?" confirmLabel="Rotate now" onConfirm={confirm} onCancel={() => setConfirming(false)} busy={rotate.isPending} error={rotate.error} danger={false}>
          <p>Deliveries are signed with the new secret from now on; the old one keeps signing alongside it for 24 hours so receivers can switch.</p>
        </ConfirmDialog>
      ) : null}
      {rotated ? (
        <div className="full-width">
          <SecretOnce label={`New signing secret for ${rotated.url}`} value={rotated.secret} onDismiss={() => setRotated(null)} />
          {rotated.previous_secret_expires_at ? (
            <p className="field-hint">
              The previous secret stops at <Time value={rotated.previous_secret_expires_at} />.
            </p>
          ) : null}
        </div>
      ) : null}
    </>
  );
}

export function SendTest({ endpoint }: { endpoint: WebhookEndpoint }) {
  const test = useSendTest(endpoint.id);
  const result = test.data;
  return (
    <>
      <WriteButton busy={test.isPending} onClick={() => test.mutate()}>
        Send test
      </WriteButton>
      <ErrorMessage error={test.error} prefix="The test was not sent" />
      {result?.success ? <Notice tone="success">Test delivered: HTTP {result.http_status} in {result.latency_ms} ms.</Notice> : null}
      {result && !result.success ? (
        <p className="message message-error" role="alert">
          Test failed: {result.error ?? `HTTP ${result.http_status}`} ({result.latency_ms} ms).
        </p>
      ) : null}
    </>
  );
}

export function EditEvents({ endpoint, onDone }: { endpoint: WebhookEndpoint; onDone(): void }) {
  const update = useUpdateWebhook(endpoint.id);
  const [events, setEvents] = useState<EventChoice>(endpoint.events);
  const save = () => update.mutate({ events }, { onSuccess: onDone });
  return (
    <div className="stack full-width">
      <EventPicker value={events} onChange={setEvents} />
      <ErrorMessage error={update.error} prefix="The events were not saved" />
      <div className="button-row">
        <WriteButton variant="primary" busy={update.isPending} onClick={save} disabled={events !== null && events.length === 0}>
          Save events
        </WriteButton>
        <button type="button" className="button button-secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </div>
  );
}
