/** A rule's `agent_apps`: the tenant's agent apps to tick; none ticked means every agent app. */
import type { FieldFault } from "../api/errors";
import type { AgentApp } from "../api/types";
import { FieldFaults } from "./field-faults";

type Props = { idBase: string; value: string[] | undefined; apps: readonly AgentApp[]; faults: readonly FieldFault[]; onChange(value: string[] | undefined): void };

export function AgentAppsField({ idBase, value = [], apps, faults, onChange }: Props) {
  const toggle = (appId: string, on: boolean) => {
    const next = on ? [...value, appId] : value.filter((id) => id !== appId);
    onChange(next.length ? next : undefined);
  };
  // Ids the document names that the list does not show (a disabled app, a typo in the JSON) stay visible.
  const unknown = value.filter((id) => !apps.some((app) => app.id === id));
  return (
    <fieldset className="field plain-fieldset">
      <legend>Agent apps</legend>
      {apps.length === 0 && unknown.length === 0 ? <p className="field-hint">No agent apps yet: the rule covers every agent app.</p> : null}
      <div className="checkbox-grid">
        {apps.map((app) => (
          <label key={app.id} className="checkbox">
            <input type="checkbox" checked={value.includes(app.id)} onChange={(event) => toggle(app.id, event.target.checked)} />
            {app.name}
          </label>
        ))}
        {unknown.map((appId) => (
          <label key={appId} className="checkbox">
            <input type="checkbox" checked onChange={() => toggle(appId, false)} />
            <code>{appId}</code>
          </label>
        ))}
      </div>
      {value.length === 0 && apps.length > 0 ? <p className="field-hint">None ticked: every agent app.</p> : null}
      <FieldFaults id={`${idBase}-agent-apps-faults`} faults={faults} />
    </fieldset>
  );
}
