import { PageHeader } from "../ui/page";
import { BillingSection } from "./billing-section";
import { DailyUsageSection } from "./daily-section";
import { LastHourSection } from "./last-hour-section";
import { UsageSection } from "./usage-section";

export function UsagePage() {
  return (
    <>
      <PageHeader title="Usage" />
      <LastHourSection />
      <UsageSection />
      <DailyUsageSection />
      <BillingSection />
    </>
  );
}
