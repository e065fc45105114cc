/**
 * Invoice arithmetic and plan matching: pure functions over integer minor units (cents).
 * Overage is billed per *started* block of 1,000 executions above the allowance, so 1 execution
 * over costs one block and 1,000 over costs one block too.
 */
import { periodEnd, periodStart, type Period } from "../shared/billing-period.js";
import { customerNotice, groupDigits } from "./customer-notice.js";
import type { Invoice, InvoiceLine, PlanMatch, PlanQuote, UsageByEnv } from "./invoice-types.js";
import { OVERAGE_BLOCK_SIZE, PLAN_CATALOGUE, requirePlan, type Plan, type PlanCatalogue } from "./plan-catalogue.js";

export type Charges = {
  executions: number;
  included_executions: number;
  overage_executions: number;
  overage_blocks: number;
  base_fee: number;
  overage_amount: number;
  total: number;
};

function assertCount(executions: number) {
  if (!Number.isSafeInteger(executions) || executions < 0) throw new RangeError(`executions must be a non-negative integer, got ${executions}`);
}

export function chargesFor(plan: Plan, executions: number): Charges {
  assertCount(executions);
  const overageExecutions = Math.max(0, executions - plan.included_executions);
  // Integer ceiling division: no float is ever involved.
  const overageBlocks = Math.floor((overageExecutions + OVERAGE_BLOCK_SIZE - 1) / OVERAGE_BLOCK_SIZE);
  const overageAmount = overageBlocks * plan.overage_price_per_1000;
  return {
    executions,
    included_executions: plan.included_executions,
    overage_executions: overageExecutions,
    overage_blocks: overageBlocks,
    base_fee: plan.monthly_price,
    overage_amount: overageAmount,
    total: plan.monthly_price + overageAmount,
  };
}

export const monthlyCost = (plan: Plan, executions: number) => chargesFor(plan, executions).total;

const quote = (plan: Plan, executions: number): PlanQuote => ({ plan_id: plan.id, name: plan.name, monthly_cost: monthlyCost(plan, executions) });

/**
 * The cheapest plan of the whole catalogue for `executions`. Ties keep the current plan; among
 * other plans that tie, the first in catalogue order wins, so the answer is deterministic.
 */
export function matchPlan(currentPlanId: string, executions: number, basis: PlanMatch["basis"], catalogue: PlanCatalogue = PLAN_CATALOGUE): PlanMatch {
  const current = quote(requirePlan(currentPlanId, catalogue), executions);
  let best = current;
  for (const plan of catalogue.plans) {
    const candidate = quote(plan, executions);
    if (candidate.monthly_cost < best.monthly_cost) best = candidate;
  }
  const difference = best.monthly_cost - current.monthly_cost;
  return { basis, executions, current_plan: current, recommended_plan: best, difference, better_plan_available: difference < 0 };
}

export type InvoiceInput = {
  id: string | null;
  status: Invoice["status"];
  period: Period;
  plan: Plan;
  catalogueVersion: string;
  usage: UsageByEnv;
  planMatch: PlanMatch;
  /** Set when finalizing switched the plan for the next period. */
  switchedTo?: { planName: string; period: Period } | undefined;
  generatedAt: Date;
};

export function lineItems(plan: Plan, charges: Charges): InvoiceLine[] {
  const overageUnit = `started block of ${groupDigits(OVERAGE_BLOCK_SIZE)} executions`;
  return [
    {
      type: "base_fee",
      description: `${plan.name} plan base fee (includes ${groupDigits(plan.included_executions)} executions)`,
      quantity: 1,
      unit_amount: plan.monthly_price,
      amount: plan.monthly_price,
    },
    {
      type: "overage",
      description: `Overage: ${groupDigits(charges.overage_executions)} executions over the allowance, per ${overageUnit}`,
      quantity: charges.overage_blocks,
      unit_amount: plan.overage_price_per_1000,
      amount: charges.overage_amount,
    },
  ];
}

export function buildInvoice(input: InvoiceInput): Invoice {
  const executions = input.usage.test + input.usage.live;
  const charges = chargesFor(input.plan, executions);
  const lines = lineItems(input.plan, charges);
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  const invoice: Omit<Invoice, "customer_notice"> = {
    id: input.id,
    object: "invoice",
    status: input.status,
    livemode: false,
    period: input.period,
    period_start: periodStart(input.period).toISOString(),
    period_end: periodEnd(input.period).toISOString(),
    currency: input.plan.currency,
    catalogue_version: input.catalogueVersion,
    plan: { id: input.plan.id, name: input.plan.name },
    usage: {
      executions,
      by_env: { ...input.usage },
      included_executions: charges.included_executions,
      overage_executions: charges.overage_executions,
      overage_blocks: charges.overage_blocks,
    },
    line_items: lines,
    subtotal,
    // No tax or discounts in test mode: the total is the subtotal.
    total: subtotal,
    plan_match: input.planMatch,
    generated_at: input.generatedAt.toISOString(),
  };
  return { ...invoice, customer_notice: customerNotice(invoice, input.switchedTo) };
}
