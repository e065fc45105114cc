/**
 * The broker lists only pending approvals; one that expires leaves no other trace to list. The
 * console remembers, per tab, the ids it saw pending, so the "Decided and expired" tab can show
 * what became of them.
 */
const KEY = (tenantId: string) => `toolbroker.console.seen-approvals.${tenantId}`;
const LIMIT = 200;

export function seenApprovals(tenantId: string): string[] {
  try {
    return JSON.parse(sessionStorage.getItem(KEY(tenantId)) ?? "[]") as string[];
  } catch {
    return [];
  }
}

export function rememberPending(tenantId: string, ids: string[]) {
  const seen = seenApprovals(tenantId);
  const merged = [...ids.filter((id) => !seen.includes(id)), ...seen].slice(0, LIMIT);
  if (merged.length !== seen.length) sessionStorage.setItem(KEY(tenantId), JSON.stringify(merged));
}
