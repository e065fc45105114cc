/**
 * The execute path reads the same connection row on every call. Rows are kept for a short time;
 * this process drops an entry the moment it revokes, expires or refreshes the connection, and
 * other instances see the change within TTL_MS (a stale row there can only hold tokens that the
 * refresh path re-reads from the database before using again).
 */
import type { Clock } from "../clock.js";
import { createTtlCache } from "../ttl-cache.js";
import type { Db } from "../store/database.js";
import type { ConnectionQueries, ConnectionRow } from "./connection-queries.js";

export const CONNECTION_CACHE_TTL_MS = 2_000;

export function createConnectionCache({ db, queries, clock }: { db: Db; queries: Pick<ConnectionQueries, "findInTenant">; clock: Clock }) {
  const rows = createTtlCache<ConnectionRow>({ clock, ttlMs: CONNECTION_CACHE_TTL_MS });

  return {
    async find(tenantId: string, id: string): Promise<ConnectionRow | undefined> {
      const hit = rows.get(id);
      if (hit && hit.tenant_id === tenantId) return hit;
      const row = await queries.findInTenant(db, tenantId, id);
      if (row) rows.set(id, row);
      return row;
    },
    invalidate: (id: string) => rows.delete(id),
  };
}

export type ConnectionCache = ReturnType<typeof createConnectionCache>;
