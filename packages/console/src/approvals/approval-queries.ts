/** Reading and deciding approvals. The pending queue is polled every 3 s, also for the nav badge. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import type { Approval, ApprovalListStatus, Decision } from "../api/types";
import { useMembers } from "../settings/settings-queries";
import { useTenant } from "../tenant/tenant-context";

export const POLL_MS = 3000;
const PAGE = 200;
const MAX_PAGES = 5;

/** Every approval in `status` (the broker pages them oldest first), newest first. */
async function fetchApprovals(status: ApprovalListStatus): Promise<Approval[]> {
  const all: Approval[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { data, next_cursor } = await api("get", "/v1/approvals", { query: { status, limit: PAGE, ...(cursor ? { cursor } : {}) } });
    all.push(...data);
    if (!next_cursor) break;
    cursor = next_cursor;
  }
  const at = (approval: Approval) => approval.decision?.decided_at ?? approval.requested_at;
  return all.sort((a, b) => at(b).localeCompare(at(a)));
}

export function usePendingApprovals() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "approvals", "pending"], queryFn: () => fetchApprovals("pending"), refetchInterval: POLL_MS });
}

/** Decided and expired approvals, most recently ended first. */
export function useDecidedApprovals() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "approvals", "decided"], queryFn: () => fetchApprovals("decided"), refetchInterval: POLL_MS });
}

export function useApproval(id: string, poll: boolean) {
  const { tenant_id } = useTenant();
  return useQuery({
    queryKey: [tenant_id, "approvals", "one", id],
    queryFn: () => api("get", "/v1/approvals/{id}", { path: { id } }),
    refetchInterval: (query) => (poll && query.state.data?.status === "pending" ? POLL_MS : false),
  });
}

export function useDecide(id: string) {
  const { tenant_id } = useTenant();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: Decision) => api("post", "/v1/approvals/{id}/decide", { path: { id }, body: decision }),
    onSuccess: (approval) => queryClient.setQueryData([tenant_id, "approvals", "one", id], approval),
    // Decided or refused (409: someone else decided, or it expired): the queue has changed either way.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: [tenant_id, "approvals"] }),
  });
}

/** Agent app names by id, to show a name rather than a UUID where the list is readable. */
export function useAgentAppNames(): Map<string, string> {
  const { tenant_id } = useTenant();
  const query = useQuery({ queryKey: [tenant_id, "agent-apps"], queryFn: () => api("get", "/v1/agent-apps"), staleTime: 60_000 });
  return new Map((query.data?.data ?? []).map((app) => [app.id, app.name]));
}

/** Members' names by id (display name, else sign-in subject), for `member:<id>` references such as an edit's author. */
export function useMemberNames(): Map<string, string> {
  const query = useMembers();
  return new Map((query.data?.data ?? []).map((member) => [member.id, member.display_name ?? member.subject]));
}

/**
 * The exact, unredacted arguments of an approval's call (admins). A POST, audited by the broker
 * as `approval.arguments_revealed`; the answer stays in the mutation's state, never in the cache.
 */
export function useRevealArguments(id: string) {
  return useMutation({ mutationFn: () => api("post", "/v1/approvals/{id}/arguments", { path: { id } }) });
}
