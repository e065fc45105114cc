/**
 * Fresh upstream credentials for a connection. Tokens are refreshed ahead of expiry, one refresh
 * at a time per connection: in-process through a shared promise, across instances on PostgreSQL
 * through an advisory lock held while the refresh runs. A rotated refresh token is stored before
 * the new access token is handed to anyone. `invalid_grant` marks the connection expired.
 */
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError } from "../errors.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { ProviderCatalogue } from "../providers/catalogue.js";
import type { TokenSet } from "../providers/provider-types.js";
import type { Db, Executor, Store } from "../store/database.js";
import type { Vault } from "../vault/vault.js";
import { openTokens, sealTokens } from "./credential-bundle.js";
import { createLastUsedRecorder } from "../ttl-cache.js";
import type { ConnectionCache } from "./connection-cache.js";
import type { ConnectionQueries, ConnectionRow } from "./connection-queries.js";
import { UpstreamOAuthError, type OAuthClient } from "./oauth-client.js";

/** Refresh this long before `expires_at`, so a token never expires mid-call. */
export const REFRESH_MARGIN_MS = 60_000;
type RefresherDeps = {
  store: Pick<Store, "db" | "kind" | "lock">;
  queries: ConnectionQueries;
  vault: Pick<Vault, "seal" | "open">;
  oauthClient: Pick<OAuthClient, "refresh">;
  providers: Pick<ProviderCatalogue, "get">;
  audit: Pick<AuditLog, "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  clock: Clock;
  cache: Pick<ConnectionCache, "invalidate">;
};

export function createCredentialRefresher(deps: RefresherDeps) {
  const { store, queries, vault, clock } = deps;
  const inFlight = new Map<string, Promise<TokenSet>>();
  // Rows may come from the connection cache, whose last_used_at lags our own writes.
  const noteUse = createLastUsedRecorder({ clock, write: (id, at) => queries.touchLastUsed(store.db, id, at) });

  const isFresh = (tokens: TokenSet) => tokens.expiresAt === undefined || tokens.expiresAt - REFRESH_MARGIN_MS > clock.now().getTime();

  function unusable(row: Pick<ConnectionRow, "status">): BrokerError {
    return new BrokerError("connection_unusable", `the connection is ${row.status}; an operator must reconnect the account`, {
      connection_status: row.status,
      reconnect_required: true,
    });
  }

  async function markExpired(row: ConnectionRow, reason: string) {
    const at = clock.now().toISOString();
    await store.db.transaction().execute(async (trx) => {
      const changed = await queries.markExpired(trx, row.id, at);
      deps.cache.invalidate(row.id);
      if (Number(changed.numUpdatedRows) === 0) return;
      await deps.audit.appendIn(trx, {
        tenantId: row.tenant_id,
        actor: { type: "system", id: "credential-refresher" },
        action: "connection.expired",
        target: { type: "connection", id: row.id },
        outcome: "failure",
        data: { provider: row.provider, reason },
      });
      await deps.events.emitIn(trx, {
        tenantId: row.tenant_id,
        type: "connection.expired",
        data: { connected_account_id: row.id, provider: row.provider, env: row.env, reason },
      });
    });
  }

  /** Re-reads the row (another caller may have refreshed it) and refreshes if still needed. */
  async function refreshRow(db: Executor, id: string, tenantId: string, force: boolean, staleAccessToken?: string): Promise<TokenSet> {
    const row = await queries.findInTenant(db, tenantId, id);
    if (!row || row.status !== "active") throw unusable(row ?? { status: "revoked" });
    const current = await openTokens(vault, row);
    const alreadyRotated = force && staleAccessToken !== undefined && current.accessToken !== staleAccessToken;
    if ((!force && isFresh(current)) || alreadyRotated) return current;
    let next: TokenSet;
    try {
      next = await deps.oauthClient.refresh(deps.providers.get(row.provider), current);
    } catch (error) {
      if (error instanceof UpstreamOAuthError && error.invalidGrant) {
        await markExpired(row, error.error);
        throw unusable({ status: "expired" });
      }
      throw new BrokerError("upstream_error", "the provider's token endpoint refused to refresh the credential", {
        reason: error instanceof UpstreamOAuthError ? error.error : "network",
      });
    }
    await queries.updateCredential(db, row.id, await sealTokens(vault, row.tenant_id, row.id, next), clock.now().toISOString());
    deps.cache.invalidate(row.id);
    return next;
  }

  function refreshSerialised(row: ConnectionRow, force: boolean, staleAccessToken?: string): Promise<TokenSet> {
    if (store.kind !== "postgres") return refreshRow(store.db, row.id, row.tenant_id, force, staleAccessToken);
    return (store.db as Db).transaction().execute(async (trx) => {
      await store.lock(trx, `refresh:${row.id}`);
      return refreshRow(trx, row.id, row.tenant_id, force, staleAccessToken);
    });
  }

  function singleFlight(row: ConnectionRow, force: boolean, staleAccessToken?: string): Promise<TokenSet> {
    const pending = inFlight.get(row.id);
    if (pending) return pending;
    const promise = refreshSerialised(row, force, staleAccessToken).finally(() => inFlight.delete(row.id));
    inFlight.set(row.id, promise);
    return promise;
  }

  return {
    /** Tokens usable right now; refreshes ahead of expiry. Each call counts as a use of the connection. */
    async getFreshCredentials(row: ConnectionRow): Promise<TokenSet> {
      if (row.status !== "active") throw unusable(row);
      const tokens = await openTokens(vault, row);
      await noteUse(row.id, row.last_used_at);
      if (isFresh(tokens)) return tokens;
      return singleFlight(row, false);
    },
    /** After an upstream 401: refresh even though the token looked valid (once per stale token). */
    forceRefresh: (row: ConnectionRow, staleAccessToken: string) => singleFlight(row, true, staleAccessToken),
  };
}

export type CredentialRefresher = ReturnType<typeof createCredentialRefresher>;
