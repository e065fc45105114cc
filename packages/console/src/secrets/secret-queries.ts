/** Vault secret items (API keys): listed with hints, created, rotated and deleted. Values are write-only: nothing here ever reads one back. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import type { ApiBody, ApiQuery } from "../api/types";
import { useTenant } from "../tenant/tenant-context";

export type SecretFilters = ApiQuery<"get", "/v1/secrets">;

export function useSecretItems(filters: SecretFilters) {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "secrets", filters], queryFn: () => api("get", "/v1/secrets", { query: filters }) });
}

function useInvalidateSecrets() {
  const { tenant_id } = useTenant();
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: [tenant_id, "secrets"] });
}

export function useCreateSecretItem() {
  const onSettled = useInvalidateSecrets();
  return useMutation({ mutationFn: (body: ApiBody<"post", "/v1/secrets">) => api("post", "/v1/secrets", { body }), onSettled });
}

export function useRotateSecretItem() {
  const onSettled = useInvalidateSecrets();
  return useMutation({ mutationFn: ({ id, value }: { id: string; value: string }) => api("post", "/v1/secrets/{id}/rotate", { path: { id }, body: { value } }), onSettled });
}

export function useDeleteSecretItem() {
  const onSettled = useInvalidateSecrets();
  return useMutation({ mutationFn: (id: string) => api("delete", "/v1/secrets/{id}", { path: { id } }), onSettled });
}
