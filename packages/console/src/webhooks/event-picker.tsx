/** Which event kinds an endpoint receives: all (null) or a chosen list. */
import { useId } from "react";
import type { WebhookEvent } from "../api/types";
import { EVENT_KINDS } from "./webhook-queries";

export type EventChoice = WebhookEvent[] | null;

export function EventPicker({ value, onChange }: { value: EventChoice; onChange(next: EventChoice): void }) {
  const id = useId();
  const kinds = Object.keys(EVENT_KINDS) as WebhookEvent[];
  const toggle = (kind: WebhookEvent, on: boolean) => {
    const current = value ?? [];
    onChange(on ? [...current, kind] : current.filter((entry) => entry !== kind));
  };
  return (
    <fieldset className="field">
      <legend>Events</legend>
      <label className="checkbox">
        <input type="checkbox" checked={value === null} onChange={(event) => onChange(event.target.checked ? null : [])} />
        All events, including kinds added later
      </label>
      {value !== null ? (
        <div className="checkbox-grid">
          {kinds.map((kind) => (
            <label key={kind} className="checkbox" htmlFor={`${id}-${kind}`}>
              <input id={`${id}-${kind}`} type="checkbox" checked={value.includes(kind)} onChange={(event) => toggle(kind, event.target.checked)} />
              <span>
                <code>{kind}</code> <span className="muted">{EVENT_KINDS[kind]}</span>
              </span>
            </label>
          ))}
        </div>
      ) : null}
      {value !== null && value.length === 0 ? <p className="field-hint">Choose at least one event.</p> : null}
    </fieldset>
  );
}
