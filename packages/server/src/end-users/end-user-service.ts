/**
 * The end users a tenant's connections and keys belong to: listed for operators, and deleted in
 * one call — the customer's "delete my account" path, which revokes every connection (upstream
 * too, each with its `connection.revoked`) and deletes every secret item of that end user.
 */
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { ConnectSessionService } from "../connect/connect-session-service.js";
import type { ConnectionService } from "../connections/connection-service.js";
import { decodeCursor, encodeCursor, invalidCursor } from "../http/cursor.js";
import type { SecretItemService } from "../secrets/secret-item-service.js";
import type { EndUserQueries } from "./end-user-queries.js";
import { isEndUserId } from "../shared/end-user-id.js";

type EndUserServiceDeps = {
  queries: EndUserQueries;
  connections: Pick<ConnectionService, "revokeAllOfEndUser">;
  secretItems: Pick<SecretItemService, "deleteAllOfEndUser">;
  connectSessions: Pick<ConnectSessionService, "deleteAllOfEndUser">;
  audit: Pick<AuditLog, "append">;
};

export function createEndUserService({ queries, connections, secretItems, connectSessions, audit }: EndUserServiceDeps) {
  return {
    async list(tenantId: string, filter: { env?: "test" | "live" | undefined; cursor?: string | undefined; limit: number }) {
      const after = filter.cursor ? decodeCursor<{ u: string }>(filter.cursor, ["u"]).u : undefined;
      if (after !== undefined && !isEndUserId(after)) throw invalidCursor();
      const rows = await queries.list(tenantId, { env: filter.env, after, limit: filter.limit + 1 });
      const page = rows.slice(0, filter.limit);
      const last = page.at(-1);
      return { data: page, next_cursor: rows.length > filter.limit && last ? encodeCursor({ u: last.end_user_id }) : null };
    },

    async delete(tenantId: string, endUserId: string, actor: AuditActor) {
      // Links first, so no new connection can appear while the existing ones are revoked.
      await connectSessions.deleteAllOfEndUser(tenantId, endUserId);
      const connectionsRevoked = await connections.revokeAllOfEndUser(tenantId, endUserId, actor);
      const secretItemsDeleted = await secretItems.deleteAllOfEndUser(tenantId, endUserId, actor);
      await audit.append({
        tenantId,
        actor,
        action: "end_user.deleted",
        target: { type: "end_user", id: endUserId },
        endUserId,
        data: { connections_revoked: connectionsRevoked, secret_items_deleted: secretItemsDeleted },
      });
      return { end_user_id: endUserId, connections_revoked: connectionsRevoked, secret_items_deleted: secretItemsDeleted };
    },
  };
}

export type EndUserService = ReturnType<typeof createEndUserService>;
