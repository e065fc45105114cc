/** Every field of one audit event, including its place in the hash chain. */
import type { ReactNode } from "react";
import type { AuditEvent } from "../api/types";
import { ActorName, ProviderName } from "../names/names";
import { Details, JsonView } from "../ui/bits";
import { Section } from "../ui/page";
import { Time } from "../ui/time";

export function AuditDetail({ event, onClose }: { event: AuditEvent; onClose(): void }) {
  return (
    <Section
      title={`Event ${event.seq}: ${event.action}`}
      id="audit-detail-heading"
      actions={
        <button type="button" className="button button-secondary" onClick={onClose}>
          Close details
        </button>
      }
    >
      <div className="card stack">
        <Details
          items={[
            ["Time", <Time value={event.occurred_at} />],
            ["Actor", <><ActorName actor={event.actor} /> <span className="mono muted">{event.actor.id}</span></>],
            ["Action", event.action],
            ["Outcome", event.outcome],
            ["Target", event.target ? `${event.target.type}: ${event.target.id}` : "none"],
            ["Tool", event.tool_name ?? "none"],
            ["Agent app", event.agent_app_id ? <ActorName actor={{ type: "agent_app", id: event.agent_app_id }} /> : "none"],
            ["End user", event.end_user_id ? <span className="mono">{event.end_user_id}</span> : "none"],
            ...(typeof event.data.provider === "string" ? ([["Provider", <ProviderName id={event.data.provider} />]] as [string, ReactNode][]) : []),
            ["Event id", <span className="mono">{event.id}</span>],
            ["Hash", <span className="mono">{event.hash}</span>],
            ["Previous hash", <span className="mono">{event.prev_hash}</span>],
          ]}
        />
        <h3>Data</h3>
        <JsonView value={event.data} label="Event data" />
      </div>
    </Section>
  );
}
