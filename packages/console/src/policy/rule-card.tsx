/** One rule of the draft, edited in a form: every part the rule language has, with its faults beside it. */
import { useId } from "react";
import type { FieldFault } from "../api/errors";
import type { AgentApp, Member, Tool } from "../api/types";
import { AgentAppsField } from "./agent-apps-field";
import { ApprovalFields } from "./approval-fields";
import { ConditionsField } from "./conditions-field";
import { EndUsersField } from "./end-users-field";
import { FieldFaults, faultProps } from "./field-faults";
import { EFFECT_LABELS, faultsUnder, unplacedRuleFaults, withField, type Effect, type Rule } from "./rule-draft";
import { ToolPatternsField } from "./tool-patterns-field";

export type Catalogue = { tools: readonly Tool[]; apps: readonly AgentApp[]; members: readonly Member[] };

type Props = {
  rule: Rule;
  index: number;
  count: number;
  catalogue: Catalogue;
  faults: readonly FieldFault[];
  onChange(rule: Rule): void;
  onMove(step: -1 | 1): void;
  onRemove(): void;
};

export function RuleCard({ rule, index, count, catalogue, faults, onChange, onMove, onRemove }: Props) {
  const id = useId();
  const path = `/rules/${index}`;
  const at = (field: string) => faultsUnder(faults, `${path}/${field}`);
  const set = <K extends keyof Rule>(key: K, value: Rule[K] | undefined) => onChange(withField(rule, key, value));
  // An approval block is refused on other effects, so it goes when the effect stops being require_approval.
  const setEffect = (effect: Effect) => onChange(effect === "require_approval" ? { ...rule, effect } : withField({ ...rule, effect }, "approval", undefined));
  const title = `Rule ${index + 1}`;
  return (
    <li className="card rule-card" aria-labelledby={`${id}-title`}>
      <div className="rule-header">
        <h3 id={`${id}-title`}>
          {title}: <code>{rule.id || "(no id)"}</code>
        </h3>
        <div className="button-row">
          <button type="button" className="button button-secondary" onClick={() => onMove(-1)} disabled={index === 0} aria-label={`Move ${title} up`}>
            ↑ Up
          </button>
          <button type="button" className="button button-secondary" onClick={() => onMove(1)} disabled={index === count - 1} aria-label={`Move ${title} down`}>
            ↓ Down
          </button>
          <button type="button" className="button button-danger" onClick={onRemove} aria-label={`Remove ${title}`}>
            Remove
          </button>
        </div>
      </div>
      <FieldFaults id={`${id}-faults`} faults={unplacedRuleFaults(faults, index)} />
      <div className="form-grid">
        <div className="field">
          <label htmlFor={`${id}-id`}>Rule id</label>
          <input id={`${id}-id`} value={rule.id} onChange={(event) => set("id", event.target.value)} {...faultProps(`${id}-id-faults`, at("id"))} />
          <FieldFaults id={`${id}-id-faults`} faults={at("id")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-effect`}>Effect</label>
          <select id={`${id}-effect`} value={rule.effect} onChange={(event) => setEffect(event.target.value as Effect)} {...faultProps(`${id}-effect-faults`, at("effect"))}>
            {(Object.keys(EFFECT_LABELS) as Effect[]).map((effect) => (
              <option key={effect} value={effect}>
                {EFFECT_LABELS[effect]}
              </option>
            ))}
          </select>
          <FieldFaults id={`${id}-effect-faults`} faults={at("effect")} />
        </div>
        <div className="field full-width">
          <label htmlFor={`${id}-description`}>Description</label>
          <input id={`${id}-description`} value={rule.description ?? ""} onChange={(event) => set("description", event.target.value || undefined)} {...faultProps(`${id}-description-faults`, at("description"))} />
          <FieldFaults id={`${id}-description-faults`} faults={at("description")} />
        </div>
      </div>
      <ToolPatternsField path={`${path}/tools`} patterns={rule.tools} tools={catalogue.tools} faults={at("tools")} onChange={(tools) => set("tools", tools)} />
      <div className="form-grid">
        <EndUsersField value={rule.end_users} faults={at("end_users")} onChange={(endUsers) => set("end_users", endUsers)} />
        <AgentAppsField idBase={id} value={rule.agent_apps} apps={catalogue.apps} faults={at("agent_apps")} onChange={(apps) => set("agent_apps", apps)} />
      </div>
      <ConditionsField path={`${path}/conditions`} conditions={rule.conditions} faults={at("conditions")} onChange={(conditions) => set("conditions", conditions)} />
      {rule.effect === "require_approval" || rule.approval ? (
        <ApprovalFields path={`${path}/approval`} value={rule.approval} members={catalogue.members} faults={at("approval")} onChange={(approval) => set("approval", approval)} />
      ) : null}
    </li>
  );
}
