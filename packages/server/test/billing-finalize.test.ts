import { afterAll, beforeAll, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { auditActions, currentPlan, eventsOf, seedUsage } from "./support/billing.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describeEachDatabase("POST /v1/billing/finalize-period", (kind) => {
  let broker: TestBroker;
  const clock = manualClock(new Date("2026-01-10T00:00:00.000Z"));
  beforeAll(async () => {
    broker = await startBroker(kind, { clock });
  });
  afterAll(() => broker.close());

  /** A tenant created on 2026-01-10 with the clock then moved to `now`. */
  async function januaryTenant(now: string): Promise<TestTenant> {
    clock.set(new Date("2026-01-10T00:00:00.000Z"));
    const tenant = await createTenant(broker);
    clock.set(new Date(now));
    return tenant;
  }
  const finalize = (tenant: TestTenant, period: string) => call(broker, "POST", "/v1/billing/finalize-period", { ...asOperator(tenant), body: { period } });
  const preview = (tenant: TestTenant, period: string) => call(broker, "POST", "/v1/billing/invoice-preview", { ...asOperator(tenant), body: { period } });

  it("refuses the current, open period and a future one with 409 period_open, and audits the refusal", async () => {
    const tenant = await januaryTenant("2026-01-20T00:00:00.000Z");
    const open = await finalize(tenant, "2026-01");
    expect(open.status).toBe(409);
    expect(open.body.error).toMatchObject({ code: "period_open", details: { period: "2026-01", current_period: "2026-01" } });
    expect((await finalize(tenant, "2026-03")).body.error.code).toBe("period_open");
    expect(await currentPlan(broker, tenant)).toBe("free");
    expect((await auditActions(broker, tenant, "billing.")).map((a) => [a.action, a.outcome, a.data.code])).toEqual([
      ["billing.period_finalized", "failure", "period_open"],
      ["billing.period_finalized", "failure", "period_open"],
    ]);
  });

  it("freezes last month's invoice and switches to the matched plan for the next period", async () => {
    const tenant = await januaryTenant("2026-02-03T09:00:00.000Z");
    await seedUsage(broker, tenant, { period: "2026-01", count: 5_000 });
    const result = await finalize(tenant, "2026-01");
    expect(result.status).toBe(200);
    expect(result.headers.get("idempotent-replayed")).toBeNull();
    expect(result.body).toMatchObject({
      period: "2026-01",
      status: "finalized",
      finalized_at: "2026-02-03T09:00:00.000Z",
      // 5,000 on Free: 4 started blocks × $5.00 = $20.00; Starter would be $19.00.
      invoice: { status: "finalized", plan: { id: "free" }, usage: { executions: 5_000, overage_blocks: 4 }, subtotal: 2_000, total: 2_000, livemode: false },
      plan_match: { basis: "actual", executions: 5_000, recommended_plan: { plan_id: "starter", monthly_cost: 1_900 }, difference: -100, consumed: true },
      plan_change: { from_plan_id: "free", to_plan_id: "starter", effective_period: "2026-02" },
      metering: { mode: "test", reported_executions: 5_000 },
    });
    expect(result.body.invoice.id).toMatch(UUID);
    expect(result.body.invoice.customer_notice).toMatch(/Your plan changes to Starter from February 2026\.$/);
    expect(await currentPlan(broker, tenant)).toBe("starter");

    const status = await call(broker, "GET", "/v1/billing/status", asOperator(tenant));
    expect(status.body.plan.id).toBe("starter");
    expect(status.body.period.id).toBe("2026-02");
  });

  it("returns the same result when finalized twice, with one plan switch, one event and one invoice", async () => {
    const tenant = await januaryTenant("2026-02-03T09:00:00.000Z");
    await seedUsage(broker, tenant, { period: "2026-01", count: 5_000 });
    const first = await finalize(tenant, "2026-01");
    clock.set(new Date("2026-02-20T00:00:00.000Z"));
    const second = await finalize(tenant, "2026-01");
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await currentPlan(broker, tenant)).toBe("starter");

    const events = await eventsOf(broker, tenant, "billing.period_finalized");
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toEqual({
      period: "2026-01",
      invoice_id: first.body.invoice.id,
      plan_id: "free",
      executions: 5_000,
      total: 2_000,
      currency: "usd",
      plan_change: { from_plan_id: "free", to_plan_id: "starter", effective_period: "2026-02" },
    });
    expect((await auditActions(broker, tenant, "billing.")).map((a) => a.action)).toEqual([
      "billing.period_finalized",
      "billing.plan_changed",
      "billing.period_finalize_repeated",
    ]);
    const rows = await broker.runtime.store.db.selectFrom("billing_periods").selectAll().where("tenant_id", "=", tenant.tenantId).execute();
    expect(rows).toHaveLength(1);
  });

  it("applies the switch once when two finalize calls race", async () => {
    const tenant = await januaryTenant("2026-02-03T09:00:00.000Z");
    await seedUsage(broker, tenant, { period: "2026-01", count: 5_000 });
    const [a, b] = await Promise.all([finalize(tenant, "2026-01"), finalize(tenant, "2026-01")]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toEqual(b.body);
    expect(await eventsOf(broker, tenant, "billing.period_finalized")).toHaveLength(1);
    expect((await auditActions(broker, tenant, "billing.plan_changed")).length).toBe(1);
  });

  it("keeps the plan when no cheaper plan matched, and records the match as not consumed", async () => {
    const tenant = await januaryTenant("2026-02-03T09:00:00.000Z");
    await seedUsage(broker, tenant, { period: "2026-01", count: 1_001 });
    const result = await finalize(tenant, "2026-01");
    expect(result.body).toMatchObject({ invoice: { total: 500 }, plan_match: { better_plan_available: false, consumed: false }, plan_change: null });
    expect(result.body.invoice.customer_notice).toMatch(/Your Free plan is already the cheapest plan for this usage\.$/);
    expect(await currentPlan(broker, tenant)).toBe("free");
    expect((await finalize(tenant, "2026-01")).body).toEqual(result.body);
  });

  it("serves the frozen invoice afterwards, even if late usage for that month arrives", async () => {
    const tenant = await januaryTenant("2026-02-03T09:00:00.000Z");
    await seedUsage(broker, tenant, { period: "2026-01", count: 1_500 });
    const finalized = await finalize(tenant, "2026-01");
    await seedUsage(broker, tenant, { period: "2026-01", count: 2_000 });
    const previewed = await preview(tenant, "2026-01");
    expect(previewed.status).toBe(200);
    expect(previewed.body).toEqual(finalized.body.invoice);
    expect((await finalize(tenant, "2026-01")).body).toEqual(finalized.body);
  });

  it("finalizes periods in order, and the next month is billed on the plan the previous one switched to", async () => {
    const tenant = await januaryTenant("2026-03-05T00:00:00.000Z");
    await seedUsage(broker, tenant, { period: "2026-01", count: 5_000 });
    await seedUsage(broker, tenant, { period: "2026-02", count: 100 });
    const early = await finalize(tenant, "2026-02");
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: "previous_period_open", details: { period: "2026-01" } });

    expect((await finalize(tenant, "2026-01")).body.plan_change).toMatchObject({ to_plan_id: "starter", effective_period: "2026-02" });
    const february = await finalize(tenant, "2026-02");
    expect(february.status).toBe(200);
    // February on Starter: $19.00 for 100 executions, where Free would cost nothing: back to Free from March.
    expect(february.body).toMatchObject({
      invoice: { plan: { id: "starter" }, total: 1_900, line_items: [{ type: "base_fee", amount: 1_900 }, { type: "overage", quantity: 0, amount: 0 }] },
      plan_match: { recommended_plan: { plan_id: "free", monthly_cost: 0 }, difference: -1_900, consumed: true },
      plan_change: { from_plan_id: "starter", to_plan_id: "free", effective_period: "2026-03" },
    });
    expect(await currentPlan(broker, tenant)).toBe("free");
  });

  it("refuses a period before the tenant existed (422) and a malformed period (400)", async () => {
    const tenant = await januaryTenant("2026-02-03T00:00:00.000Z");
    const before = await finalize(tenant, "2025-12");
    expect(before.status).toBe(422);
    expect(before.body.error.code).toBe("period_out_of_range");
    expect((await finalize(tenant, "2026-1")).status).toBe(400);
    expect((await call(broker, "POST", "/v1/billing/finalize-period", { ...asOperator(tenant), body: {} })).status).toBe(400);
  });

  it("never lets one tenant finalize or read another tenant's period", async () => {
    const owner = await januaryTenant("2026-02-03T00:00:00.000Z");
    const stranger = await januaryTenant("2026-02-03T00:00:00.000Z");
    await seedUsage(broker, owner, { period: "2026-01", count: 5_000 });
    const strangers = await call(broker, "POST", "/v1/billing/finalize-period", { token: stranger.operatorToken, tenant: owner.tenantId, body: { period: "2026-01" } });
    expect(strangers.status).toBe(401);
    const own = await finalize(stranger, "2026-01");
    expect(own.body).toMatchObject({ invoice: { usage: { executions: 0 }, total: 0 }, plan_change: null });
    expect(await currentPlan(broker, owner)).toBe("free");
  });
});
