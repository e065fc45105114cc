/** The plan, this month so far, the projection, and an invoice preview (test mode). */
import { useState, type FormEvent } from "react";
import type { Invoice } from "../api/types";
import { Details, StatusTag } from "../ui/bits";
import { ErrorMessage, Loading } from "../ui/feedback";
import { Section } from "../ui/page";
import { WriteButton } from "../ui/write-button";
import { money, useBillingStatus, useInvoicePreview } from "./usage-queries";

export function BillingSection() {
  const status = useBillingStatus();
  const data = status.data;
  return (
    <Section title="Plan and billing" id="billing-heading">
      {status.isPending ? <Loading label="Loading the plan status…" /> : null}
      <ErrorMessage error={status.error} prefix="The plan status could not be loaded" />
      {data ? (
        <div className="card stack">
          <Details
            items={[
              ["Plan", `${data.plan.name} (${money(data.plan.monthly_price, data.currency)} a month, ${data.plan.included_executions} executions included)`],
              ["Period", data.period.id],
              ["Executions so far", `${data.usage.executions} (test ${data.usage.by_env.test}, live ${data.usage.by_env.live})`],
              ["Included left", String(data.usage.remaining_included_executions)],
              ["Due so far", money(data.usage.amount_due_so_far, data.currency)],
              ["Projected at month end", `${data.projection.executions} executions, ${money(data.projection.monthly_cost, data.currency)}`],
              [
                "Plan match",
                data.plan_match.better_plan_available ? (
                  <StatusTag status={`${data.plan_match.recommended_plan.name} would save ${money(-data.plan_match.difference, data.currency)}`} tone="warn" />
                ) : (
                  <StatusTag status="The current plan is the cheapest" tone="good" />
                ),
              ],
              ["Metering", `${data.metering.mode} (${data.metering.reported_executions} reported, ${data.metering.unreported_executions} not yet)`],
            ]}
          />
        </div>
      ) : null}
      <InvoicePreview />
    </Section>
  );
}

function InvoicePreview() {
  const preview = useInvoicePreview();
  const [period, setPeriod] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    preview.mutate(period || undefined);
  };
  return (
    <>
      <form className="filters card" onSubmit={submit}>
        <div className="field">
          <label htmlFor="invoice-period">Invoice period (empty: this month)</label>
          <input id="invoice-period" type="month" value={period} onChange={(event) => setPeriod(event.target.value)} />
        </div>
        <WriteButton type="submit" variant="primary" busy={preview.isPending}>
          Preview invoice
        </WriteButton>
      </form>
      <ErrorMessage error={preview.error} prefix="The invoice preview failed" />
      {preview.data ? <InvoiceView invoice={preview.data} /> : null}
    </>
  );
}

function InvoiceView({ invoice }: { invoice: Invoice }) {
  return (
    <div className="card stack" role="region" aria-label={`Invoice preview for ${invoice.period}`}>
      <h3>
        Invoice {invoice.period} <StatusTag status={invoice.status} tone={invoice.status === "finalized" ? "good" : "neutral"} />
      </h3>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Line</th>
              <th scope="col">Quantity</th>
              <th scope="col">Unit</th>
              <th scope="col">Amount</th>
            </tr>
          </thead>
          <tbody>
            {invoice.line_items.map((line, index) => (
              <tr key={index}>
                <td>{line.description}</td>
                <td>{line.quantity}</td>
                <td>{money(line.unit_amount, invoice.currency)}</td>
                <td>{money(line.amount, invoice.currency)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                Total
              </th>
              <td>
                <strong>{money(invoice.total, invoice.currency)}</strong>
              </td>
            </tr>
          </tfoot>
        </table>
      </div>
      <p>{invoice.customer_notice}</p>
    </div>
  );
}
