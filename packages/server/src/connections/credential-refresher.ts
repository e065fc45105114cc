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
import type { TokenSet } from "../providers/provider-types.js";
import type { Db, Executor, Store } from "../store/database.js";
import { retryingTransaction } from "../store/retrying-transaction.js";
import type { Vault } from "../vault/vault.js";
import { openTokens, sealTokens } from "./credential-bundle.js";
import { createLastUsedRecorder } from "../ttl-cache.js";
import type { ConnectionCache } from "./connection-cache.js";
import type { Connection } from "./connection.js";
import type { ConnectionQueries } from "./connection-queries.js";
import type { OAuthAppService } from "../oauth-apps/oauth-app-service.js";
import type { ResolvedProvider } from "../providers/catalogue.js";
import { UpstreamOAuthError, type OAuthClient } from "./oauth-client.js";

/** Refresh this long before `expires_at`, so a token never expires mid-call. */
export const REFRESH_MARGIN_MS = 60_000;
type RefresherDeps = {
  store: Pick<Store, "db" | "kind" | "lock">;
  queries: ConnectionQueries;
  vault: Pick<Vault, "seal" | "open">;
  oauthClient: Pick<OAuthClient, "refresh" | "revoke">;
  oauthApps: Pick<OAuthAppService, "forIssuer">;
  audit: Pick<AuditLog, "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  clock: Clock;
  cache: Pick<ConnectionCache, "invalidate">;
};

export function createCredentialRefresher(deps: RefresherDeps) {
  const { store, queries, vault, clock } = deps;
  const inFlight = new Map<string, Promise<TokenSet>>();
  // Connections may come from the connection cache, whose lastUsedAt lags our own writes.
  const noteUse = createLastUsedRecorder({ clock, write: (id, at) => queries.touchLastUsed(id, at) });

  const isFresh = (tokens: TokenSet) => tokens.expiresAt === undefined || tokens.expiresAt - REFRESH_MARGIN_MS > clock.now().getTime();

  function unusable(connection: Pick<Connection, "status"> & { endUserId?: string | null }): BrokerError {
    const who = connection.endUserId ? "its end user" : "an operator";
    return new BrokerError("connection_unusable", `the connection is ${connection.status}; ${who} must reconnect the account`, {
      connection_status: connection.status,
      reconnect_required: true,
    });
  }

  async function markExpired(connection: Connection, reason: string) {
    const at = clock.now().toISOString();
    await retryingTransaction(store.db, async (trx) => {
      const changed = await queries.markExpired(connection.id, at, trx);
      if (Number(changed.numUpdatedRows) === 0) return;
      await deps.audit.appendIn(trx, {
        tenantId: connection.tenantId,
        actor: { type: "system", id: "credential-refresher" },
        action: "connection.expired",
        target: { type: "connection", id: connection.id },
        outcome: "failure",
        endUserId: connection.endUserId,
        data: { provider: connection.provider, reason },
      });
      await deps.events.emitIn(trx, {
        tenantId: connection.tenantId,
        type: "connection.expired",
        data: { connected_account_id: connection.id, provider: connection.provider, env: connection.env, end_user_id: connection.endUserId, label: connection.label, reason },
      });
    });
    deps.cache.invalidate(connection.id);
  }

  /** The connection as stored now (not cached); connection_unusable unless it is still active. */
  async function findActive(db: Executor, tenantId: string, id: string): Promise<Connection> {
    const connection = await queries.find(tenantId, id, undefined, db);
    if (!connection || connection.status !== "active") throw unusable(connection ?? { status: "revoked" });
    return connection;
  }

  /** Re-reads the connection (another caller may have refreshed it) and refreshes if still needed. */
  async function refreshRow(db: Executor, id: string, tenantId: string, force: boolean, staleAccessToken?: string): Promise<TokenSet> {
    const connection = await findActive(db, tenantId, id);
    const current = await openTokens(vault, connection);
    const alreadyRotated = force && staleAccessToken !== undefined && current.accessToken !== staleAccessToken;
    if ((!force && isFresh(current)) || alreadyRotated) return current;
    // Refreshed by the client that issued the tokens: the tenant's own app (even one replaced since) or
    // the broker-wide one. Read on `db`: on PostgreSQL this runs inside the locked transaction, and a
    // second pool connection per refresh would starve the pool when many refresh at once.
    const issuer = await deps.oauthApps.forIssuer(connection.tenantId, connection.provider, connection.oauthAppId, db);
    let next: TokenSet;
    try {
      next = await deps.oauthClient.refresh(issuer, current);
    } catch (error) {
      if (error instanceof UpstreamOAuthError && error.invalidGrant) {
        await markExpired(connection, error.error);
        throw unusable({ status: "expired" });
      }
      throw new BrokerError("upstream_error", "the provider's token endpoint refused to refresh the credential", {
        reason: error instanceof UpstreamOAuthError ? error.error : "network",
      });
    }
    const sealed = await sealTokens(vault, connection.tenantId, connection.id, next);
    const stored = await queries.updateCredential(connection.id, connection.credentialSealed!, sealed, clock.now().toISOString(), db);
    deps.cache.invalidate(connection.id);
    if (!stored) return discardRefreshed(db, connection, next, issuer);
    return next;
  }

  /**
   * The connection changed while its tokens were being refreshed. If it was revoked (or expired)
   * meanwhile, the tokens just issued are revoked at the provider too (best effort): the revoke
   * could not know of them, and nothing may keep a live grant for a revoked connection.
   */
  async function discardRefreshed(db: Executor, connection: Connection, next: TokenSet, issuer: ResolvedProvider): Promise<never> {
    const current = await queries.find(connection.tenantId, connection.id, undefined, db);
    if (current?.status !== "active") await deps.oauthClient.revoke(issuer, next.accessToken).catch(() => undefined);
    throw current?.status === "active"
      ? new BrokerError("conflict", "the connection's credential was replaced at the same time; try again")
      : unusable(current ?? { status: "revoked" });
  }

  function refreshSerialised(connection: Connection, force: boolean, staleAccessToken?: string): Promise<TokenSet> {
    if (store.kind !== "postgres") return refreshRow(store.db, connection.id, connection.tenantId, force, staleAccessToken);
    // Never retried as a whole: it spends a refresh token at the provider.
    return (store.db as Db).transaction().execute(async (trx) => {
      await store.lock(trx, `refresh:${connection.id}`);
      return refreshRow(trx, connection.id, connection.tenantId, force, staleAccessToken);
    });
  }

  function singleFlight(connection: Connection, force: boolean, staleAccessToken?: string): Promise<TokenSet> {
    const pending = inFlight.get(connection.id);
    if (pending) return pending;
    const promise = refreshSerialised(connection, force, staleAccessToken).finally(() => inFlight.delete(connection.id));
    inFlight.set(connection.id, promise);
    return promise;
  }

  return {
    /** Tokens usable right now; refreshes ahead of expiry. Each call counts as a use of the connection. */
    async getFreshCredentials(connection: Connection): Promise<TokenSet> {
      if (connection.status !== "active") throw unusable(connection);
      const tokens = await openTokens(vault, connection);
      await noteUse(connection.id, connection.lastUsedAt);
      if (isFresh(tokens)) return tokens;
      return singleFlight(connection, false);
    },
    /** After an upstream 401: refresh even though the token looked valid (once per stale token). */
    forceRefresh: (connection: Connection, staleAccessToken: string) => singleFlight(connection, true, staleAccessToken),
    /** Throws connection_unusable unless the stored connection is still active (read afresh, not cached). */
    async assertActive(connection: Connection): Promise<void> {
      await findActive(store.db, connection.tenantId, connection.id);
    },
  };
}

export type CredentialRefresher = ReturnType<typeof createCredentialRefresher>;
