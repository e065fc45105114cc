/**
 * Billing rules (docs/billing.md): the plan catalogue, the current period's status with its
 * projection and plan match, and invoice previews. Finalizing a period lives in
 * period-finalizer.ts. Usage comes only from metering; money is integer minor units.
 */
import type { AuditActor } from "../audit/audit-log.js";
import { BrokerError } from "../errors.js";
import { auditRefusals } from "./billing-audit.js";
import type { TenantBilling } from "./billing-queries.js";
import { assertNotBeforeFirstPeriod, periodEnd, periodOf, periodStart, projectMonthEnd, type Period } from "../shared/billing-period.js";
import { buildInvoice, chargesFor, matchPlan } from "./invoice.js";
import type { Invoice } from "./invoice-types.js";
import { catalogueChecksum, PLAN_CATALOGUE, requirePlan, type PlanCatalogue } from "./plan-catalogue.js";
import { createPeriodFinalizer, type FinalizeResult, type PeriodFinalizerDeps } from "./period-finalizer.js";

/** Reading status reports at most this many pending usage events first, to bound its latency. */
export const STATUS_SYNC_LIMIT = 5_000;

export type BillingServiceDeps = PeriodFinalizerDeps;

type DraftDeps = Pick<BillingServiceDeps, "metering"> & { catalogue: PlanCatalogue };

/**
 * The invoice a period would get now: its executions so far on the tenant's current plan. The
 * plan match of the current period uses the month-end projection, of an ended period the actuals.
 */
async function draftInvoice(deps: DraftDeps, tenant: TenantBilling, period: Period, now: Date): Promise<Invoice> {
  const plan = requirePlan(tenant.plan_id, deps.catalogue);
  const usage = await deps.metering.usageByEnv(tenant.id, period);
  const executions = usage.test + usage.live;
  const planMatch =
    period === periodOf(now)
      ? matchPlan(plan.id, projectMonthEnd(executions, period, now), "projected", deps.catalogue)
      : matchPlan(plan.id, executions, "actual", deps.catalogue);
  return buildInvoice({ id: null, status: "draft", period, plan, catalogueVersion: deps.catalogue.version, usage, planMatch, generatedAt: now });
}

export function createBillingService(deps: BillingServiceDeps) {
  const { clock, queries, metering, audit } = deps;
  const catalogue = deps.catalogue ?? PLAN_CATALOGUE;
  const checksum = catalogueChecksum(catalogue);
  const finalizer = createPeriodFinalizer({ ...deps, catalogue });

  async function previewInvoice(tenantId: string, period: Period): Promise<Invoice> {
    const now = clock.now();
    const tenant = await queries.tenantBilling(tenantId);
    assertNotBeforeFirstPeriod(tenant.created_at, period);
    if (period > periodOf(now)) {
      throw new BrokerError("period_out_of_range", `period ${period} has not started yet`, { period, current_period: periodOf(now) });
    }
    const finalized = await queries.findFinalized(tenantId, period);
    if (finalized) return (JSON.parse(finalized.result) as FinalizeResult).invoice;
    await metering.sync(tenantId, STATUS_SYNC_LIMIT);
    return draftInvoice({ metering, catalogue }, tenant, period, now);
  }

  return {
    plans: () => ({ version: catalogue.version, checksum, currency: catalogue.currency, plans: catalogue.plans }),

    async status(tenantId: string) {
      await metering.sync(tenantId, STATUS_SYNC_LIMIT);
      const now = clock.now();
      const period = periodOf(now);
      const tenant = await queries.tenantBilling(tenantId);
      const plan = requirePlan(tenant.plan_id, catalogue);
      const byEnv = await metering.usageByEnv(tenantId, period);
      const charges = chargesFor(plan, byEnv.test + byEnv.live);
      const projected = chargesFor(plan, projectMonthEnd(charges.executions, period, now));
      return {
        as_of: now.toISOString(),
        livemode: false as const,
        metering: await metering.status(tenantId, period, charges.executions),
        catalogue_version: catalogue.version,
        plan,
        period: { id: period, start: periodStart(period).toISOString(), end: periodEnd(period).toISOString() },
        usage: {
          executions: charges.executions,
          by_env: byEnv,
          included_executions: charges.included_executions,
          remaining_included_executions: Math.max(0, charges.included_executions - charges.executions),
          overage_executions: charges.overage_executions,
          overage_blocks: charges.overage_blocks,
          overage_amount: charges.overage_amount,
          amount_due_so_far: charges.total,
        },
        projection: { method: "linear" as const, executions: projected.executions, overage_blocks: projected.overage_blocks, monthly_cost: projected.total },
        plan_match: matchPlan(plan.id, projected.executions, "projected", catalogue),
        currency: plan.currency,
      };
    },

    /** A frozen invoice for a finalized period; otherwise a draft computed now. */
    async invoicePreview(tenantId: string, requested: Period | undefined, actor: AuditActor): Promise<Invoice> {
      const period = requested ?? periodOf(clock.now());
      const invoice = await auditRefusals(audit, { tenantId, actor, action: "billing.invoice_previewed", period }, () => previewInvoice(tenantId, period));
      await audit.append({
        tenantId,
        actor,
        action: "billing.invoice_previewed",
        target: { type: "billing_period", id: period },
        data: { period, status: invoice.status, total: invoice.total, currency: invoice.currency },
      });
      return invoice;
    },

    /** Closes an ended period; finalizing it again returns the stored result with `repeated: true`. */
    finalizePeriod: (tenantId: string, period: Period, actor: AuditActor) => finalizer.finalize(tenantId, period, actor),
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
