/**
 * The execute path reads the same connection row on every call. Rows are kept for a short time;
 * this process drops an entry the moment it revokes, expires or refreshes the connection, and
 * other instances see the change within TTL_MS (a stale row there can only hold tokens that the
 * refresh path re-reads from the database before using again).
 */
import type { Clock } from "../clock.js";
import type { Db } from "../store/database.js";
import type { ConnectionQueries, ConnectionRow } from "./connection-queries.js";

export const CONNECTION_CACHE_TTL_MS = 2_000;
const MAX_ENTRIES = 10_000;

export function createConnectionCache({ db, queries, clock }: { db: Db; queries: Pick<ConnectionQueries, "findInTenant">; clock: Clock }) {
  const entries = new Map<string, { row: ConnectionRow; loadedAt: number }>();

  return {
    async find(tenantId: string, id: string): Promise<ConnectionRow | undefined> {
      const now = clock.now().getTime();
      const hit = entries.get(id);
      if (hit && hit.row.tenant_id === tenantId && now - hit.loadedAt < CONNECTION_CACHE_TTL_MS) return hit.row;
      const row = await queries.findInTenant(db, tenantId, id);
      if (row) {
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
        entries.set(id, { row, loadedAt: now });
      }
      return row;
    },
    invalidate(id: string) {
      entries.delete(id);
    },
  };
}

export type ConnectionCache = ReturnType<typeof createConnectionCache>;
