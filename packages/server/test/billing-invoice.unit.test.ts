/** Unit tests of the pure billing arithmetic: catalogue, charges, plan match, projection, notice. */
import { describe, expect, it } from "vitest";
import { nextPeriod, periodLabel, periodOf, previousPeriod, projectMonthEnd } from "../src/shared/billing-period.js";
import { formatMoney, groupDigits } from "../src/billing/customer-notice.js";
import { buildInvoice, chargesFor, matchPlan } from "../src/billing/invoice.js";
import { canonicalJson, catalogueChecksum, PLAN_CATALOGUE, PUBLISHED_CATALOGUE_CHECKSUMS, requirePlan } from "../src/billing/plan-catalogue.js";

describe("plan catalogue", () => {
  it("hashes to the checksum published for its version, so a published catalogue cannot change silently", () => {
    expect(PLAN_CATALOGUE.version).toBe("2026-01");
    expect(catalogueChecksum(PLAN_CATALOGUE)).toBe(PUBLISHED_CATALOGUE_CHECKSUMS[PLAN_CATALOGUE.version]);
    expect(catalogueChecksum(PLAN_CATALOGUE)).toBe("sha256:e66a65cbfce47a2f86a3a88c521c9052e1f8692cc192867402bca305f4def5ee");
  });

  it("computes the same checksum whatever the key order, and a different one for any changed figure", () => {
    const reordered = { plans: PLAN_CATALOGUE.plans.map((p) => Object.fromEntries(Object.entries(p).reverse())), currency: "usd", version: "2026-01" };
    expect(canonicalJson(reordered)).toBe(canonicalJson(PLAN_CATALOGUE));
    const changed = { ...PLAN_CATALOGUE, plans: PLAN_CATALOGUE.plans.map((p) => (p.id === "starter" ? { ...p, monthly_price: 1_901 } : p)) };
    expect(catalogueChecksum(changed)).not.toBe(catalogueChecksum(PLAN_CATALOGUE));
  });

  it("is frozen: plans cannot be edited at run time", () => {
    expect(Object.isFrozen(PLAN_CATALOGUE)).toBe(true);
    expect(Object.isFrozen(PLAN_CATALOGUE.plans)).toBe(true);
    expect(PLAN_CATALOGUE.plans.every((plan) => Object.isFrozen(plan))).toBe(true);
  });

  it("has a free tier and three paid tiers in integer minor units", () => {
    expect(PLAN_CATALOGUE.plans.map((p) => [p.id, p.monthly_price, p.included_executions, p.overage_price_per_1000])).toEqual([
      ["free", 0, 1_000, 500],
      ["starter", 1_900, 20_000, 200],
      ["growth", 9_900, 150_000, 100],
      ["scale", 49_900, 1_000_000, 50],
    ]);
    for (const plan of PLAN_CATALOGUE.plans) {
      expect(Number.isInteger(plan.monthly_price) && Number.isInteger(plan.overage_price_per_1000)).toBe(true);
      expect(plan.currency).toBe("usd");
    }
  });
});

describe("charges at tier boundaries (overage per started block of 1,000)", () => {
  const cases: Array<[string, number, number, number]> = [
    // plan, executions, overage blocks, total
    ["free", 0, 0, 0],
    ["free", 1_000, 0, 0],
    ["free", 1_001, 1, 500],
    ["free", 2_000, 1, 500],
    ["free", 2_001, 2, 1_000],
    ["free", 1_000_000, 999, 499_500],
    ["starter", 0, 0, 1_900],
    ["starter", 20_000, 0, 1_900],
    ["starter", 20_001, 1, 2_100],
    ["starter", 1_234_567, 1_215, 244_900],
    ["growth", 0, 0, 9_900],
    ["growth", 150_000, 0, 9_900],
    ["growth", 150_001, 1, 10_000],
    ["growth", 10_000_000, 9_850, 994_900],
    ["scale", 0, 0, 49_900],
    ["scale", 1_000_000, 0, 49_900],
    ["scale", 1_000_001, 1, 49_950],
    ["scale", 50_000_000, 49_000, 2_499_900],
  ];
  it.each(cases)("%s plan, %i executions: %i blocks, total %i", (planId, executions, blocks, total) => {
    const charges = chargesFor(requirePlan(planId), executions);
    expect(charges.overage_blocks).toBe(blocks);
    expect(charges.total).toBe(total);
    expect(charges.base_fee + charges.overage_amount).toBe(total);
  });

  it("refuses a negative or fractional execution count", () => {
    expect(() => chargesFor(requirePlan("free"), -1)).toThrow(RangeError);
    expect(() => chargesFor(requirePlan("free"), 1.5)).toThrow(RangeError);
  });
});

describe("plan match", () => {
  const match = (current: string, executions: number) => matchPlan(current, executions, "actual");

  it("keeps the free plan while it is cheapest and moves to Starter one execution later", () => {
    expect(match("free", 4_000)).toMatchObject({ recommended_plan: { plan_id: "free", monthly_cost: 1_500 }, difference: 0, better_plan_available: false });
    expect(match("free", 4_001)).toMatchObject({
      current_plan: { plan_id: "free", monthly_cost: 2_000 },
      recommended_plan: { plan_id: "starter", monthly_cost: 1_900 },
      difference: -100,
      better_plan_available: true,
    });
  });

  it("keeps the current plan on a tie, and otherwise takes the first of the tied plans", () => {
    // 60,000 executions: Starter 1,900 + 40 × 200 = 9,900 = Growth.
    expect(match("growth", 60_000).recommended_plan.plan_id).toBe("growth");
    expect(match("starter", 60_000).recommended_plan.plan_id).toBe("starter");
    expect(match("free", 60_000)).toMatchObject({ recommended_plan: { plan_id: "starter", monthly_cost: 9_900 }, difference: -19_600 });
    expect(match("starter", 60_001)).toMatchObject({ recommended_plan: { plan_id: "growth", monthly_cost: 9_900 }, difference: -200 });
    // 550,000: Growth 9,900 + 400 × 100 = 49,900 = Scale.
    expect(match("scale", 550_000).better_plan_available).toBe(false);
    expect(match("growth", 550_001)).toMatchObject({ recommended_plan: { plan_id: "scale" }, difference: -100 });
  });

  it("considers cheaper plans too: an idle Scale tenant is pointed to Free", () => {
    expect(match("scale", 0)).toMatchObject({ recommended_plan: { plan_id: "free", monthly_cost: 0 }, difference: -49_900 });
  });
});

describe("billing periods and projection", () => {
  it("names UTC calendar months and steps across years", () => {
    expect(periodOf(new Date("2026-01-31T23:59:59.999Z"))).toBe("2026-01");
    expect(periodOf(new Date("2026-02-01T00:00:00.000Z"))).toBe("2026-02");
    expect(nextPeriod("2026-12")).toBe("2027-01");
    expect(previousPeriod("2026-01")).toBe("2025-12");
    expect(periodLabel("2026-02")).toBe("February 2026");
  });

  it("projects linearly on the elapsed fraction of the month, rounding down", () => {
    expect(projectMonthEnd(150, "2026-01", new Date("2026-01-16T00:00:00.000Z"))).toBe(310); // 150 × 31/15
    expect(projectMonthEnd(100, "2026-02", new Date("2026-02-08T00:00:00.000Z"))).toBe(400); // 100 × 28/7
    expect(projectMonthEnd(0, "2026-01", new Date("2026-01-20T00:00:00.000Z"))).toBe(0);
    expect(projectMonthEnd(10_000_000_000, "2026-01", new Date("2026-01-16T12:00:00.000Z"))).toBe(20_000_000_000);
  });

  it("counts at least one hour elapsed, and at most the whole month", () => {
    expect(projectMonthEnd(1, "2026-01", new Date("2026-01-01T00:00:00.000Z"))).toBe(744);
    expect(projectMonthEnd(1, "2026-01", new Date("2026-01-01T00:10:00.000Z"))).toBe(744);
    expect(projectMonthEnd(500, "2026-01", new Date("2026-03-01T00:00:00.000Z"))).toBe(500);
  });
});

describe("money formatting", () => {
  it("formats integer minor units without floats", () => {
    expect(formatMoney(0, "usd")).toBe("$0.00");
    expect(formatMoney(5, "usd")).toBe("$0.05");
    expect(formatMoney(1_900, "usd")).toBe("$19.00");
    expect(formatMoney(123_456_789, "usd")).toBe("$1,234,567.89");
    expect(formatMoney(-100, "usd")).toBe("-$1.00");
    expect(formatMoney(1_050, "eur")).toBe("10.50 EUR");
    expect(groupDigits(1_000_000)).toBe("1,000,000");
    expect(() => formatMoney(1.5, "usd")).toThrow(RangeError);
  });
});

describe("invoice", () => {
  const invoiceFor = (planId: string, usage: { test: number; live: number }, switchedTo?: { planName: string; period: string }) =>
    buildInvoice({
      id: null,
      status: switchedTo ? "finalized" : "draft",
      period: "2026-01",
      plan: requirePlan(planId),
      catalogueVersion: "2026-01",
      usage,
      planMatch: matchPlan(planId, usage.test + usage.live, "actual"),
      switchedTo,
      generatedAt: new Date("2026-02-02T00:00:00.000Z"),
    });

  it("has a base-fee line and an overage line of blocks × unit price, and totals them", () => {
    const invoice = invoiceFor("starter", { test: 1, live: 20_000 });
    expect(invoice.line_items.map(({ type, quantity, unit_amount, amount }) => ({ type, quantity, unit_amount, amount }))).toEqual([
      { type: "base_fee", quantity: 1, unit_amount: 1_900, amount: 1_900 },
      { type: "overage", quantity: 1, unit_amount: 200, amount: 200 },
    ]);
    expect(invoice).toMatchObject({ subtotal: 2_100, total: 2_100, currency: "usd", livemode: false, period_start: "2026-01-01T00:00:00.000Z", period_end: "2026-02-01T00:00:00.000Z" });
    expect(invoice.usage).toEqual({ executions: 20_001, by_env: { test: 1, live: 20_000 }, included_executions: 20_000, overage_executions: 1, overage_blocks: 1 });
  });

  it("writes a notice with what was used, what is owed and the better plan", () => {
    expect(invoiceFor("free", { test: 321, live: 4_000 }).customer_notice).toBe(
      "In January 2026 you ran 4,321 tool executions (4,000 live, 321 test) on the Free plan, which includes 1,000. You will owe $20.00. " +
        "That is the $0.00 base fee plus $20.00 for 3,321 executions over your allowance (4 started blocks of 1,000 at $5.00). " +
        "The Starter plan would cost $19.00 for this usage, $1.00 less. Finalizing this period switches you to it from February 2026.",
    );
  });

  it("says when the plan is already the cheapest, and when a finalized period switched it", () => {
    expect(invoiceFor("free", { test: 0, live: 1_000 }).customer_notice).toBe(
      "In January 2026 you ran 1,000 tool executions (1,000 live, 0 test) on the Free plan, which includes 1,000. You will owe $0.00. " +
        "That is the $0.00 base fee; you stayed within your allowance. Your Free plan is already the cheapest plan for this usage.",
    );
    expect(invoiceFor("free", { test: 0, live: 5_000 }, { planName: "Starter", period: "2026-02" }).customer_notice).toMatch(
      /You owe \$20\.00\..*The Starter plan would cost \$19\.00 for this usage, \$1\.00 less\. Your plan changes to Starter from February 2026\.$/,
    );
  });
});
