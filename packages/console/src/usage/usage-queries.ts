/** Metered usage (per month and per day), plan status and the invoice preview. Months are UTC, as the broker counts them. */
import { useMutation, useQuery } from "@tanstack/react-query";
import { api } from "../api/client";
import type { ApiQuery } from "../api/types";
import { useTenant } from "../tenant/tenant-context";

export type UsageQuery = ApiQuery<"get", "/v1/usage">;

export function useUsage(query: UsageQuery) {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "usage", query], queryFn: () => api("get", "/v1/usage", { query }) });
}

export type DailyUsageQuery = ApiQuery<"get", "/v1/usage/daily">;

export function useDailyUsage(query: DailyUsageQuery) {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "usage-daily", query], queryFn: () => api("get", "/v1/usage/daily", { query }) });
}

export type LastHourQuery = ApiQuery<"get", "/v1/usage/last-hour">;

/** How often the last hour's calls are fetched again while the page is open. */
export const LAST_HOUR_REFRESH_MS = 30_000;

export function useLastHour(query: LastHourQuery) {
  const { tenant_id } = useTenant();
  return useQuery({
    queryKey: [tenant_id, "usage-last-hour", query],
    queryFn: () => api("get", "/v1/usage/last-hour", { query }),
    refetchInterval: LAST_HOUR_REFRESH_MS,
  });
}

/** The current month in UTC, YYYY-MM. */
export function currentMonth(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

/** `month` (YYYY-MM) moved by `delta` months. */
export function addMonths(month: string, delta: number): string {
  const [year, index] = month.split("-").map(Number) as [number, number];
  return new Date(Date.UTC(year, index - 1 + delta, 1)).toISOString().slice(0, 7);
}

/** Every month from `from` to `to`, both included (at most 240). */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let month = from; month <= to && months.length < 240; month = addMonths(month, 1)) months.push(month);
  return months;
}

export function useBillingStatus() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "billing-status"], queryFn: () => api("get", "/v1/billing/status") });
}

export function useInvoicePreview() {
  return useMutation({ mutationFn: (period: string | undefined) => api("post", "/v1/billing/invoice-preview", { body: period ? { period } : {} }) });
}

/** Amounts are integers in minor units. */
export function money(minor: number, currency: string): string {
  return new Intl.NumberFormat(undefined, { style: "currency", currency: currency.toUpperCase() }).format(minor / 100);
}
