/**
 * Editing a member's approver profile; empty fields clear the value. The broker's refusal says which field is wrong.
 * Email and Slack user reach a person and act as them, so they are offered only on your own row; name and groups only to admins.
 */
import { useId, useState, type FormEvent } from "react";
import { fieldFaults } from "../api/errors";
import type { Member, MemberPatch } from "../api/types";
import { ErrorMessage } from "../ui/feedback";
import { useUpdateMember } from "./settings-queries";

/** What each field takes, said when the broker refuses it (its schema messages name patterns, not people's words). */
const FIELD_RULES: Record<string, string> = {
  display_name: "1 to 100 characters, without control characters.",
  email: "An email address, like bob@example.com.",
  slack_user_id: "The Slack team id and user id in capitals, joined by a colon: T0123ABCD:U0456EFGH.",
  groups: "Group names of letters, digits, dots, dashes and underscores (up to 64 each), separated by commas.",
};

/** "finance, legal , ,ops" → ["finance", "legal", "ops"]. */
export const groupsOf = (text: string) => [...new Set(text.split(",").map((group) => group.trim()).filter(Boolean))];

function Field({ label, value, onChange, hint, type = "text", fault }: { label: string; value: string; onChange(value: string): void; hint?: string; type?: string; fault: string | undefined }) {
  const id = useId();
  const hintId = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type={type} value={value} onChange={(event) => onChange(event.target.value)} aria-describedby={hint || fault ? hintId : undefined} aria-invalid={fault ? true : undefined} spellCheck={false} />
      {fault || hint ? (
        <p id={hintId} className={fault ? "field-hint field-fault" : "field-hint"}>
          {fault ?? hint}
        </p>
      ) : null}
    </div>
  );
}

/** What the operator may change on this member: their own contact fields, and (admins) anyone's name and groups. */
export type MemberEditRights = { contact: boolean; profile: boolean };

export function MemberForm({ member, rights, onDone }: { member: Member; rights: MemberEditRights; onDone(saved: Member | null): void }) {
  const [displayName, setDisplayName] = useState(member.display_name ?? "");
  const [email, setEmail] = useState(member.email ?? "");
  const [slackUserId, setSlackUserId] = useState(member.slack_user_id ?? "");
  const [groups, setGroups] = useState(member.groups.join(", "));
  const update = useUpdateMember(member.id);
  const faults = fieldFaults(update.error);
  const faultOf = (field: string) => (faults.some((fault) => fault.field.replace(/^\//, "").split("/")[0] === field) ? FIELD_RULES[field] : undefined);
  const edit = (set: (value: string) => void) => (value: string) => (update.reset(), set(value));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const patch: MemberPatch = {
      ...(rights.profile ? { display_name: displayName.trim() || null, groups: groupsOf(groups) } : {}),
      ...(rights.contact ? { email: email.trim() || null, slack_user_id: slackUserId.trim() || null } : {}),
    };
    update.mutate(patch, { onSuccess: (saved) => onDone(saved) });
  };
  return (
    <form className="stack member-form" onSubmit={submit} aria-label={`Edit ${member.display_name ?? member.subject}`}>
      <div className="form-grid">
        {rights.profile ? <Field label="Display name" value={displayName} onChange={edit(setDisplayName)} hint="Shown on votes and in “still needed from”." fault={faultOf("display_name")} /> : null}
        {rights.contact ? (
          <>
            <Field label="Email" type="email" value={email} onChange={edit(setEmail)} hint="Your approval requests by email go here." fault={faultOf("email")} />
            <Field label="Slack user" value={slackUserId} onChange={edit(setSlackUserId)} hint="Your team id and user id, like T0123ABCD:U0456EFGH." fault={faultOf("slack_user_id")} />
          </>
        ) : null}
        {rights.profile ? <Field label="Groups" value={groups} onChange={edit(setGroups)} hint="Comma-separated, as policy rules name them (of: {group})." fault={faultOf("groups")} /> : null}
      </div>
      {faults.length > 0 ? (
        <p className="message message-error" role="alert">
          <span className="message-icon" aria-hidden="true">!</span>
          The member was not saved: check the marked fields.
        </p>
      ) : (
        <ErrorMessage error={update.error} prefix="The member was not saved" />
      )}
      {rights.profile && !rights.contact ? <p className="field-hint">Email and Slack user are set by the member themselves: whoever sets them receives that member's approval links.</p> : null}
      <div className="button-row">
        <button type="submit" className="button button-primary" disabled={update.isPending} aria-busy={update.isPending || undefined}>
          Save member
        </button>
        <button type="button" className="button button-secondary" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
