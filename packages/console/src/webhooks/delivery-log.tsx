/** An endpoint's deliveries, newest first, each with its attempts and payload on request. */
import { StatusTag, JsonView } from "../ui/bits";
import { EmptyState, ErrorMessage, Loading } from "../ui/feedback";
import { Time } from "../ui/time";
import { useDeliveries } from "./webhook-queries";

const TONE = { pending: "warn", succeeded: "good", failed: "bad" } as const;

export function DeliveryLog({ endpointId }: { endpointId: string }) {
  const deliveries = useDeliveries(endpointId);
  const rows = deliveries.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <div className="stack">
      <h4>Delivery log</h4>
      {deliveries.isPending ? <Loading label="Loading deliveries…" /> : null}
      <ErrorMessage error={deliveries.error} prefix="The deliveries could not be loaded" />
      {deliveries.data && rows.length === 0 ? <EmptyState>No deliveries yet.</EmptyState> : null}
      <ul className="plain-list stack">
        {rows.map((delivery) => (
          <li key={delivery.id}>
            <details>
              <summary>
                <code>{delivery.event_type}</code> <StatusTag status={delivery.status} tone={TONE[delivery.status]} /> · {delivery.attempt_count} attempt
                {delivery.attempt_count === 1 ? "" : "s"} · <Time value={delivery.created_at} />
              </summary>
              <ol>
                {delivery.attempts.map((attempt) => (
                  <li key={attempt.attempt_number}>
                    <Time value={attempt.attempted_at} /> · {attempt.triggered_by} · {attempt.outcome} · {attempt.http_status ? `HTTP ${attempt.http_status}` : (attempt.error ?? "no answer")} · {attempt.latency_ms} ms
                  </li>
                ))}
              </ol>
              {delivery.next_attempt_at ? (
                <p>
                  Next attempt <Time value={delivery.next_attempt_at} showRelative />
                </p>
              ) : null}
              <JsonView value={delivery.payload} label={`Payload of ${delivery.event_type}`} />
            </details>
          </li>
        ))}
      </ul>
      {deliveries.hasNextPage ? (
        <button type="button" className="button button-secondary" onClick={() => deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage}>
          Load older deliveries
        </button>
      ) : null}
    </div>
  );
}
