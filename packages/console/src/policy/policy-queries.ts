/** The tenant policy per env, its earlier versions, saving a new version, simulating a call, and the tool catalogue. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import type { ApiBody, Env, PolicyRules, SimulateBody } from "../api/types";
import { useTenant } from "../tenant/tenant-context";

export function usePolicy(env: Env) {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "policy", env], queryFn: () => api("get", "/v1/policy", { query: { env } }) });
}

export function useSavePolicy(env: Env) {
  const { tenant_id } = useTenant();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rules: PolicyRules) => api("put", "/v1/policy", { body: { env, rules } }),
    onSuccess: (document) => {
      queryClient.setQueryData([tenant_id, "policy", env], document);
      void queryClient.invalidateQueries({ queryKey: [tenant_id, "policy-versions", env], exact: true });
    },
  });
}

/** The versions saved for one env, newest first (the broker lists the last 200). */
export function usePolicyVersions(env: Env) {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "policy-versions", env], queryFn: () => api("get", "/v1/policy/versions", { query: { env } }) });
}

/** One earlier version's document; a saved version never changes. */
export function usePolicyVersion(env: Env, version: number | null) {
  const { tenant_id } = useTenant();
  return useQuery({
    queryKey: [tenant_id, "policy-versions", env, version],
    queryFn: () => api("get", "/v1/policy", { query: { env, version: version! } }),
    enabled: version !== null,
    staleTime: Infinity,
  });
}

/** Named starting points built from the env's tools; they change only with the catalogue. */
export function usePolicyTemplates(env: Env) {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "policy-templates", env], queryFn: () => api("get", "/v1/policy/templates", { query: { env } }), staleTime: 60_000 });
}

/** A draft's decisions beside the policy in force (nothing is saved); 422 faults name their paths like a save's. */
export function useComparePolicy(env: Env) {
  return useMutation({ mutationFn: (rules: PolicyRules) => api("post", "/v1/policy/compare", { body: { env, rules } satisfies ApiBody<"post", "/v1/policy/compare"> }) });
}

export function useSimulate() {
  return useMutation({ mutationFn: (body: SimulateBody) => api("post", "/v1/policy/simulate", { body }) });
}

export function useTools() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "tools"], queryFn: () => api("get", "/v1/tools"), staleTime: 5 * 60_000 });
}
