/**
 * A tenant's provider moved (its token endpoint or API base URL now has another origin): every
 * connection and secret item issued for the old origins needs a reconnect, marked in the same
 * transaction as the change, so no call can slip between them and deliver a credential elsewhere.
 * Each connection raises `connection.expired` (reason `origin_changed`) for the tenant's webhooks.
 */
import type { Clock } from "../clock.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { CredentialOrigins } from "../providers/credential-origins.js";
import type { SecretItemQueries } from "../secrets/secret-item-queries.js";
import type { Tx } from "../store/database.js";
import type { ConnectionCache } from "./connection-cache.js";
import type { ConnectionQueries } from "./connection-queries.js";

type ProviderMovesDeps = {
  connections: Pick<ConnectionQueries, "markOriginChanged">;
  secretItems: Pick<SecretItemQueries, "markOriginChanged">;
  cache: Pick<ConnectionCache, "invalidate">;
  events: Pick<EventOutbox, "emitIn">;
  clock: Clock;
};

export type CredentialsNeedingReconnect = { connections: string[]; secretItems: number };

export function createProviderMoves({ connections, secretItems, cache, events, clock }: ProviderMovesDeps) {
  return {
    async markMoved(scope: { tenantId: string; provider: string }, to: CredentialOrigins, trx: Tx): Promise<CredentialsNeedingReconnect> {
      const at = clock.now().toISOString();
      const expired = await connections.markOriginChanged(scope, to, at, trx);
      for (const row of expired) {
        await events.emitIn({
          tenantId: scope.tenantId,
          type: "connection.expired",
          data: { connected_account_id: row.id, provider: scope.provider, env: row.env, end_user_id: row.end_user_id, label: row.label, reason: "origin_changed" },
        }, trx);
      }
      const items = await secretItems.markOriginChanged({ tenantId: scope.tenantId, provider: scope.provider }, to, trx);
      return { connections: expired.map((row) => row.id), secretItems: items };
    },
    /** After the commit: this instance forgets the connections it may have cached as active. */
    forget: (ids: string[]) => ids.forEach((id) => cache.invalidate(id)),
  };
}

export type ProviderMoves = ReturnType<typeof createProviderMoves>;
