/** A provider or an actor shown by name, with the id beside it in small type for developers. */
import { useActorNames, useProviderNames, type Actor } from "./name-queries";

export function ProviderName({ id }: { id: string }) {
  const nameOf = useProviderNames();
  const name = nameOf(id);
  return (
    <span className="named">
      {name}
      {name !== id ? <span className="muted mono named-id"> {id}</span> : null}
    </span>
  );
}

/** The person, app, key or end user, and what kind it is; the raw id is in the tooltip and in the audit event's details. */
export function ActorName({ actor }: { actor: Actor }) {
  const label = useActorNames()(actor);
  return (
    <span className="named" title={`${actor.type}: ${actor.id}`}>
      <span className="actor-name">{label.name}</span>
      <span className="muted named-id"> {label.kind}</span>
    </span>
  );
}
