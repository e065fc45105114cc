/** Who must approve: one admin (default), n admins, n members of a group, every listed member, or the end user. */
import { useId } from "react";
import type { FieldFault } from "../api/errors";
import type { Member } from "../api/types";
import { FieldFaults, faultProps } from "./field-faults";
import type { RuleApproval } from "./rule-draft";

type Approvers = RuleApproval["approvers"];
type Props = { value: Approvers; members: readonly Member[]; faults: readonly FieldFault[]; onChange(value: Approvers): void };

function kindOf(value: Approvers) {
  if (value === undefined) return "default";
  if (value === "end_user") return "end_user";
  if ("all_of" in value) return "all_of";
  return value.of === "admins" ? "admins" : "group";
}

export function ApproversField({ value, members, faults, onChange }: Props) {
  const id = useId();
  const kind = kindOf(value);
  const count = value && typeof value === "object" && "count" in value ? value.count : 1;
  const group = value && typeof value === "object" && "of" in value && typeof value.of === "object" ? value.of.group : "";
  const allOf = value && typeof value === "object" && "all_of" in value ? value.all_of : [];
  const choose = (next: string) =>
    onChange(next === "default" ? undefined : next === "end_user" ? "end_user" : next === "all_of" ? { all_of: allOf } : next === "admins" ? { count, of: "admins" } : { count, of: { group } });
  const faultId = `${id}-faults`;
  return (
    <div className="field">
      <label htmlFor={`${id}-kind`}>Who approves</label>
      <select id={`${id}-kind`} value={kind} onChange={(event) => choose(event.target.value)} {...faultProps(faultId, faults)}>
        <option value="default">One admin (default)</option>
        <option value="admins">A number of admins</option>
        <option value="group">A number of members of a group</option>
        <option value="all_of">Every one of these members</option>
        <option value="end_user">The end user the call is for</option>
      </select>
      {kind === "admins" || kind === "group" ? (
        <div className="filters">
          <div className="field">
            <label htmlFor={`${id}-count`}>How many</label>
            <input id={`${id}-count`} type="number" min={1} max={20} value={count} onChange={(event) => onChange(kind === "admins" ? { count: Number(event.target.value), of: "admins" } : { count: Number(event.target.value), of: { group } })} />
          </div>
          {kind === "group" ? (
            <div className="field">
              <label htmlFor={`${id}-group`}>Group</label>
              <input id={`${id}-group`} value={group} placeholder="finance" onChange={(event) => onChange({ count, of: { group: event.target.value } })} />
            </div>
          ) : null}
        </div>
      ) : null}
      {kind === "all_of" ? (
        <div className="checkbox-grid" role="group" aria-label="Members who must all approve">
          {members.map((member) => (
            <label key={member.id} className="checkbox">
              <input type="checkbox" checked={allOf.includes(member.id)} onChange={(event) => onChange({ all_of: event.target.checked ? [...allOf, member.id] : allOf.filter((m) => m !== member.id) })} />
              {member.display_name ?? member.subject}
            </label>
          ))}
        </div>
      ) : null}
      {kind === "end_user" ? <p className="field-hint">A call for no end user goes to one admin.</p> : null}
      <FieldFaults id={faultId} faults={faults} />
    </div>
  );
}
