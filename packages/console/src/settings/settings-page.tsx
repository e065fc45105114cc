/** /console/settings: the tenant's members as approval rules see them. */
import { PageHeader } from "../ui/page";
import { MembersList } from "./members-list";

export function SettingsPage() {
  return (
    <>
      <PageHeader title="Settings">
        <p>Who the tenant's members are to approval rules: the name shown on votes, the email and Slack identity approvals reach them by, and the groups rules name.</p>
      </PageHeader>
      <MembersList />
    </>
  );
}
