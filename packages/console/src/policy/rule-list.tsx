/** The draft's rules in order (the first match decides), each in its own form, with add, remove and reorder. */
import type { FieldFault } from "../api/errors";
import type { PolicyRules } from "../api/types";
import { EmptyState } from "../ui/feedback";
import { RuleCard, type Catalogue } from "./rule-card";
import { freshRuleId, moveRule } from "./rule-draft";

type Props = { rules: PolicyRules; catalogue: Catalogue; faults: readonly FieldFault[]; onChange(rules: PolicyRules): void };

export function RuleList({ rules, catalogue, faults, onChange }: Props) {
  const add = () => onChange([...rules, { id: freshRuleId(rules), effect: "require_approval" }]);
  return (
    <div className="stack">
      {rules.length === 0 ? <EmptyState>No rules: low-risk tools run and high-risk tools need an approval.</EmptyState> : null}
      <ol className="rule-list" aria-label="Rules, first match decides">
        {rules.map((rule, index) => (
          <RuleCard
            // Keyed by position: the id is itself editable.
            key={index}
            rule={rule}
            index={index}
            count={rules.length}
            catalogue={catalogue}
            faults={faults}
            onChange={(next) => onChange(rules.map((r, i) => (i === index ? next : r)))}
            onMove={(step) => onChange(moveRule(rules, index, step))}
            onRemove={() => onChange(rules.filter((_, i) => i !== index))}
          />
        ))}
      </ol>
      <div>
        <button type="button" className="button button-secondary" onClick={add}>
          Add rule
        </button>
      </div>
    </div>
  );
}
