/** Agent apps and control keys. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import type { Env } from "../api/types";
import { useTenant } from "../tenant/tenant-context";

export function useAgentApps() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "agent-apps"], queryFn: () => api("get", "/v1/agent-apps") });
}

function useInvalidate(what: string) {
  const { tenant_id } = useTenant();
  const queryClient = useQueryClient();
  // Not awaited: the mutation reports its own outcome at once, whatever the refetch does.
  return () => void queryClient.invalidateQueries({ queryKey: [tenant_id, what] });
}

export function useCreateAgentApp() {
  const invalidate = useInvalidate("agent-apps");
  return useMutation({ mutationFn: (name: string) => api("post", "/v1/agent-apps", { body: { name } }), onSettled: invalidate });
}

export function useDisableAgentApp() {
  const invalidate = useInvalidate("agent-apps");
  return useMutation({ mutationFn: (id: string) => api("delete", "/v1/agent-apps/{id}", { path: { id } }), onSettled: invalidate });
}

export function useControlKeys() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "keys"], queryFn: () => api("get", "/v1/keys") });
}

export function useCreateControlKey() {
  const invalidate = useInvalidate("keys");
  return useMutation({
    mutationFn: ({ env, name }: { env: Env; name: string }) => api("post", "/v1/keys", { body: { env, ...(name ? { name } : {}) } }),
    onSettled: invalidate,
  });
}

export function useRevokeControlKey() {
  const invalidate = useInvalidate("keys");
  return useMutation({ mutationFn: (id: string) => api("delete", "/v1/keys/{id}", { path: { id } }), onSettled: invalidate });
}
