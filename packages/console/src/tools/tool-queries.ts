/** The tool catalogue (searchable) and the tenant's own OAuth apps. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import type { Env } from "../api/types";
import { useTenant } from "../tenant/tenant-context";

/** What the Tools page searches and filters by; empty means any. */
export type ToolFilters = { q: string; provider: string; risk: "" | "low" | "high"; side_effect: "" | "read" | "write" };

export function useToolSearch(filters: ToolFilters) {
  const { tenant_id } = useTenant();
  const query = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== "")) as Partial<Record<keyof ToolFilters, string>>;
  return useQuery({
    queryKey: [tenant_id, "tools", query],
    queryFn: () => api("get", "/v1/tools", { query: query as never }),
    staleTime: 5 * 60_000,
    placeholderData: (previous) => previous,
  });
}

/**
 * The tenant's own apps of one env, by provider (GET /v1/oauth-clients: one request, where asking
 * each provider would answer 404 for every one without an app). No entry: the broker-wide client.
 */
export function useOAuthApps(env: Env) {
  const { tenant_id } = useTenant();
  return useQuery({
    queryKey: [tenant_id, "oauth-apps", env],
    queryFn: () => api("get", "/v1/oauth-clients", { query: { env } }),
    select: (answer) => new Map(answer.data.map((app) => [app.provider, app])),
  });
}

function useInvalidateApp(env: Env) {
  const { tenant_id } = useTenant();
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: [tenant_id, "oauth-apps", env] });
}

export function useSaveOAuthApp(provider: string, env: Env) {
  const invalidate = useInvalidateApp(env);
  return useMutation({
    mutationFn: (app: { client_id: string; client_secret: string }) => api("put", "/v1/providers/{id}/oauth-client", { path: { id: provider }, body: { env, ...app } }),
    onSettled: invalidate,
  });
}

export function useRemoveOAuthApp(provider: string, env: Env) {
  const invalidate = useInvalidateApp(env);
  return useMutation({ mutationFn: () => api("delete", "/v1/providers/{id}/oauth-client", { path: { id: provider }, query: { env } }), onSettled: invalidate });
}
