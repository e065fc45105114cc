/**
 * The tenant's members with what approvals need of them: a name people recognise, the email an
 * approval request goes to, the Slack identity a button press is matched by, and the groups a
 * rule may name. Admins edit them; viewers read.
 */
import { useId, useState } from "react";
import type { Member } from "../api/types";
import { Details, StatusTag } from "../ui/bits";
import { EmptyState, ErrorMessage, Loading, Notice } from "../ui/feedback";
import { WriteButton } from "../ui/write-button";
import { MemberForm } from "./member-form";
import { useMembers } from "./settings-queries";

function MemberCard({ member, onSaved }: { member: Member; onSaved(message: string): void }) {
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
            <WriteButton onClick={() => setEditing(true)} aria-label={`Edit ${name}`}>
              Edit
            </WriteButton>
          </div>
        </>
      )}
    </article>
  );
}

export function MembersList() {
  const members = useMembers();
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
            <MemberCard member={member} onSaved={setSaved} />
          </li>
        ))}
      </ul>
    </div>
  );
}
