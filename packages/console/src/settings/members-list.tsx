/**
 * The tenant's members with what approvals need of them: a name people recognise, the email an
 * approval request goes to, the Slack identity a button press is matched by, and the groups a
 * rule may name. Admins edit names and groups; each member edits their own email and Slack user
 * (whoever sets those acts as that member), viewers included.
 */
import { useId, useState } from "react";
import type { Member } from "../api/types";
import { Details, StatusTag } from "../ui/bits";
import { EmptyState, ErrorMessage, Loading, Notice } from "../ui/feedback";
import { useTenant, useTenantState } from "../tenant/tenant-context";
import { WriteButton } from "../ui/write-button";
import { MemberForm, type MemberEditRights } from "./member-form";
import { useMembers } from "./settings-queries";

/** Your own rights on each member: contact fields on your own row, names and groups as an admin. */
function useEditRights(): (member: Member) => MemberEditRights {
  const { me } = useTenantState();
  const { canWrite } = useTenant();
  return (member) => ({ contact: me.data !== undefined && member.issuer === me.data.issuer && member.subject === me.data.subject, profile: canWrite });
}

function MemberCard({ member, rights, onSaved }: { member: Member; rights: MemberEditRights; onSaved(message: string): void }) {
  const [editing, setEditing] = useState(false);
  const headingId = useId();
  const name = member.display_name ?? member.subject;
  return (
    <article className="card stack member" aria-labelledby={headingId}>
      <div className="approval-title-row">
        <h3 id={headingId}>{name}</h3>
        <StatusTag status={member.role === "admin" ? "Admin" : "Viewer"} tone={member.role === "admin" ? "good" : "neutral"} />
      </div>
      {editing ? (
        <MemberForm
          member={member}
          rights={rights}
          onDone={(saved) => {
            setEditing(false);
            if (saved) onSaved(`Saved ${saved.display_name ?? saved.subject}.`);
          }}
        />
      ) : (
        <>
          <Details
            items={[
              ["Sign-in identity", <span className="mono">{member.subject}</span>],
              ["Email", member.email ?? <span className="muted">none: no approval emails</span>],
              ["Slack user", member.slack_user_id ? <span className="mono">{member.slack_user_id}</span> : <span className="muted">none: Slack buttons refused</span>],
              ["Groups", member.groups.length ? member.groups.join(", ") : <span className="muted">none</span>],
            ]}
          />
          <div className="button-row">
            {rights.contact ? (
              <button type="button" className="button button-secondary" onClick={() => setEditing(true)} aria-label={`Edit ${name}`}>
                Edit
              </button>
            ) : (
              <WriteButton onClick={() => setEditing(true)} aria-label={`Edit ${name}`}>
                Edit
              </WriteButton>
            )}
          </div>
        </>
      )}
    </article>
  );
}

export function MembersList() {
  const members = useMembers();
  const rightsOf = useEditRights();
  const [saved, setSaved] = useState<string | null>(null);
  if (members.isPending) return <Loading label="Loading the members…" />;
  const rows = members.data?.data ?? [];
  return (
    <div className="stack">
      <ErrorMessage error={members.error} prefix="The members could not be loaded" />
      {saved ? <Notice tone="success">{saved}</Notice> : null}
      {rows.length === 0 && !members.error ? <EmptyState>No members</EmptyState> : null}
      <ul className="plain-list member-list" aria-label="Members">
        {rows.map((member) => (
          <li key={member.id}>
            <MemberCard member={member} rights={rightsOf(member)} onSaved={setSaved} />
          </li>
        ))}
      </ul>
    </div>
  );
}
