/**
 * The tenant's catalogue by provider (`/v1/providers`, `/v1/providers/{id}/tools`): built-in and
 * custom providers, their tools, the OpenAPI import and the changes an admin makes to custom tools.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import type { ApiBody, ToolImportBody } from "../api/types";
import { useTenant } from "../tenant/tenant-context";

/** Every change to the catalogue also changes the searchable list (`GET /v1/tools`). */
function useInvalidateCatalogue() {
  const { tenant_id } = useTenant();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: [tenant_id, "catalogue"] });
    void queryClient.invalidateQueries({ queryKey: [tenant_id, "tools"] });
  };
}

export function useProviders() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "catalogue", "providers"], queryFn: () => api("get", "/v1/providers") });
}

export function useProviderTools(provider: string) {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "catalogue", "tools", provider], queryFn: () => api("get", "/v1/providers/{id}/tools", { path: { id: provider } }) });
}

export function useCreateProvider() {
  const onSettled = useInvalidateCatalogue();
  return useMutation({ mutationFn: (body: ApiBody<"post", "/v1/providers">) => api("post", "/v1/providers", { body }), onSettled });
}

export function useDeleteProvider(provider: string) {
  const onSettled = useInvalidateCatalogue();
  return useMutation({ mutationFn: () => api("delete", "/v1/providers/{id}", { path: { id: provider } }), onSettled });
}

/** `dryRun` answers what would be created and stores nothing, so it leaves the caches alone. */
export function useImportTools(provider: string) {
  const invalidate = useInvalidateCatalogue();
  return useMutation({
    mutationFn: ({ dryRun, body }: { dryRun: boolean; body: ToolImportBody }) => api("post", "/v1/providers/{id}/tools/import", { path: { id: provider }, query: { dry_run: dryRun }, body }),
    onSettled: (_data, _error, { dryRun }) => (dryRun ? undefined : invalidate()),
  });
}

export function usePatchTool(provider: string, name: string) {
  const onSettled = useInvalidateCatalogue();
  return useMutation({
    mutationFn: (body: ApiBody<"patch", "/v1/providers/{id}/tools/{name}">) => api("patch", "/v1/providers/{id}/tools/{name}", { path: { id: provider, name }, body }),
    onSettled,
  });
}

export function useDeleteTool(provider: string, name: string) {
  const onSettled = useInvalidateCatalogue();
  return useMutation({ mutationFn: () => api("delete", "/v1/providers/{id}/tools/{name}", { path: { id: provider, name } }), onSettled });
}
