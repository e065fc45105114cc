/** TypeBox schemas of the billing routes. Every amount is an integer in minor units (cents). */
import { Type } from "@sinclair/typebox";
import { StringEnum, Timestamp, Uuid } from "../http/schemas.js";
import { PERIOD_PATTERN } from "../shared/billing-period.js";

const Minor = (description: string) => Type.Integer({ description: `${description}, integer minor units (cents) of the currency` });
const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const PeriodId = Type.String({ pattern: PERIOD_PATTERN, description: "Billing period: a calendar month in UTC, `YYYY-MM`", examples: ["2026-01"] });

export const PlanSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Type.String(),
    monthly_price: Minor("Base fee per month"),
    included_executions: Count("Executions per month covered by the base fee"),
    overage_price_per_1000: Minor("Price of each started block of 1,000 executions above the allowance"),
    currency: Type.String({ description: "ISO 4217, lower case" }),
  },
  { $id: "BillingPlan" },
);

export const CatalogueResponse = Type.Object({
  version: Type.String({ description: "Catalogue version; a published version never changes" }),
  checksum: Type.String({ description: "sha256 of the canonical JSON of the catalogue (version, currency, plans)" }),
  currency: Type.String(),
  plans: Type.Array(Type.Ref(PlanSchema)),
});

const ByEnv = Type.Object(
  { test: Count("Executions with test credentials"), live: Count("Executions with live credentials") },
  { description: "Both environments count towards usage; this is the breakdown" },
);

const PlanQuote = Type.Object({ plan_id: Type.String(), name: Type.String(), monthly_cost: Minor("Monthly cost for the basis executions") });

export const PlanMatchSchema = Type.Object(
  {
    basis: StringEnum(["actual", "projected"] as const, { description: "`actual`: an ended period's executions; `projected`: the current month's projection" }),
    executions: Count("Executions the plans were priced for"),
    current_plan: PlanQuote,
    recommended_plan: PlanQuote,
    difference: Minor("Recommended minus current monthly cost: zero or negative (a saving)"),
    better_plan_available: Type.Boolean(),
  },
  { $id: "BillingPlanMatch", description: "The cheapest plan of the catalogue for the basis executions; ties keep the current plan" },
);

const LineItem = Type.Object({
  type: StringEnum(["base_fee", "overage"] as const),
  description: Type.String(),
  quantity: Count("1 for the base fee; started blocks of 1,000 executions for overage"),
  unit_amount: Minor("Price per unit"),
  amount: Minor("quantity × unit_amount"),
});

export const InvoiceSchema = Type.Object(
  {
    id: Type.Union([Uuid, Type.Null()], { description: "Set once the period is finalized; null on a draft" }),
    object: Type.Literal("invoice"),
    status: StringEnum(["draft", "finalized"] as const),
    livemode: Type.Literal(false),
    period: PeriodId,
    period_start: Timestamp,
    period_end: Type.String({ format: "date-time", description: "Exclusive end: the first instant of the next month" }),
    currency: Type.String(),
    catalogue_version: Type.String(),
    plan: Type.Object({ id: Type.String(), name: Type.String() }),
    usage: Type.Object({
      executions: Count("Executions of the period, both environments"),
      by_env: ByEnv,
      included_executions: Count("Allowance of the plan"),
      overage_executions: Count("Executions above the allowance"),
      overage_blocks: Count("Started blocks of 1,000 overage executions"),
    }),
    line_items: Type.Array(LineItem),
    subtotal: Minor("Sum of the line items"),
    total: Minor("Amount due; no tax or discounts in test mode"),
    plan_match: Type.Ref(PlanMatchSchema),
    customer_notice: Type.String({ description: "What the customer used, owes, and whether another plan would suit better" }),
    generated_at: Timestamp,
  },
  { $id: "BillingInvoice" },
);

export const StatusResponse = Type.Object({
  as_of: Timestamp,
  livemode: Type.Literal(false),
  metering: Type.Object({
    mode: StringEnum(["test", "off"] as const, { description: "`test`: usage is reported to the test ledger; `off`: not reported" }),
    reported_executions: Count("Executions of the current period reported to the ledger"),
    unreported_executions: Count(
      "Executions of the current period not reported yet: reading status reports new ones first; one recorded more than ten minutes after a newer one was reported waits for the next finalization of its period or a later one",
    ),
  }),
  catalogue_version: Type.String(),
  plan: Type.Ref(PlanSchema),
  period: Type.Object({ id: PeriodId, start: Timestamp, end: Timestamp }),
  usage: Type.Object({
    executions: Count("Executions so far this period, both environments"),
    by_env: ByEnv,
    included_executions: Count("Allowance of the current plan"),
    remaining_included_executions: Count("Allowance left"),
    overage_executions: Count("Executions above the allowance so far"),
    overage_blocks: Count("Started blocks of 1,000 overage executions so far"),
    overage_amount: Minor("Overage so far"),
    amount_due_so_far: Minor("Base fee plus overage so far"),
  }),
  projection: Type.Object(
    {
      method: Type.Literal("linear"),
      executions: Count("Projected executions at month end"),
      overage_blocks: Count("Projected started overage blocks"),
      monthly_cost: Minor("Projected cost on the current plan"),
    },
    { description: "floor(executions so far × month length ÷ elapsed time), elapsed counting at least one hour" },
  ),
  plan_match: Type.Ref(PlanMatchSchema),
  currency: Type.String(),
});

export const InvoicePreviewBody = Type.Object(
  { period: Type.Optional(PeriodId) },
  { additionalProperties: false, description: "The body may be omitted; the period defaults to the current one" },
);

export const FinalizeBody = Type.Object({ period: PeriodId }, { additionalProperties: false });

export const FinalizeResponse = Type.Object({
  period: PeriodId,
  status: Type.Literal("finalized"),
  finalized_at: Timestamp,
  invoice: Type.Ref(InvoiceSchema),
  plan_match: Type.Object(
    { ...PlanMatchSchema.properties, consumed: Type.Boolean({ description: "True when this match switched the plan (consumed once)" }) },
    { description: "The match on the period's actual executions" },
  ),
  plan_change: Type.Union([
    Type.Object({ from_plan_id: Type.String(), to_plan_id: Type.String(), effective_period: PeriodId }),
    Type.Null(),
  ]),
  metering: Type.Object({ mode: Type.String(), reported_executions: Count("Executions of the period reported to the ledger when it was finalized") }),
});

/** Shared schemas referenced by `$id`; registered once with the app. */
export const BILLING_SCHEMAS = [PlanSchema, PlanMatchSchema, InvoiceSchema];
