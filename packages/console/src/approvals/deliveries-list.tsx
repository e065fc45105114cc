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
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Channel deliveries</caption>
        <thead>
          <tr>
            <th scope="col">Channel</th>
            <th scope="col">What</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Sent</th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <tr key={`${delivery.channel}:${delivery.purpose}`}>
              <td>{CHANNEL[delivery.channel]}</td>
              <td>{PURPOSE[delivery.purpose]}</td>
              <td>
                <DeliveryStatus status={delivery.status} />
              </td>
              <td>{delivery.attempts}</td>
              <td>
                {delivery.sent_at ? <Time value={delivery.sent_at} /> : <span className="muted">not yet</span>}
              </td>
              <td>{delivery.last_error ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
