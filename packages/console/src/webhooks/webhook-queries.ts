/** Webhook endpoints, their secrets (returned once), tests and delivery logs. */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import type { ApiBody, WebhookEvent } from "../api/types";
import { useTenant } from "../tenant/tenant-context";

/** Every event kind, checked against the generated type: a kind the broker adds fails the typecheck here. */
export const EVENT_KINDS: Record<WebhookEvent, string> = {
  "connection.created": "An account was connected",
  "connection.revoked": "A connection was revoked",
  "connection.expired": "A connection's tokens expired for good",
  "connection.required": "An end user must connect an account for an agent's call",
  "approval.requested": "A call waits for approval",
  "approval.decided": "An approval was decided",
  "approval.expired": "An approval expired undecided",
  "billing.period_finalized": "A billing period was closed",
  "webhook.test": "A test sent from here",
};

function useInvalidateWebhooks() {
  const { tenant_id } = useTenant();
  const queryClient = useQueryClient();
  // Not awaited: the mutation reports its own outcome at once, whatever the refetch does.
  return () => void queryClient.invalidateQueries({ queryKey: [tenant_id, "webhooks"] });
}

export function useWebhooks() {
  const { tenant_id } = useTenant();
  return useQuery({ queryKey: [tenant_id, "webhooks"], queryFn: () => api("get", "/v1/webhooks") });
}

export function useCreateWebhook() {
  const onSettled = useInvalidateWebhooks();
  return useMutation({ mutationFn: (body: ApiBody<"post", "/v1/webhooks">) => api("post", "/v1/webhooks", { body }), onSettled });
}

export function useUpdateWebhook(id: string) {
  const onSettled = useInvalidateWebhooks();
  return useMutation({ mutationFn: (body: ApiBody<"patch", "/v1/webhooks/{id}">) => api("patch", "/v1/webhooks/{id}", { path: { id }, body }), onSettled });
}

export function useRotateSecret(id: string) {
  const onSettled = useInvalidateWebhooks();
  return useMutation({ mutationFn: () => api("post", "/v1/webhooks/{id}/rotate-secret", { path: { id } }), onSettled });
}

export function useSendTest(id: string) {
  const onSettled = useInvalidateWebhooks();
  return useMutation({ mutationFn: () => api("post", "/v1/webhooks/{id}/test", { path: { id } }), onSettled });
}

export function useDeliveries(id: string) {
  const { tenant_id } = useTenant();
  return useInfiniteQuery({
    queryKey: [tenant_id, "webhooks", id, "deliveries"],
    queryFn: ({ pageParam }) => api("get", "/v1/webhooks/{id}/deliveries", { path: { id }, query: { limit: 20, ...(pageParam ? { cursor: pageParam } : {}) } }),
    initialPageParam: "",
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchInterval: 5000,
  });
}
