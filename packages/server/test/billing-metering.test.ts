import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manualClock } from "../src/clock.js";
import { EXECUTIONS_METER, type MeterEvent } from "../src/metering/metering-reporter.js";
import { createTenant, startBroker, type TestBroker, type TestTenant } from "./support/broker.js";
import { recordUsageAgain, seedUsage } from "./support/billing.js";
import { describeEachDatabase, type DbKind } from "./support/databases.js";
import { asOperator, call } from "./support/http.js";

async function ledgerRows(broker: TestBroker, tenant: TestTenant) {
  return broker.runtime.store.db.selectFrom("metering_ledger").selectAll().where("tenant_id", "=", tenant.tenantId).execute();
}

function meteringSuite(kind: DbKind) {
  describe("metering mode test", () => {
    let broker: TestBroker;
    const clock = manualClock(new Date("2026-01-16T00:00:00.000Z"));
    beforeAll(async () => {
      broker = await startBroker(kind, { clock });
    });
    afterAll(() => broker.close());
    const status = (tenant: TestTenant) => call(broker, "GET", "/v1/billing/status", asOperator(tenant));

    it("does not count a replay or a continue of an already executed invocation again", async () => {
      const tenant = await createTenant(broker);
      const [executed] = await seedUsage(broker, tenant, { period: "2026-01", count: 3 });
      // A replay (same idempotency key) or a continue re-uses the invocation id: its usage row is refused.
      await expect(recordUsageAgain(broker, tenant, executed!, "2026-01")).rejects.toThrow();
      await expect(recordUsageAgain(broker, tenant, executed!, "2026-01")).rejects.toThrow();
      expect((await status(tenant)).body.usage.executions).toBe(3);
      const invoice = await call(broker, "POST", "/v1/billing/invoice-preview", { ...asOperator(tenant), body: {} });
      expect(invoice.body.usage.executions).toBe(3);
      expect(await ledgerRows(broker, tenant)).toHaveLength(3);
    });

    it("reports each usage event to the test ledger once, keyed by the usage event id, however often status is read", async () => {
      const tenant = await createTenant(broker);
      await seedUsage(broker, tenant, { period: "2026-01", count: 7, env: "live" });
      await seedUsage(broker, tenant, { period: "2026-01", count: 3, env: "test" });
      for (let i = 0; i < 3; i++) {
        expect((await status(tenant)).body.metering).toEqual({ mode: "test", reported_executions: 10, unreported_executions: 0 });
      }
      const rows = await ledgerRows(broker, tenant);
      expect(rows).toHaveLength(10);
      const usageIds = await broker.runtime.store.db.selectFrom("usage_events").select("id").where("tenant_id", "=", tenant.tenantId).execute();
      expect(rows.map((r) => r.idempotency_key).sort()).toEqual(usageIds.map((r) => r.id).sort());
      expect(rows.every((r) => r.meter === EXECUTIONS_METER && Number(r.quantity) === 1 && r.period === "2026-01")).toBe(true);
      expect(await broker.services.meteringLedger.totals(tenant.tenantId, "2026-01")).toEqual({ test: 3, live: 7 });
    });

    it("never double counts a retried report, even after losing the record of having reported", async () => {
      const tenant = await createTenant(broker);
      await seedUsage(broker, tenant, { period: "2026-01", count: 5 });
      expect(await broker.services.metering.sync(tenant.tenantId)).toEqual({ recorded: 5, duplicates: 0 });
      // A crash between the processor accepting the events and the broker recording it: report again.
      await broker.runtime.store.db.deleteFrom("metering_reports").where("tenant_id", "=", tenant.tenantId).execute();
      expect((await status(tenant)).body.metering).toEqual({ mode: "test", reported_executions: 5, unreported_executions: 0 });
      expect(await broker.services.meteringLedger.totals(tenant.tenantId, "2026-01")).toEqual({ test: 0, live: 5 });

      const event: MeterEvent = {
        idempotencyKey: `retry-${tenant.tenantId}`,
        tenantId: tenant.tenantId,
        meter: EXECUTIONS_METER,
        env: "live",
        period: "2026-01",
        quantity: 1,
        occurredAt: "2026-01-02T00:00:00.000Z",
      };
      const reporter = broker.services.meteringLedger.reporter;
      expect(await reporter.report([event])).toEqual({ recorded: 1, duplicates: 0 });
      expect(await reporter.report([event, event])).toEqual({ recorded: 0, duplicates: 2 });
      expect(await broker.services.meteringLedger.totals(tenant.tenantId, "2026-01")).toEqual({ test: 0, live: 6 });
    });

    it("reports new usage at the next read, and usage that arrives late", async () => {
      const tenant = await createTenant(broker);
      await seedUsage(broker, tenant, { period: "2026-01", count: 2 });
      expect((await status(tenant)).body.metering.reported_executions).toBe(2);
      await seedUsage(broker, tenant, { period: "2026-01", count: 4 });
      expect((await status(tenant)).body.metering).toEqual({ mode: "test", reported_executions: 6, unreported_executions: 0 });
    });
  });

  describe("metering mode test, a tenant with history", () => {
    let broker: TestBroker;
    const clock = manualClock(new Date("2026-01-16T00:00:00.000Z"));
    beforeAll(async () => {
      broker = await startBroker(kind, { clock });
    });
    afterAll(() => broker.close());
    const status = async (tenant: TestTenant) => (await call(broker, "GET", "/v1/billing/status", asOperator(tenant))).body.metering;

    it("reads from shortly before the newest execution reported; one recorded later than that is reported when its period is finalized", async () => {
      const tenant = await createTenant(broker);
      await seedUsage(broker, tenant, { period: "2026-01", count: 3, occurredAt: "2026-01-10T12:00:00.000Z" });
      expect(await status(tenant)).toEqual({ mode: "test", reported_executions: 3, unreported_executions: 0 });

      // Recorded now, but stamped a day before the newest report: past the ten minutes looked back.
      await seedUsage(broker, tenant, { period: "2026-01", count: 1, occurredAt: "2026-01-09T12:00:00.000Z" });
      // Within the ten minutes before the newest report, and after it: both reported at the next read.
      await seedUsage(broker, tenant, { period: "2026-01", count: 1, occurredAt: "2026-01-10T11:55:00.000Z" });
      await seedUsage(broker, tenant, { period: "2026-01", count: 2, occurredAt: "2026-01-12T12:00:00.000Z" });
      expect(await status(tenant)).toEqual({ mode: "test", reported_executions: 6, unreported_executions: 1 });

      clock.set(new Date("2026-02-02T00:00:00.000Z"));
      const finalized = await call(broker, "POST", "/v1/billing/finalize-period", { ...asOperator(tenant), body: { period: "2026-01" } });
      expect(finalized.status).toBe(200);
      expect(finalized.body.metering).toEqual({ mode: "test", reported_executions: 7 });
      expect(await broker.services.meteringLedger.totals(tenant.tenantId, "2026-01")).toEqual({ test: 0, live: 7 });

      // One more, after January was finalized: the next finalization reads every period up to its own.
      await seedUsage(broker, tenant, { period: "2026-01", count: 1, occurredAt: "2026-01-09T13:00:00.000Z" });
      await status(tenant);
      expect(await broker.services.meteringLedger.totals(tenant.tenantId, "2026-01")).toEqual({ test: 0, live: 7 });
      clock.set(new Date("2026-03-02T00:00:00.000Z"));
      expect((await call(broker, "POST", "/v1/billing/finalize-period", { ...asOperator(tenant), body: { period: "2026-02" } })).status).toBe(200);
      expect(await broker.services.meteringLedger.totals(tenant.tenantId, "2026-01")).toEqual({ test: 0, live: 8 });
    });

    it("does not let an execution stamped in the future hide the ones before it", async () => {
      clock.set(new Date("2026-04-16T00:00:00.000Z"));
      const tenant = await createTenant(broker);
      await seedUsage(broker, tenant, { period: "2026-04", count: 2, occurredAt: "2026-04-10T12:00:00.000Z" });
      // From an instance whose clock runs a month ahead: reported, and the newest report.
      await seedUsage(broker, tenant, { period: "2026-05", count: 1, occurredAt: "2026-05-16T00:00:00.000Z" });
      expect(await status(tenant)).toEqual({ mode: "test", reported_executions: 2, unreported_executions: 0 });
      // Five minutes ago here: within the ten minutes looked back from now.
      await seedUsage(broker, tenant, { period: "2026-04", count: 1, occurredAt: "2026-04-15T23:55:00.000Z" });
      expect(await status(tenant)).toEqual({ mode: "test", reported_executions: 3, unreported_executions: 0 });
    });

    it("reads a tenant's whole history while no report says when its execution occurred (reports from before the upgrade)", async () => {
      clock.set(new Date("2026-03-16T00:00:00.000Z"));
      const tenant = await createTenant(broker);
      await seedUsage(broker, tenant, { period: "2026-03", count: 2, occurredAt: "2026-03-10T12:00:00.000Z" });
      expect(await status(tenant)).toMatchObject({ reported_executions: 2, unreported_executions: 0 });
      await broker.runtime.store.db.updateTable("metering_reports").set({ occurred_at: null }).where("tenant_id", "=", tenant.tenantId).execute();

      await seedUsage(broker, tenant, { period: "2026-03", count: 1, occurredAt: "2026-03-01T12:00:00.000Z" });
      expect(await status(tenant)).toEqual({ mode: "test", reported_executions: 3, unreported_executions: 0 });
      const reports = await broker.runtime.store.db.selectFrom("metering_reports").select("occurred_at").where("tenant_id", "=", tenant.tenantId).execute();
      expect(reports.map((report) => report.occurred_at).sort()).toEqual(["2026-03-01T12:00:00.000Z", null, null]);
    });
  });

  describe("metering mode off", () => {
    let broker: TestBroker;
    const clock = manualClock(new Date("2026-01-16T00:00:00.000Z"));
    beforeAll(async () => {
      broker = await startBroker(kind, { clock, env: { BROKER_METERING_MODE: "off" } });
    });
    afterAll(() => broker.close());

    it("reports nothing but still bills from usage events", async () => {
      const tenant = await createTenant(broker);
      await seedUsage(broker, tenant, { period: "2026-01", count: 1_001 });
      const status = await call(broker, "GET", "/v1/billing/status", asOperator(tenant));
      expect(status.body.metering).toEqual({ mode: "off", reported_executions: 0, unreported_executions: 1_001 });
      expect(status.body.usage).toMatchObject({ executions: 1_001, overage_blocks: 1, amount_due_so_far: 500 });
      expect(await broker.services.metering.sync(tenant.tenantId)).toEqual({ recorded: 0, duplicates: 0 });
      expect(await ledgerRows(broker, tenant)).toHaveLength(0);

      clock.set(new Date("2026-02-02T00:00:00.000Z"));
      const finalized = await call(broker, "POST", "/v1/billing/finalize-period", { ...asOperator(tenant), body: { period: "2026-01" } });
      expect(finalized.body).toMatchObject({ invoice: { total: 500 }, metering: { mode: "off", reported_executions: 0 } });
    });
  });
}

describeEachDatabase("billing: metering of executions", meteringSuite);
