/** Checking the tenant's audit hash chain (the audit page's list query stays in audit-page.tsx). */
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/client";
import { useTenant } from "../tenant/tenant-context";

/** Verified each time an admin opens the page, then only when asked again (it reads the whole chain; admins only). */
export function useAuditVerification() {
  const { tenant_id, canWrite } = useTenant();
  return useQuery({
    enabled: canWrite,
    queryKey: [tenant_id, "audit-verify"],
    queryFn: () => api("get", "/v1/audit/verify"),
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
    retry: false,
  });
}
