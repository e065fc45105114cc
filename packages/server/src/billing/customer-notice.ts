/**
 * The customer notice of an invoice: a few plain sentences saying what was used, what is owed
 * and whether another plan would suit better. Amounts are formatted from integer minor units
 * with integer arithmetic only.
 */
import { nextPeriod, periodLabel, type Period } from "../shared/billing-period.js";
import type { Invoice } from "./invoice-types.js";

/** 1234567 → "1,234,567". */
export function groupDigits(value: number): string {
  const digits = String(Math.abs(Math.trunc(value)));
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return value < 0 ? `-${grouped}` : grouped;
}

/** 123456 minor units of usd → "$1,234.56". */
export function formatMoney(minor: number, currency: string): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount must be an integer number of minor units, got ${minor}`);
  const abs = Math.abs(minor);
  const amount = `${groupDigits(Math.floor(abs / 100))}.${String(abs % 100).padStart(2, "0")}`;
  const sign = minor < 0 ? "-" : "";
  return currency === "usd" ? `${sign}$${amount}` : `${sign}${amount} ${currency.toUpperCase()}`;
}

const plural = (count: number, one: string, many: string) => `${groupDigits(count)} ${count === 1 ? one : many}`;

function usageSentence(invoice: Omit<Invoice, "customer_notice">): string {
  const { usage, plan, status, plan_match: match } = invoice;
  const when = match.basis === "projected" ? `So far in ${periodLabel(invoice.period)}` : `In ${periodLabel(invoice.period)}`;
  const envs = `${groupDigits(usage.by_env.live)} live, ${groupDigits(usage.by_env.test)} test`;
  const ran = `${when} you ran ${plural(usage.executions, "tool execution", "tool executions")} (${envs})`;
  const onPlan = `on the ${plan.name} plan, which includes ${groupDigits(usage.included_executions)}`;
  const owe = match.basis === "projected" ? "You owe so far" : status === "finalized" ? "You owe" : "You will owe";
  return `${ran} ${onPlan}. ${owe} ${formatMoney(invoice.total, invoice.currency)}.`;
}

function chargesSentence(invoice: Omit<Invoice, "customer_notice">): string {
  const [base, overage] = invoice.line_items;
  const baseText = `the ${formatMoney(base?.amount ?? 0, invoice.currency)} base fee`;
  if (!overage || overage.quantity === 0) return `That is ${baseText}; you stayed within your allowance.`;
  const blocks = plural(overage.quantity, "started block", "started blocks");
  return (
    `That is ${baseText} plus ${formatMoney(overage.amount, invoice.currency)} for ` +
    `${groupDigits(invoice.usage.overage_executions)} executions over your allowance ` +
    `(${blocks} of 1,000 at ${formatMoney(overage.unit_amount, invoice.currency)}).`
  );
}

function planSentence(invoice: Omit<Invoice, "customer_notice">, switchedTo: { planName: string; period: Period } | undefined): string {
  const match = invoice.plan_match;
  const usage = match.basis === "projected" ? `your projected ${groupDigits(match.executions)} executions this month` : "this usage";
  if (!match.better_plan_available) return `Your ${invoice.plan.name} plan is already the cheapest plan for ${usage}.`;
  const better = match.recommended_plan;
  const saving = formatMoney(-match.difference, invoice.currency);
  const offer = `The ${better.name} plan would cost ${formatMoney(better.monthly_cost, invoice.currency)} for ${usage}, ${saving} less.`;
  if (switchedTo) return `${offer} Your plan changes to ${switchedTo.planName} from ${periodLabel(switchedTo.period)}.`;
  if (match.basis === "actual" && invoice.status === "draft") {
    return `${offer} Finalizing this period switches you to it from ${periodLabel(nextPeriod(invoice.period))}.`;
  }
  return offer;
}

export function customerNotice(invoice: Omit<Invoice, "customer_notice">, switchedTo?: { planName: string; period: Period }): string {
  return [usageSentence(invoice), chargesSentence(invoice), planSentence(invoice, switchedTo)].join(" ");
}
