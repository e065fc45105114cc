/** Billing preview routes (test mode). Operator session; POST routes need the admin role. */
import type { FastifyInstance } from "fastify";
import { actorOf } from "../http/credentials.js";
import { errorResponses } from "../http/schemas.js";
import type { Period } from "../shared/billing-period.js";
import {
  BILLING_SCHEMAS,
  CatalogueResponse,
  FinalizeBody,
  FinalizeResponse,
  InvoicePreviewBody,
  InvoiceSchema,
  StatusResponse,
} from "./billing-schemas.js";
import type { BillingService } from "./billing-service.js";

const tags = ["billing"];

const USAGE_RULES =
  "Usage is the executions that reached the upstream (OAuth connects, denied and approval-required calls are not metered); " +
  "executions with test and live credentials both count. Amounts are integers in minor units (cents). " +
  "Overage is billed per started block of 1,000 executions above the plan's allowance.";

export function registerBillingRoutes(app: FastifyInstance, deps: { billing: BillingService }) {
  for (const schema of BILLING_SCHEMAS) app.addSchema(schema);

  app.get(
    "/v1/billing/plans",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "The locked public plan catalogue",
        description: "A fixed, versioned catalogue; a published version never changes. `checksum` identifies its exact content.",
        response: { 200: CatalogueResponse, ...errorResponses(401) },
      },
    },
    async () => deps.billing.plans(),
  );

  app.get(
    "/v1/billing/status",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "Metering mode, this month's usage, projection and plan-match preview",
        description:
          `${USAGE_RULES} The projection is linear on the elapsed fraction of the month; the plan match is the cheapest plan ` +
          "for the projected executions (ties keep the current plan). Reading status first reports unreported usage to the metering ledger.",
        response: { 200: StatusResponse, ...errorResponses(401) },
      },
    },
    async (request) => deps.billing.status(request.credential.tenantId),
  );

  app.post(
    "/v1/billing/invoice-preview",
    {
      config: { credentials: ["operator"], role: "admin" },
      // The body is optional: no body means the current period.
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary: "Preview the monthly invoice of a period (test mode)",
        description:
          `${USAGE_RULES} Defaults to the current period (usage so far). A finalized period returns its frozen invoice. ` +
          "Errors: 422 `period_out_of_range` for a period before the tenant existed or not started yet. Audited.",
        body: InvoicePreviewBody,
        response: { 200: InvoiceSchema, ...errorResponses(400, 401, 403, 415, 422) },
      },
    },
    async (request) => {
      const { period } = request.body as { period?: Period };
      return deps.billing.invoicePreview(request.credential.tenantId, period, actorOf(request.credential));
    },
  );

  app.post(
    "/v1/billing/finalize-period",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags,
        summary: "Close an ended period: freeze its invoice and apply the plan match once (test mode)",
        description:
          "If a cheaper plan matched the period's executions, the tenant switches to it from the next period and the match is " +
          "recorded as consumed. Finalizing the same period again changes nothing and returns the same body " +
          "(with the header `Idempotent-Replayed: true`). Periods are finalized in order from the tenant's first month. " +
          "Errors: 409 `period_open` (the period has not ended), 409 `previous_period_open` (finalize `details.period` first), " +
          "422 `period_out_of_range` (before the tenant existed). Emits `billing.period_finalized`; audited.",
        body: FinalizeBody,
        response: { 200: FinalizeResponse, ...errorResponses(400, 401, 403, 409, 415, 422) },
      },
    },
    async (request, reply) => {
      const { period } = request.body as { period: Period };
      const { result, repeated } = await deps.billing.finalizePeriod(request.credential.tenantId, period, actorOf(request.credential));
      if (repeated) reply.header("idempotent-replayed", "true");
      return result;
    },
  );
}
