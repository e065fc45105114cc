/** Connections, provider readiness and the OAuth connect start. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import type { ApiQuery, Env } from "../api/types";
import { useTenant } from "../tenant/tenant-context";

export type ConnectionFilters = Pick<ApiQuery<"get", "/v1/connections">, "end_user_id" | "provider" | "status" | "env">;

export function useConnections(filters: ConnectionFilters) {
  const { tenant_id } = useTenant();
  return useInfiniteQuery({
    queryKey: [tenant_id, "connections", filters],
    queryFn: ({ pageParam }) => api("get", "/v1/connections", { query: { ...filters, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } }),
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** Which providers can be connected, and what each one still needs (GET /v1/ops/health: production keeps it from /health). */
export function useProviderReadiness() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "ops-health"], queryFn: () => api("get", "/v1/ops/health"), staleTime: 30_000 });
}

export function useRevokeConnection() {
  const { tenant_id } = useTenant();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api("delete", "/v1/connections/{id}", { path: { id } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: [tenant_id, "connections"] }),
  });
}

/** Starts OAuth at the provider; the broker sends the browser back to this page afterwards. */
export function useStartConnect() {
  return useMutation({
    mutationFn: async ({ provider, env }: { provider: string; env: Env }) => {
      const redirect_after = new URL(`${import.meta.env.BASE_URL}connections`, window.location.origin).toString();
      const { authorize_url } = await api("post", "/v1/connections/oauth/start", { body: { provider, env, redirect_after } });
      window.location.assign(authorize_url);
    },
  });
}
