/**
 * An `approval.requested` payload's `end_user_url` decides the approval for the end user: only
 * admins (who may hand it to them) and the tenant's backend read it. Every other reader of an
 * event's data — a viewer of webhook deliveries or of the event log — reads null there.
 */
export function withoutEndUserLink<T>(data: T): T {
  if (!data || typeof data !== "object" || typeof (data as { end_user_url?: unknown }).end_user_url !== "string") return data;
  return { ...data, end_user_url: null };
}
