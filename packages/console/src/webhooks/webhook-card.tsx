/** One endpoint: where it points, what it receives, how its last delivery went, and its actions. */
import { useId, useState } from "react";
import type { WebhookEndpoint } from "../api/types";
import { Details, StatusTag } from "../ui/bits";
import { Time } from "../ui/time";
import { DeliveryLog } from "./delivery-log";
import { EditEvents, EnableToggle, RotateSecret, SendTest } from "./webhook-actions";

const DISABLED_WHY = { operator: "disabled by an operator", endpoint_gone: "the endpoint answered 410 Gone", failing: "deliveries kept failing" } as const;

export function WebhookCard({ endpoint }: { endpoint: WebhookEndpoint }) {
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const last = endpoint.last_delivery;
  return (
    <article className="card stack" aria-labelledby={headingId}>
      <div className="section-header">
        <h3 id={headingId} className="mono">
          {endpoint.url}
        </h3>
        {endpoint.status === "enabled" ? <StatusTag status="Enabled" tone="good" /> : <StatusTag status="Disabled" tone="neutral" />}
      </div>
      <Details
        items={[
          ["Description", endpoint.description || undefined],
          ["Events", endpoint.events ? endpoint.events.join(", ") : "All events"],
          ["Secret starts with", <span className="mono">{endpoint.secret_prefix}…</span>],
          ["Disabled because", endpoint.disabled ? endpoint.disabled.message || DISABLED_WHY[endpoint.disabled.reason] : undefined],
          ["Previous secret valid until", endpoint.previous_secret_expires_at ? <Time value={endpoint.previous_secret_expires_at} /> : undefined],
          [
            "Last delivery",
            last ? (
              <>
                {last.outcome === "succeeded" ? <StatusTag status="succeeded" tone="good" /> : <StatusTag status="failed" tone="bad" />} {last.http_status ? `HTTP ${last.http_status}` : (last.error ?? "")} · <Time value={last.attempted_at} />
              </>
            ) : (
              "none yet"
            ),
          ],
          ["Created", <Time value={endpoint.created_at} />],
        ]}
      />
      <div className="button-row">
        {editing ? null : (
          <button type="button" className="button button-secondary" onClick={() => setEditing(true)}>
            Edit events
          </button>
        )}
        <EnableToggle endpoint={endpoint} />
        <RotateSecret endpoint={endpoint} />
        <SendTest endpoint={endpoint} />
        <button type="button" className="button button-secondary" aria-expanded={showDeliveries} onClick={() => setShowDeliveries((shown) => !shown)}>
          Delivery log
        </button>
      </div>
      {editing ? <EditEvents endpoint={endpoint} onDone={() => setEditing(false)} /> : null}
      {showDeliveries ? <DeliveryLog endpointId={endpoint.id} /> : null}
    </article>
  );
}
