/** The tenant's members (approver profiles). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import type { MemberPatch } from "../api/types";
import { useTenant } from "../tenant/tenant-context";

export function useMembers() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "members"], queryFn: () => api("get", "/v1/members") });
}

export function useUpdateMember(id: string) {
  const { tenant_id } = useTenant();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: MemberPatch) => api("patch", "/v1/members/{id}", { path: { id }, body: patch }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: [tenant_id, "members"] }),
  });
}
