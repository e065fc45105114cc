/** Every described vendor's sandbox behaviour, by provider id (one table per vendor family). */
import { DEFAULT_VENDOR, type DescribedVendor } from "../vendor-config.js";
import { atlassianVendors } from "./atlassian.js";
import { crmVendors } from "./crm.js";
import { googleVendors } from "./google.js";
import { microsoftVendors } from "./microsoft.js";
import { productivityVendors } from "./productivity.js";

export const DESCRIBED_VENDORS: Readonly<Record<string, DescribedVendor>> = {
  ...googleVendors,
  ...microsoftVendors,
  ...atlassianVendors,
  ...crmVendors,
  ...productivityVendors,
};

export function vendorOf(providerId: string): DescribedVendor {
  return DESCRIBED_VENDORS[providerId] ?? DEFAULT_VENDOR;
}
