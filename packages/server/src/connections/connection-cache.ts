/**
 * The execute path reads the same connection on every call. Connections are kept for a short
 * time; this process drops an entry the moment it revokes, expires or refreshes the connection,
 * and other instances see the change within TTL_MS (a stale entry there can only hold tokens that
 * the refresh path re-reads from the database before using again).
 */
import type { Clock } from "../clock.js";
import { createTtlCache } from "../ttl-cache.js";
import type { Connection } from "./connection.js";
import type { ConnectionQueries } from "./connection-queries.js";

export const CONNECTION_CACHE_TTL_MS = 2_000;

export function createConnectionCache({ queries, clock }: { queries: Pick<ConnectionQueries, "find" | "listUsable">; clock: Clock }) {
  const connections = createTtlCache<Connection>({ clock, ttlMs: CONNECTION_CACHE_TTL_MS });

  return {
    async find(tenantId: string, id: string): Promise<Connection | undefined> {
      const hit = connections.get(id);
      if (hit && hit.tenantId === tenantId) return hit;
      const connection = await queries.find(tenantId, id);
      if (connection) connections.set(id, connection);
      return connection;
    },
    /** Not cached: default resolution must see a connection the moment it is created. */
    listUsable: (scope: Parameters<ConnectionQueries["listUsable"]>[0]) => queries.listUsable(scope),
    invalidate: (id: string) => connections.delete(id),
  };
}

export type ConnectionCache = ReturnType<typeof createConnectionCache>;
