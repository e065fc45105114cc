import { afterAll, beforeAll, expect, it } from "vitest";
import { catalogueChecksum, PLAN_CATALOGUE } from "../src/billing/plan-catalogue.js";
import { manualClock } from "../src/clock.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { auditActions, seedUsage, viewerToken } from "./support/billing.js";
import { describeEachDatabase } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";

describeEachDatabase("billing: plans, status and invoice preview", (kind) => {
  let broker: TestBroker;
  const clock = manualClock(new Date("2026-01-16T00:00:00.000Z"));
  beforeAll(async () => {
    broker = await startBroker(kind, { clock });
  });
  afterAll(() => broker.close());

  /** A tenant created on `createdAt`, with the clock then moved to `now`. */
  async function tenantAt(createdAt: string, now = createdAt): Promise<TestTenant> {
    clock.set(new Date(createdAt));
    const tenant = await createTenant(broker);
    clock.set(new Date(now));
    return tenant;
  }
  const preview = (tenant: TestTenant, body?: unknown) => call(broker, "POST", "/v1/billing/invoice-preview", { ...asOperator(tenant), body });

  it("refuses a missing credential and a control key with 401", async () => {
    const tenant = await tenantAt("2026-01-16T00:00:00.000Z");
    for (const [method, path] of [["GET", "/v1/billing/status"], ["GET", "/v1/billing/plans"], ["POST", "/v1/billing/finalize-period"]] as const) {
      expect((await call(broker, method, path)).status).toBe(401);
      const withKey = await call(broker, method, path, { token: tenant.testKey, tenant: tenant.tenantId });
      expect(withKey.status).toBe(401);
      expect(withKey.body.error.code).toBe("unauthorized");
    }
  });

  it("lets a viewer read plans and status but not preview or finalize (403)", async () => {
    const tenant = await tenantAt("2026-01-16T00:00:00.000Z");
    const viewer = { token: await viewerToken(broker, tenant), tenant: tenant.tenantId };
    expect((await call(broker, "GET", "/v1/billing/plans", viewer)).status).toBe(200);
    expect((await call(broker, "GET", "/v1/billing/status", viewer)).status).toBe(200);
    const previewed = await call(broker, "POST", "/v1/billing/invoice-preview", { ...viewer, body: {} });
    expect(previewed.status).toBe(403);
    expect(previewed.body.error.code).toBe("forbidden");
    expect((await call(broker, "POST", "/v1/billing/finalize-period", { ...viewer, body: { period: "2025-12" } })).status).toBe(403);
  });

  it("returns the locked catalogue with a stable checksum", async () => {
    const tenant = await tenantAt("2026-01-16T00:00:00.000Z");
    const first = await call(broker, "GET", "/v1/billing/plans", asOperator(tenant));
    const second = await call(broker, "GET", "/v1/billing/plans", asOperator(tenant));
    expect(first.status).toBe(200);
    expect(first.text).toBe(second.text);
    expect(first.body.version).toBe("2026-01");
    expect(first.body.checksum).toBe(catalogueChecksum(PLAN_CATALOGUE));
    expect(first.body.plans).toEqual(PLAN_CATALOGUE.plans);
  });

  it("shows this month's usage from usage events, the linear projection and the plan match", async () => {
    const tenant = await tenantAt("2026-01-10T08:00:00.000Z", "2026-01-16T00:00:00.000Z");
    await seedUsage(broker, tenant, { period: "2026-01", count: 1_900, env: "live" });
    await seedUsage(broker, tenant, { period: "2026-01", count: 100, env: "test" });
    await seedUsage(broker, tenant, { period: "2025-12", count: 7 }); // another period: not this month
    const other = await tenantAt("2026-01-10T08:00:00.000Z", "2026-01-16T00:00:00.000Z");
    await seedUsage(broker, other, { period: "2026-01", count: 50 }); // another tenant: never counted here

    const status = await call(broker, "GET", "/v1/billing/status", asOperator(tenant));
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      as_of: "2026-01-16T00:00:00.000Z",
      livemode: false,
      metering: { mode: "test", reported_executions: 2_000, unreported_executions: 0 },
      catalogue_version: "2026-01",
      plan: { id: "free", monthly_price: 0, included_executions: 1_000, overage_price_per_1000: 500 },
      period: { id: "2026-01", start: "2026-01-01T00:00:00.000Z", end: "2026-02-01T00:00:00.000Z" },
      usage: {
        executions: 2_000,
        by_env: { live: 1_900, test: 100 },
        included_executions: 1_000,
        remaining_included_executions: 0,
        overage_executions: 1_000,
        overage_blocks: 1,
        overage_amount: 500,
        amount_due_so_far: 500,
      },
      // 2,000 executions in 15 of 31 days → floor(2,000 × 31 / 15) = 4,133 → 4 blocks on Free.
      projection: { method: "linear", executions: 4_133, overage_blocks: 4, monthly_cost: 2_000 },
      plan_match: {
        basis: "projected",
        executions: 4_133,
        current_plan: { plan_id: "free", monthly_cost: 2_000 },
        recommended_plan: { plan_id: "starter", name: "Starter", monthly_cost: 1_900 },
        difference: -100,
        better_plan_available: true,
      },
      currency: "usd",
    });
    const otherStatus = await call(broker, "GET", "/v1/billing/status", asOperator(other));
    expect(otherStatus.body.usage.executions).toBe(50);
  });

  it("moves the projection with the clock", async () => {
    const tenant = await tenantAt("2026-01-02T00:00:00.000Z", "2026-01-16T00:00:00.000Z");
    await seedUsage(broker, tenant, { period: "2026-01", count: 150 });
    expect((await call(broker, "GET", "/v1/billing/status", asOperator(tenant))).body.projection.executions).toBe(310);
    clock.set(new Date("2026-01-31T00:00:00.000Z")); // 30 of 31 days: floor(150 × 31 / 30)
    expect((await call(broker, "GET", "/v1/billing/status", asOperator(tenant))).body.projection.executions).toBe(155);
  });

  it("shows an idle tenant nothing owed and its plan as the best match", async () => {
    const tenant = await tenantAt("2026-01-16T00:00:00.000Z");
    const status = await call(broker, "GET", "/v1/billing/status", asOperator(tenant));
    expect(status.body.usage).toMatchObject({ executions: 0, by_env: { test: 0, live: 0 }, remaining_included_executions: 1_000, amount_due_so_far: 0 });
    expect(status.body.plan_match).toMatchObject({ recommended_plan: { plan_id: "free", monthly_cost: 0 }, difference: 0, better_plan_available: false });
  });

  const boundaries: Array<[number, number, number]> = [
    // executions, overage blocks, total (Free: 1,000 included, $5.00 per started 1,000)
    [0, 0, 0],
    [1_000, 0, 0],
    [1_001, 1, 500],
    [12_345, 12, 6_000],
  ];
  it.each(boundaries)("invoices %i executions of an ended month as %i overage blocks, total %i", async (executions, blocks, total) => {
    const tenant = await tenantAt("2026-01-05T00:00:00.000Z", "2026-02-10T00:00:00.000Z");
    const test = Math.min(345, executions);
    if (test > 0) await seedUsage(broker, tenant, { period: "2026-01", count: test, env: "test" });
    if (executions > test) await seedUsage(broker, tenant, { period: "2026-01", count: executions - test, env: "live" });
    const invoice = await preview(tenant, { period: "2026-01" });
    expect(invoice.status).toBe(200);
    expect(invoice.body).toMatchObject({
      id: null,
      object: "invoice",
      status: "draft",
      livemode: false,
      period: "2026-01",
      currency: "usd",
      plan: { id: "free", name: "Free" },
      usage: { executions, by_env: { test, live: executions - test }, included_executions: 1_000, overage_blocks: blocks },
      subtotal: total,
      total,
    });
    expect(invoice.body.line_items).toEqual([
      expect.objectContaining({ type: "base_fee", quantity: 1, unit_amount: 0, amount: 0 }),
      expect.objectContaining({ type: "overage", quantity: blocks, unit_amount: 500, amount: total }),
    ]);
    expect(invoice.body.plan_match.basis).toBe("actual");
  });

  it("recommends Starter in the notice of a large month on Free", async () => {
    const tenant = await tenantAt("2026-01-05T00:00:00.000Z", "2026-02-10T00:00:00.000Z");
    await seedUsage(broker, tenant, { period: "2026-01", count: 12_345 });
    const invoice = await preview(tenant, { period: "2026-01" });
    expect(invoice.body.plan_match).toMatchObject({ recommended_plan: { plan_id: "starter", monthly_cost: 1_900 }, difference: -4_100, better_plan_available: true });
    expect(invoice.body.customer_notice).toBe(
      "In January 2026 you ran 12,345 tool executions (12,345 live, 0 test) on the Free plan, which includes 1,000. You will owe $60.00. " +
        "That is the $0.00 base fee plus $60.00 for 11,345 executions over your allowance (12 started blocks of 1,000 at $5.00). " +
        "The Starter plan would cost $19.00 for this usage, $41.00 less. Finalizing this period switches you to it from February 2026.",
    );
  });

  it("previews the current period when the body is omitted, with usage so far and the projected match", async () => {
    const tenant = await tenantAt("2026-01-02T00:00:00.000Z", "2026-01-16T00:00:00.000Z");
    await seedUsage(broker, tenant, { period: "2026-01", count: 1_001 });
    const invoice = await call(broker, "POST", "/v1/billing/invoice-preview", asOperator(tenant));
    expect(invoice.status).toBe(200);
    expect(invoice.body).toMatchObject({ period: "2026-01", status: "draft", total: 500, plan_match: { basis: "projected", executions: 2_068 } });
    expect(invoice.body.customer_notice).toMatch(/^So far in January 2026 you ran 1,001 tool executions .* You owe so far \$5\.00\./);
    expect(invoice.body.customer_notice).toMatch(/Your Free plan is already the cheapest plan for your projected 2,068 executions this month\.$/);
    expect((await preview(tenant, {})).body.period).toBe("2026-01");
  });

  it("refuses periods before the tenant existed or not started yet (422), and malformed ones (400)", async () => {
    const tenant = await tenantAt("2026-01-16T00:00:00.000Z");
    const before = await preview(tenant, { period: "2025-12" });
    expect(before.status).toBe(422);
    expect(before.body.error).toMatchObject({ code: "period_out_of_range", details: { period: "2025-12", first_period: "2026-01" } });
    expect((await preview(tenant, { period: "2026-02" })).body.error.code).toBe("period_out_of_range");
    for (const period of ["2026-13", "2026-1", "january", 202601]) {
      expect((await preview(tenant, { period })).status).toBe(400);
    }
    expect((await preview(tenant, { period: "2026-01", extra: true })).status).toBe(400);
  });

  it("audits every invoice preview, refusals included", async () => {
    const tenant = await tenantAt("2026-01-16T00:00:00.000Z");
    await preview(tenant, {});
    await preview(tenant, { period: "2025-12" });
    expect(await auditActions(broker, tenant, "billing.")).toEqual([
      { action: "billing.invoice_previewed", outcome: "success", data: { period: "2026-01", status: "draft", total: 0, currency: "usd" } },
      { action: "billing.invoice_previewed", outcome: "failure", data: { period: "2025-12", code: "period_out_of_range" } },
    ]);
  });

  it("documents the billing routes with their schemas in the OpenAPI description", async () => {
    const spec = await call(broker, "GET", "/openapi.json");
    expect(spec.status).toBe(200);
    const paths = spec.body.paths;
    expect(Object.keys(paths["/v1/billing/status"].get.responses)).toEqual(expect.arrayContaining(["200", "401"]));
    expect(Object.keys(paths["/v1/billing/finalize-period"].post.responses)).toEqual(expect.arrayContaining(["200", "403", "409", "422"]));
    expect(paths["/v1/billing/invoice-preview"].post.description).toContain("executions with test and live credentials both count");
  });
});
