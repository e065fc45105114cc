/** The tenant's members (approver profiles) and approval channels. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import type { ApprovalSettingsBody, BrandingPatch, MemberPatch } from "../api/types";
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
    // The saved member is shown at once (the "Saved" notice must not stand beside the old values), then the list is re-read.
    onSuccess: (saved) => queryClient.setQueryData<{ data: (typeof saved)[] }>([tenant_id, "members"], (list) => list && { ...list, data: list.data.map((member) => (member.id === saved.id ? saved : member)) }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: [tenant_id, "members"] }),
  });
}

/** The tenant's approval channels (admins only: viewers are not asked). */
export function useApprovalSettings() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "approval-settings"], queryFn: () => api("get", "/v1/approval-settings") });
}

export function useSaveApprovalSettings() {
  const { tenant_id } = useTenant();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApprovalSettingsBody) => api("put", "/v1/approval-settings", { body }),
    onSuccess: (saved) => queryClient.setQueryData([tenant_id, "approval-settings"], saved),
  });
}

/** The tenant's shared (no end user), active Slack connections (the built-in `chat` provider, alias `slack`): where approval messages can be posted from. */
export function useSlackConnections() {
  const { tenant_id } = useTenant();
  return useQuery({
    queryKey: [tenant_id, "connections", "slack-for-approvals"],
    queryFn: async () => (await api("get", "/v1/connections", { query: { status: "active", limit: 200 } })).data.filter((connection) => connection.end_user_id === null && (connection.provider === "chat" || connection.provider === "slack")),
  });
}

/** The name and logo end users see on the hosted connect page (any member reads it; admins change it). */
export function useBranding() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "branding"], queryFn: () => api("get", "/v1/branding") });
}

export function useSaveBranding() {
  const { tenant_id } = useTenant();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BrandingPatch) => api("patch", "/v1/branding", { body }),
    onSuccess: (saved) => queryClient.setQueryData([tenant_id, "branding"], saved),
  });
}
