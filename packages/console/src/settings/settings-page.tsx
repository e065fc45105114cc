/** /console/settings: the tenant's members as approvers see them, where approval requests go, and the connect page's branding. */
import { useSearchParams } from "react-router-dom";
import { PageHeader } from "../ui/page";
import { Tabs } from "../ui/tabs";
import { ApprovalSettingsForm } from "./approval-settings-form";
import { BrandingForm } from "./branding-form";
import { MembersList } from "./members-list";

export function SettingsPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get("tab");
  const tab = requested === "approvals" || requested === "branding" ? requested : "members";
  return (
    <>
      <PageHeader title="Settings">
        <p>Who the tenant's members are to approval rules (groups, email, Slack identity), where approval requests are sent, and the name and logo end users see when they connect accounts.</p>
      </PageHeader>
      <Tabs
        label="Settings"
        selected={tab}
        onSelect={(id) => setParams(id === "members" ? {} : { tab: id }, { replace: true })}
        tabs={[
          { id: "members", label: "Members" },
          { id: "approvals", label: "Approval channels" },
          { id: "branding", label: "Branding" },
        ]}
      >
        {tab === "members" ? <MembersList /> : tab === "approvals" ? <ApprovalSettingsForm /> : <BrandingForm />}
      </Tabs>
    </>
  );
}
