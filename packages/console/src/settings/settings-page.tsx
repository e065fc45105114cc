/** /console/settings: the tenant's members as approvers see them, and where approval requests go. */
import { useSearchParams } from "react-router-dom";
import { PageHeader } from "../ui/page";
import { Tabs } from "../ui/tabs";
import { ApprovalSettingsForm } from "./approval-settings-form";
import { MembersList } from "./members-list";

export function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "approvals" ? "approvals" : "members";
  return (
    <>
      <PageHeader title="Settings">
        <p>Who the tenant's members are to approval rules (groups, email, Slack identity), and where approval requests are sent.</p>
      </PageHeader>
      <Tabs
        label="Settings"
        selected={tab}
        onSelect={(id) => setParams(id === "approvals" ? { tab: "approvals" } : {}, { replace: true })}
        tabs={[
          { id: "members", label: "Members" },
          { id: "approvals", label: "Approval channels" },
        ]}
      >
        {tab === "members" ? <MembersList /> : <ApprovalSettingsForm />}
      </Tabs>
    </>
  );
}
