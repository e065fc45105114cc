/** Where the broker sent the approval besides the console (Slack, email), and how that went. */
import type { Approval } from "../api/types";
import { StatusTag } from "../ui/bits";
import { Time } from "../ui/time";

const CHANNEL = { slack: "Slack", email: "Email" } as const;
const PURPOSE = { request: "Request", reminder: "Reminder", outcome: "Outcome" } as const;

function DeliveryStatus({ status }: { status: Approval["deliveries"][number]["status"] }) {
  if (status === "sent") return <StatusTag status="Sent" tone="good" />;
  if (status === "gave_up") return <StatusTag status="Gave up (decide here)" tone="bad" />;
  return <StatusTag status="Sending" tone="warn" />;
}

export function DeliveriesList({ deliveries }: { deliveries: Approval["deliveries"] }) {
  if (deliveries.length === 0) return <p className="muted">Only in the console: no Slack or email channel for this approval.</p>;
  // A list rather than a table: it wraps at phone width instead of scrolling sideways.
  return (
    <ul className="plain-list deliveries" aria-label="Channel deliveries">
      {deliveries.map((delivery) => (
        <li key={`${delivery.channel}:${delivery.purpose}`} className="delivery">
          <strong>
            {CHANNEL[delivery.channel]}: {PURPOSE[delivery.purpose]}
          </strong>
          <DeliveryStatus status={delivery.status} />
          <span className="muted">
            {delivery.sent_at ? (
              <>
                sent <Time value={delivery.sent_at} />
              </>
            ) : (
              "not sent yet"
            )}
            , {delivery.attempts} {delivery.attempts === 1 ? "attempt" : "attempts"}
          </span>
          {delivery.last_error ? <span className="delivery-error">Last error: {delivery.last_error}</span> : null}
        </li>
      ))}
    </ul>
  );
}
