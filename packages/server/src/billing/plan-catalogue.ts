/**
 * The locked public packaging (`GET /v1/billing/plans`). Plans are data, fixed in
 * code and versioned: a published version never changes. Changing a price or an allowance means
 * adding a new version (with its own checksum in `PUBLISHED_CATALOGUE_CHECKSUMS`); a test checks
 * that the current catalogue still hashes to the checksum published for its version.
 *
 * Money is in integer minor units (cents) of `currency`, never floats.
 */
import { createHash } from "node:crypto";
import { BrokerError } from "../errors.js";

export type PlanId = "free" | "starter" | "growth" | "scale";

export type Plan = {
  id: PlanId;
  name: string;
  description: string;
  /** Base fee per calendar month, minor units. */
  monthly_price: number;
  /** Executions per month covered by the base fee. */
  included_executions: number;
  /** Price of each started block of 1,000 executions above the allowance, minor units. */
  overage_price_per_1000: number;
  currency: string;
};

export type PlanCatalogue = { version: string; currency: string; plans: readonly Plan[] };

/** Overage is billed per started block of this many executions. */
export const OVERAGE_BLOCK_SIZE = 1000;

const CURRENCY = "usd";

const PLANS: Plan[] = [
  {
    id: "free",
    name: "Free",
    description: "For trying the broker: 1,000 executions a month, then $5.00 per 1,000.",
    monthly_price: 0,
    included_executions: 1_000,
    overage_price_per_1000: 500,
    currency: CURRENCY,
  },
  {
    id: "starter",
    name: "Starter",
    description: "For a first agent in production: 20,000 executions a month, then $2.00 per 1,000.",
    monthly_price: 1_900,
    included_executions: 20_000,
    overage_price_per_1000: 200,
    currency: CURRENCY,
  },
  {
    id: "growth",
    name: "Growth",
    description: "For several agents: 150,000 executions a month, then $1.00 per 1,000.",
    monthly_price: 9_900,
    included_executions: 150_000,
    overage_price_per_1000: 100,
    currency: CURRENCY,
  },
  {
    id: "scale",
    name: "Scale",
    description: "For fleets of agents: 1,000,000 executions a month, then $0.50 per 1,000.",
    monthly_price: 49_900,
    included_executions: 1_000_000,
    overage_price_per_1000: 50,
    currency: CURRENCY,
  },
];

export const PLAN_CATALOGUE: PlanCatalogue = Object.freeze({
  version: "2026-01",
  currency: CURRENCY,
  plans: Object.freeze(PLANS.map((plan) => Object.freeze({ ...plan }))),
});

/**
 * Every catalogue version ever published and its checksum. Entries are only ever added: an
 * invoice frozen under an old version names that version and keeps its figures.
 */
export const PUBLISHED_CATALOGUE_CHECKSUMS: Readonly<Record<string, string>> = Object.freeze({
  "2026-01": "sha256:e66a65cbfce47a2f86a3a88c521c9052e1f8692cc192867402bca305f4def5ee",
});

/** JSON with object keys sorted at every level, so the checksum does not depend on key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

export function catalogueChecksum(catalogue: PlanCatalogue): string {
  return `sha256:${createHash("sha256").update(canonicalJson(catalogue)).digest("hex")}`;
}

export function findPlan(id: string, catalogue: PlanCatalogue = PLAN_CATALOGUE): Plan | undefined {
  return catalogue.plans.find((plan) => plan.id === id);
}

/** The plan a tenant row names; an id outside the catalogue is a data error, not a user error. */
export function requirePlan(id: string, catalogue: PlanCatalogue = PLAN_CATALOGUE): Plan {
  const plan = findPlan(id, catalogue);
  if (!plan) throw new BrokerError("internal_error", `plan ${id} is not in catalogue ${catalogue.version}`);
  return plan;
}
