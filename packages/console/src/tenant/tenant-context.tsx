/**
 * The signed-in identity (`GET /v1/me`) and the tenant this tab works in, remembered in
 * sessionStorage (or named by a link's `?tenant=`); an identity with a single tenant gets it without a picker. Query keys start
 * with the tenant id, so switching tenants never shows another tenant's cached data.
 */
import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { api } from "../api/client";
import type { Me, TenantMembership } from "../api/types";
import { useAuth } from "../auth/auth-context";
import { tenantStore } from "../auth/session-store";

type TenantState = {
  me: UseQueryResult<Me>;
  /** The chosen tenant, when it is one of the identity's tenants. */
  tenant: TenantMembership | undefined;
  choose(tenantId: string | null): void;
};

const TenantContext = createContext<TenantState | null>(null);

export function TenantProvider({ children }: { children: ReactNode }) {
  const { session } = useAuth();
  const me = useQuery({
    queryKey: ["me", session?.access_token],
    queryFn: () => api("get", "/v1/me", { auth: "operator" }),
    enabled: session !== null,
    staleTime: 60_000,
  });
  // A link into the console (an approval an agent asked for over MCP) names its tenant: `?tenant=`.
  // Stored at once: the API client reads the tenant from the store, and the linked page queries before any effect here runs.
  const [chosen, setChosen] = useState<string | null>(() => {
    const linked = new URLSearchParams(window.location.search).get("tenant");
    if (linked) tenantStore.set(linked);
    return linked ?? tenantStore.get();
  });
  const choose = useCallback((tenantId: string | null) => {
    if (tenantId) tenantStore.set(tenantId);
    else tenantStore.clear();
    setChosen(tenantId);
  }, []);
  const tenants = me.data?.tenants ?? [];
  // With a single tenant there is nothing to pick: it is chosen for the operator.
  const tenant = tenants.find((entry) => entry.tenant_id === chosen) ?? (tenants.length === 1 ? tenants[0] : undefined);
  useEffect(() => {
    if (tenant && tenant.tenant_id !== chosen) choose(tenant.tenant_id);
  }, [tenant, chosen, choose]);
  const value = useMemo(() => ({ me, tenant, choose }), [me, tenant, choose]);
  return <TenantContext.Provider value={value}>{children}</TenantContext.Provider>;
}

export function useTenantState(): TenantState {
  const value = useContext(TenantContext);
  if (!value) throw new Error("useTenantState outside TenantProvider");
  return value;
}

export type ActiveTenant = TenantMembership & {
  /** Admins may change things; viewers only read. */
  canWrite: boolean;
  /** Why a write control is disabled, for its tooltip. */
  readOnlyReason: string | undefined;
};

/** The active tenant; only for pages shown after a tenant is chosen. */
export function useTenant(): ActiveTenant {
  const { tenant } = useTenantState();
  if (!tenant) throw new Error("useTenant before a tenant is chosen");
  const canWrite = tenant.role === "admin";
  return { ...tenant, canWrite, readOnlyReason: canWrite ? undefined : `You have the viewer role in ${tenant.name}: changes need the admin role.` };
}
