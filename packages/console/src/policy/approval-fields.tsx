/**
 * The `approval` block of a require_approval rule (docs/policy.md): who decides, whether the
 * requester may, edits, expiry, reminder and channels. A field left at its default is left out.
 */
import { useId } from "react";
import type { FieldFault } from "../api/errors";
import type { Member } from "../api/types";
import { ApproversField } from "./approvers-field";
import { FieldFaults, faultProps } from "./field-faults";
import { faultsUnder, type RuleApproval } from "./rule-draft";

type Props = { path: string; value: RuleApproval | undefined; members: readonly Member[]; faults: readonly FieldFault[]; onChange(value: RuleApproval | undefined): void };

const CHANNELS = ["slack", "email"] as const;

export function ApprovalFields({ path, value = {}, members, faults, onChange }: Props) {
  const id = useId();
  const set = <K extends keyof RuleApproval>(key: K, field: RuleApproval[K] | undefined) => {
    const next = { ...value };
    if (field === undefined) delete next[key];
    else next[key] = field;
    onChange(Object.keys(next).length ? next : undefined);
  };
  const at = (key: string) => faultsUnder(faults, `${path}/${key}`);
  const seconds = (text: string) => (text.trim() === "" ? undefined : Number(text));
  const channels = value.channels;
  return (
    <fieldset className="field approval-fields">
      <legend>Approval</legend>
      <ApproversField value={value.approvers} members={members} faults={at("approvers")} onChange={(approvers) => set("approvers", approvers)} />
      <div className="form-grid">
        <div className="field">
          <label htmlFor={`${id}-requester`}>The agent app's creator may approve</label>
          <select id={`${id}-requester`} value={value.requester_may_approve === undefined ? "" : String(value.requester_may_approve)} onChange={(event) => set("requester_may_approve", event.target.value === "" ? undefined : event.target.value === "true")}>
            <option value="">Yes (default)</option>
            <option value="true">Yes</option>
            <option value="false">No</option>
          </select>
          <FieldFaults id={`${id}-requester-faults`} faults={at("requester_may_approve")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-edits`}>Approvers may edit the arguments</label>
          <select id={`${id}-edits`} value={value.edits ?? ""} onChange={(event) => set("edits", (event.target.value || undefined) as RuleApproval["edits"])}>
            <option value="">Allowed (default)</option>
            <option value="allowed">Allowed</option>
            <option value="forbidden">Forbidden</option>
          </select>
          <FieldFaults id={`${id}-edits-faults`} faults={at("edits")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-ttl`}>Expires after (seconds)</label>
          <input id={`${id}-ttl`} type="number" min={60} value={value.ttl_seconds ?? ""} placeholder="broker default" onChange={(event) => set("ttl_seconds", seconds(event.target.value))} {...faultProps(`${id}-ttl-faults`, at("ttl_seconds"))} />
          <FieldFaults id={`${id}-ttl-faults`} faults={at("ttl_seconds")} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-remind`}>Remind before expiry (seconds)</label>
          <input id={`${id}-remind`} type="number" min={30} value={value.remind_before_seconds ?? ""} placeholder="no reminder" onChange={(event) => set("remind_before_seconds", seconds(event.target.value))} {...faultProps(`${id}-remind-faults`, at("remind_before_seconds"))} />
          <FieldFaults id={`${id}-remind-faults`} faults={at("remind_before_seconds")} />
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-channels`}>Channels besides the console</label>
        <select id={`${id}-channels`} value={channels ? "these" : ""} onChange={(event) => set("channels", event.target.value === "these" ? [] : undefined)}>
          <option value="">The tenant's channels (Settings)</option>
          <option value="these">Only the channels ticked here</option>
        </select>
        {channels ? (
          <div className="button-row">
            {CHANNELS.map((channel) => (
              <label key={channel} className="checkbox">
                <input type="checkbox" checked={channels.includes(channel)} onChange={(event) => set("channels", event.target.checked ? [...channels, channel] : channels.filter((c) => c !== channel))} />
                {channel === "slack" ? "Slack" : "Email"}
              </label>
            ))}
          </div>
        ) : null}
        <FieldFaults id={`${id}-channels-faults`} faults={at("channels")} />
      </div>
      <FieldFaults id={`${id}-faults`} faults={faults.filter((fault) => fault.field === path)} />
    </fieldset>
  );
}
