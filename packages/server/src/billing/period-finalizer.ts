/**
 * Finalizing a billing period: once a month has ended, freeze its invoice and consume its plan
 * match once. If a cheaper plan matched the period's actual executions, the tenant switches to
 * it for the next period. The result is stored with the period and returned verbatim when the
 * same period is finalized again, so a repeat changes nothing.
 *
 * Periods are finalized in order (each finalize may set the plan of the next one), starting
 * with the month the tenant was created in.
 */
import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError } from "../errors.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { MeteringService } from "../metering/metering-service.js";
import type { Store, Tx } from "../store/database.js";
import { auditRefusals } from "./billing-audit.js";
import type { BillingQueries, TenantBilling } from "./billing-queries.js";
import { assertNotBeforeFirstPeriod, firstPeriodOf, nextPeriod, periodOf, type Period } from "../shared/billing-period.js";
import { buildInvoice, matchPlan } from "./invoice.js";
import type { Invoice, PlanMatch } from "./invoice-types.js";
import { PLAN_CATALOGUE, requirePlan, type PlanCatalogue } from "./plan-catalogue.js";

export type PlanChange = { from_plan_id: string; to_plan_id: string; effective_period: Period };

export type FinalizeResult = {
  period: Period;
  status: "finalized";
  finalized_at: string;
  invoice: Invoice;
  /** The match on the period's actual executions; `consumed` when it switched the plan. */
  plan_match: PlanMatch & { consumed: boolean };
  plan_change: PlanChange | null;
  metering: { mode: string; reported_executions: number };
};

export type PeriodFinalizerDeps = {
  store: Pick<Store, "db" | "lock" | "transaction">;
  clock: Clock;
  queries: BillingQueries;
  metering: Pick<MeteringService, "mode" | "sync" | "usageByEnv" | "status">;
  audit: Pick<AuditLog, "append" | "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  catalogue?: PlanCatalogue;
};

export function createPeriodFinalizer(deps: PeriodFinalizerDeps) {
  const { store, clock, queries, metering, audit, events } = deps;
  const catalogue = deps.catalogue ?? PLAN_CATALOGUE;

  async function assertNextInOrder(trx: Tx, tenant: TenantBilling, period: Period) {
    assertNotBeforeFirstPeriod(tenant.created_at, period);
    const latest = await queries.latestFinalizedPeriod(tenant.id, trx);
    const due = latest ? nextPeriod(latest) : firstPeriodOf(tenant.created_at);
    if (period > due) {
      throw new BrokerError("previous_period_open", `finalize ${due} first: periods are finalized in order`, { period: due });
    }
  }

  async function computeResult(trx: Tx, tenant: TenantBilling, period: Period, now: Date): Promise<FinalizeResult> {
    const plan = requirePlan(tenant.plan_id, catalogue);
    const usage = await metering.usageByEnv(tenant.id, period, trx);
    const match = matchPlan(plan.id, usage.test + usage.live, "actual", catalogue);
    const effective = nextPeriod(period);
    const change = match.better_plan_available ? { from_plan_id: plan.id, to_plan_id: match.recommended_plan.plan_id, effective_period: effective } : null;
    const switchedTo = change ? { planName: match.recommended_plan.name, period: effective } : undefined;
    const invoice = buildInvoice({
      id: randomUUID(),
      status: "finalized",
      period,
      plan,
      catalogueVersion: catalogue.version,
      usage,
      planMatch: match,
      switchedTo,
      generatedAt: now,
    });
    const reported = await metering.status(tenant.id, period, invoice.usage.executions, trx);
    return {
      period,
      status: "finalized",
      finalized_at: now.toISOString(),
      invoice,
      plan_match: { ...match, consumed: change !== null },
      plan_change: change,
      metering: { mode: reported.mode, reported_executions: reported.reported_executions },
    };
  }

  async function record(trx: Tx, tenantId: string, result: FinalizeResult, actor: AuditActor) {
    const { invoice, plan_change: change } = result;
    if (change) await queries.setTenantPlan(tenantId, change.to_plan_id, trx);
    await queries.insertFinalized({
      tenant_id: tenantId,
      period: result.period,
      plan_id: invoice.plan.id,
      catalogue_version: invoice.catalogue_version,
      executions: invoice.usage.executions,
      total: invoice.total,
      currency: invoice.currency,
      switched_to_plan_id: change?.to_plan_id ?? null,
      result: JSON.stringify(result),
      finalized_at: result.finalized_at,
      finalized_by: `${actor.type}:${actor.id}`,
    }, trx);
    const summary = {
      period: result.period,
      invoice_id: invoice.id,
      plan_id: invoice.plan.id,
      executions: invoice.usage.executions,
      total: invoice.total,
      currency: invoice.currency,
      plan_change: change,
    };
    await events.emitIn({ tenantId, type: "billing.period_finalized", data: summary }, trx);
    const target = { type: "billing_period", id: result.period };
    await audit.appendIn({ tenantId, actor, action: "billing.period_finalized", target, data: summary }, trx);
    if (change) {
      const data = { ...change, reason: "plan_match", period: result.period };
      await audit.appendIn({ tenantId, actor, action: "billing.plan_changed", target: { type: "tenant", id: tenantId }, data }, trx);
    }
  }

  async function finalizeOnce(tenantId: string, period: Period, actor: AuditActor) {
    const now = clock.now();
    if (period >= periodOf(now)) {
      const details = { period, current_period: periodOf(now) };
      throw new BrokerError("period_open", `period ${period} has not ended yet; only ended periods can be finalized`, details);
    }
    // Report the period, and anything still pending before it, before freezing; outside the
    // transaction: the processor may be remote.
    await metering.sync(tenantId, Number.POSITIVE_INFINITY, { throughPeriod: period });
    return store.transaction(async (trx) => {
      await store.lock(`billing:${tenantId}`, trx);
      const existing = await queries.findFinalized(tenantId, period, trx);
      if (existing) {
        const target = { type: "billing_period", id: period };
        await audit.appendIn({ tenantId, actor, action: "billing.period_finalize_repeated", target, data: { period } }, trx);
        return { result: JSON.parse(existing.result) as FinalizeResult, repeated: true };
      }
      const tenant = await queries.tenantBilling(tenantId, trx);
      await assertNextInOrder(trx, tenant, period);
      const result = await computeResult(trx, tenant, period, now);
      await record(trx, tenantId, result, actor);
      return { result, repeated: false };
    });
  }

  return {
    /** Returns the stored result and `repeated: true` when the period was already finalized. */
    async finalize(tenantId: string, period: Period, actor: AuditActor): Promise<{ result: FinalizeResult; repeated: boolean }> {
      const attempt = { tenantId, actor, action: "billing.period_finalized", period };
      return auditRefusals(audit, attempt, () => finalizeOnce(tenantId, period, actor));
    },
  };
}

export type PeriodFinalizer = ReturnType<typeof createPeriodFinalizer>;
