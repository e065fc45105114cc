/**
 * A rule's `conditions` (all must hold): a JSON pointer into the call's arguments and one
 * operator. `equals` takes JSON or plain text; `one_of` a comma-separated list (or a JSON array).
 */
import { useId } from "react";
import type { FieldFault } from "../api/errors";
import { formatList, formatLoose, parseList, parseLoose, useDraftText } from "./draft-text";
import { FieldFaults, faultProps } from "./field-faults";
import { faultsUnder, type Condition } from "./rule-draft";

const OPERATORS = ["equals", "one_of", "prefix", "regex"] as const;
type Operator = (typeof OPERATORS)[number];
const OPERATOR_LABELS: Record<Operator, string> = { equals: "equals", one_of: "is one of", prefix: "starts with", regex: "matches regex (RE2)" };

const operatorOf = (condition: Condition): Operator => OPERATORS.find((op) => condition[op] !== undefined) ?? "equals";

type Props = { path: string; conditions: Condition[] | undefined; faults: readonly FieldFault[]; onChange(conditions: Condition[] | undefined): void };

export function ConditionsField({ path, conditions = [], faults, onChange }: Props) {
  const set = (index: number, condition: Condition) => onChange(conditions.map((c, i) => (i === index ? condition : c)));
  const remove = (index: number) => {
    const rest = conditions.filter((_, i) => i !== index);
    onChange(rest.length ? rest : undefined);
  };
  const own = faults.filter((fault) => fault.field === path);
  return (
    <fieldset className="field">
      <legend>Conditions on the arguments</legend>
      {conditions.length === 0 ? <p className="field-hint">None: the rule does not look at the arguments.</p> : <p className="field-hint">All must hold.</p>}
      {conditions.map((condition, index) => (
        <ConditionRow key={index} condition={condition} faults={faultsUnder(faults, `${path}/${index}`)} onChange={(next) => set(index, next)} onRemove={() => remove(index)} />
      ))}
      <div>
        <button type="button" className="button button-secondary" onClick={() => onChange([...conditions, { pointer: "/", equals: "" }])}>
          Add condition
        </button>
      </div>
      <FieldFaults id={`${path}-faults`} faults={own} />
    </fieldset>
  );
}

function ConditionRow({ condition, faults, onChange, onRemove }: { condition: Condition; faults: readonly FieldFault[]; onChange(c: Condition): void; onRemove(): void }) {
  const id = useId();
  const operator = operatorOf(condition);
  const value = condition[operator];
  const isList = operator === "one_of";
  const [text, setText] = useDraftText<unknown>(
    value,
    (v) => (isList ? formatList(Array.isArray(v) ? v : []) : operator === "equals" ? formatLoose(v) : String(v ?? "")),
    (t) => (isList ? parseList(t) : operator === "equals" ? parseLoose(t) : t),
  );
  const withOperator = (next: Operator, nextValue: unknown): Condition => ({ pointer: condition.pointer, [next]: nextValue }) as Condition;
  const switchTo = (next: Operator) => {
    const current = isList ? (Array.isArray(value) ? value : []) : [value];
    const first = current[0] ?? "";
    onChange(withOperator(next, next === "one_of" ? (current.length ? current : [""]) : next === "equals" ? first : String(first)));
  };
  const faultId = `${id}-faults`;
  return (
    <div className="condition-row">
      <div className="field">
        <label htmlFor={`${id}-pointer`}>Argument (JSON pointer)</label>
        <input id={`${id}-pointer`} className="mono" value={condition.pointer} placeholder="/repo" onChange={(event) => onChange({ ...condition, pointer: event.target.value })} {...faultProps(faultId, faults)} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-operator`}>Test</label>
        <select id={`${id}-operator`} value={operator} onChange={(event) => switchTo(event.target.value as Operator)}>
          {OPERATORS.map((op) => (
            <option key={op} value={op}>
              {OPERATOR_LABELS[op]}
            </option>
          ))}
        </select>
      </div>
      <div className="field condition-value">
        <label htmlFor={`${id}-value`}>{isList ? "Values (comma-separated)" : "Value"}</label>
        <input id={`${id}-value`} className="mono" value={text} onChange={(event) => onChange(withOperator(operator, setText(event.target.value)))} {...faultProps(faultId, faults)} />
      </div>
      <button type="button" className="button button-secondary condition-remove" onClick={onRemove}>
        Remove condition
      </button>
      <FieldFaults id={faultId} faults={faults} />
    </div>
  );
}
