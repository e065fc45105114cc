/**
 * The shape of an invoice and of a plan match, apart from the arithmetic that builds them
 * (invoice.ts), so the customer notice (customer-notice.ts) can read an invoice that invoice.ts
 * builds with it.
 */
import type { Period } from "../shared/billing-period.js";

export type UsageByEnv = { test: number; live: number };

export type PlanQuote = { plan_id: string; name: string; monthly_cost: number };

export type PlanMatch = {
  /** `actual`: an ended period's executions; `projected`: the current period's month-end projection. */
  basis: "actual" | "projected";
  executions: number;
  current_plan: PlanQuote;
  recommended_plan: PlanQuote;
  /** recommended − current, minor units: zero or negative (a saving). */
  difference: number;
  better_plan_available: boolean;
};

export type InvoiceLine = {
  type: "base_fee" | "overage";
  description: string;
  quantity: number;
  unit_amount: number;
  amount: number;
};

export type Invoice = {
  id: string | null;
  object: "invoice";
  status: "draft" | "finalized";
  livemode: false;
  period: Period;
  period_start: string;
  period_end: string;
  currency: string;
  catalogue_version: string;
  plan: { id: string; name: string };
  usage: {
    executions: number;
    by_env: UsageByEnv;
    included_executions: number;
    overage_executions: number;
    overage_blocks: number;
  };
  line_items: InvoiceLine[];
  subtotal: number;
  total: number;
  plan_match: PlanMatch;
  customer_notice: string;
  generated_at: string;
};
