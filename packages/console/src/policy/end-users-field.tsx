/** A rule's `end_users`: every call, calls for some end user, for none, or for the listed ids. */
import { useId } from "react";
import type { FieldFault } from "../api/errors";
import { useDraftText } from "./draft-text";
import { FieldFaults, faultProps } from "./field-faults";
import type { Rule } from "./rule-draft";

type EndUsers = Rule["end_users"];
type Props = { value: EndUsers; faults: readonly FieldFault[]; onChange(value: EndUsers): void };

const scopeOf = (value: EndUsers) => (value === undefined ? "every" : Array.isArray(value) ? "list" : value);
const parseIds = (text: string) =>
  text
    .split(/[\n,]/)
    .map((id) => id.trim())
    .filter(Boolean);

export function EndUsersField({ value, faults, onChange }: Props) {
  const id = useId();
  const list = Array.isArray(value) ? value : [];
  const [text, setText] = useDraftText(list, (ids) => ids.join(", "), parseIds);
  const faultId = `${id}-faults`;
  const choose = (scope: string) => onChange(scope === "every" ? undefined : scope === "list" ? list : (scope as "any" | "none"));
  return (
    <div className="field">
      <label htmlFor={`${id}-scope`}>End users</label>
      <select id={`${id}-scope`} value={scopeOf(value)} onChange={(event) => choose(event.target.value)} {...faultProps(faultId, faults)}>
        <option value="every">Every call</option>
        <option value="any">Calls for any end user</option>
        <option value="none">Calls for no end user</option>
        <option value="list">Calls for these end users…</option>
      </select>
      {value === undefined ? <p className="field-hint">With or without an end user.</p> : null}
      {value === "none" ? <p className="field-hint">Calls you make on your own behalf.</p> : null}
      {Array.isArray(value) ? (
        <>
          <label htmlFor={`${id}-ids`} className="visually-hidden">
            End user ids
          </label>
          <input id={`${id}-ids`} value={text} placeholder="alice, bob" onChange={(event) => onChange(setText(event.target.value))} {...faultProps(faultId, faults)} />
          <p className="field-hint">Your end user ids, comma-separated, compared exactly (Alice is not alice).</p>
        </>
      ) : null}
      <FieldFaults id={faultId} faults={faults} />
    </div>
  );
}
