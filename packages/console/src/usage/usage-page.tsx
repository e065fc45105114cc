import { PageHeader } from "../ui/page";
import { BillingSection } from "./billing-section";
import { DailyUsageSection } from "./daily-section";
import { UsageSection } from "./usage-section";

export function UsagePage() {
  return (
    <>
      <PageHeader title="Usage" />
      <UsageSection />
      <DailyUsageSection />
      <BillingSection />
    </>
  );
}
