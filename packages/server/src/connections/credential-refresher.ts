/**
 * Fresh upstream credentials for a connection. Tokens are refreshed ahead of expiry, one refresh
 * at a time per connection: in-process through a shared promise, across instances on PostgreSQL
 * through an advisory lock held while the refresh runs. A rotated refresh token is stored before
 * the new access token is handed to anyone. `invalid_grant` marks the connection expired.
 *
 * A rotating refresh spends its refresh token at the provider; a broker killed before it stored the
 * answer has lost the new one. So a write-ahead mark is set before the request leaves and cleared
 * with the stored answer. The next refresh that finds a mark still tries the old refresh token (a
 * request that never arrived, or a provider that allows reuse, recovers); refused, the connection
 * expires with reason `refresh_interrupted`, which tells the operator why a reconnect is needed.
 *
 * Tokens are sent only to the origins they were issued for (providers/credential-origins.ts).
 */
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError } from "../errors.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { TokenSet } from "../providers/provider-types.js";
import type { Executor, Store } from "../store/database.js";
import type { Vault } from "../vault/vault.js";
import { openTokens, sealTokens } from "./credential-bundle.js";
import { createLastUsedRecorder } from "../ttl-cache.js";
import type { ConnectionCache } from "./connection-cache.js";
import type { Connection } from "./connection.js";
import type { ConnectionQueries } from "./connection-queries.js";
import type { OAuthAppService } from "../oauth-apps/oauth-app-service.js";
import type { ResolvedProvider } from "../providers/catalogue.js";
import { plainValues } from "../providers/connection-values.js";
import { describeChange, isUnbound, originChange, originChangedError, originsOf, type OriginChange, type ReconnectReason } from "../providers/credential-origins.js";
import { UpstreamOAuthError, type OAuthClient } from "./oauth-client.js";
import type { Metrics } from "../observability/metrics.js";
import { NO_TRACING, type Tracing } from "../observability/tracing.js";
import { ATTR, SPANS } from "../observability/tracing-attributes.js";

/** Refresh this long before `expires_at`, so a token never expires mid-call. */
export const REFRESH_MARGIN_MS = 60_000;
type RefresherDeps = {
  store: Pick<Store, "db" | "kind" | "lock" | "transaction">;
  queries: ConnectionQueries;
  vault: Pick<Vault, "seal" | "open">;
  oauthClient: Pick<OAuthClient, "refresh" | "revoke">;
  oauthApps: Pick<OAuthAppService, "forIssuer">;
  audit: Pick<AuditLog, "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  clock: Clock;
  cache: Pick<ConnectionCache, "invalidate">;
  metrics: Pick<Metrics, "tokenRefresh">;
  /** A refresh is a `toolbroker.credential.refresh` span (in the tool call's trace when a call needed it). */
  tracing?: Pick<Tracing, "inSpan"> | undefined;
};

export function createCredentialRefresher(deps: RefresherDeps) {
  const { store, queries, vault, clock } = deps;
  const tracing = deps.tracing ?? NO_TRACING;
  const inFlight = new Map<string, Promise<TokenSet>>();
  /** Refresh failures the provider answered (it rotated nothing): they leave no write-ahead mark behind. */
  const answeredRefusals = new WeakSet<object>();
  // Connections may come from the connection cache, whose lastUsedAt lags our own writes.
  const noteUse = createLastUsedRecorder({ clock, write: (id, at) => queries.touchLastUsed(id, at) });

  const isFresh = (tokens: TokenSet) => tokens.expiresAt === undefined || tokens.expiresAt - REFRESH_MARGIN_MS > clock.now().getTime();

  const whoReconnects = (connection: { endUserId?: string | null }) => (connection.endUserId ? "its end user" : "an operator");

  function unusable(connection: Pick<Connection, "status"> & { endUserId?: string | null; reconnectReason?: ReconnectReason | null }): BrokerError {
    const reason = connection.reconnectReason ?? undefined;
    const why = reason === "origin_changed" ? " (its provider now points to another address)" : reason === "refresh_interrupted" ? " (a token refresh was interrupted and the provider no longer accepts the old refresh token)" : "";
    return new BrokerError("connection_unusable", `the connection is ${connection.status}${why}; ${whoReconnects(connection)} must reconnect the account`, {
      connection_status: connection.status,
      reconnect_required: true,
      ...(reason ? { reason } : {}),
    });
  }

  /** Expires an active connection with why it needs a reconnect; `reason` is what the audit and the event say. */
  async function markExpired(connection: Connection, reconnect: ReconnectReason, reason: string, data: Record<string, unknown> = {}) {
    const at = clock.now().toISOString();
    await store.transaction(async (trx) => {
      const changed = await queries.markExpired(connection.id, at, reconnect, trx);
      if (Number(changed.numUpdatedRows) === 0) return;
      await deps.audit.appendIn({
        tenantId: connection.tenantId,
        actor: { type: "system", id: "credential-refresher" },
        action: "connection.expired",
        target: { type: "connection", id: connection.id },
        outcome: "failure",
        endUserId: connection.endUserId,
        data: { provider: connection.provider, reason, ...data },
      }, trx);
      await deps.events.emitIn({
        tenantId: connection.tenantId,
        type: "connection.expired",
        data: { connected_account_id: connection.id, provider: connection.provider, env: connection.env, end_user_id: connection.endUserId, label: connection.label, reason },
      }, trx);
    });
    deps.cache.invalidate(connection.id);
  }

  /**
   * Refuses a connection whose provider moved since it was issued, before anything is sent, and
   * expires it (audited with the old and new origins). A connection stored before origins were
   * recorded is bound to the provider's origins now, once.
   */
  async function assertOrigins(connection: Connection, provider: ResolvedProvider, db: Executor = store.db): Promise<void> {
    const current = originsOf(provider, plainValues(connection.connectionValues));
    if (isUnbound(connection.origins)) {
      await queries.bindOrigins(connection.id, current, db);
      connection.origins = current;
      deps.cache.invalidate(connection.id);
      return;
    }
    const change = originChange(connection.origins, current, "oauth2");
    if (!change) return;
    await refuseMoved(connection, change);
  }

  async function refuseMoved(connection: Connection, change: OriginChange): Promise<never> {
    await markExpired(connection, "origin_changed", "origin_changed", describeChange(change));
    throw originChangedError("connected account", change, whoReconnects(connection));
  }

  /** The connection as stored now (not cached); connection_unusable unless it is still active. */
  async function findActive(db: Executor, tenantId: string, id: string): Promise<Connection> {
    const connection = await queries.find(tenantId, id, undefined, db);
    if (!connection || connection.status !== "active") throw unusable(connection ?? { status: "revoked" });
    return connection;
  }

  /**
   * Re-reads the connection (another caller may have refreshed it) and refreshes if still needed.
   * `ownMark`: this attempt set the write-ahead mark (no earlier attempt left one behind).
   */
  async function refreshRow(db: Executor, id: string, tenantId: string, ownMark: boolean, force: boolean, staleAccessToken?: string): Promise<TokenSet> {
    const connection = await findActive(db, tenantId, id);
    const current = await openTokens(vault, connection);
    const alreadyRotated = force && staleAccessToken !== undefined && current.accessToken !== staleAccessToken;
    if ((!force && isFresh(current)) || alreadyRotated) {
      if (ownMark) await queries.clearRefreshMark(id, db);
      return current;
    }
    // Refreshed by the client that issued the tokens: the tenant's own app (even one replaced since) or
    // the broker-wide one. Read on `db`: on PostgreSQL this runs inside the locked transaction, and a
    // second pool connection per refresh would starve the pool when many refresh at once.
    const issuer = await deps.oauthApps.forIssuer(connection.tenantId, connection.provider, connection.oauthAppId, db);
    await assertOrigins(connection, issuer, db);
    let next: TokenSet;
    try {
      next = await deps.oauthClient.refresh(issuer, current);
      deps.metrics.tokenRefresh(connection.provider, "succeeded");
    } catch (error) {
      deps.metrics.tokenRefresh(connection.provider, "failed");
      if (error instanceof UpstreamOAuthError && error.invalidGrant) {
        // Refused after an earlier attempt was cut short: that attempt spent the refresh token.
        const interrupted = !ownMark;
        await markExpired(connection, interrupted ? "refresh_interrupted" : "refresh_refused", interrupted ? "refresh_interrupted" : error.error, interrupted ? { upstream_error: error.error } : {});
        throw unusable({ status: "expired", endUserId: connection.endUserId, reconnectReason: interrupted ? "refresh_interrupted" : null });
      }
      const failed = new BrokerError("upstream_error", "the provider's token endpoint refused to refresh the credential", {
        reason: error instanceof UpstreamOAuthError ? error.error : "network",
      });
      // The provider answered with a refusal: nothing was rotated, so this attempt leaves no mark.
      if (ownMark && error instanceof UpstreamOAuthError && !error.providerFailed) answeredRefusals.add(failed);
      throw failed;
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

  /**
   * The write-ahead mark is committed before the refresh (outside PostgreSQL's locked transaction,
   * whose writes a crash would roll back), so a crash while the request is out leaves it behind.
   */
  async function refreshSerialised(connection: Connection, force: boolean, staleAccessToken?: string): Promise<TokenSet> {
    const ownMark = await queries.markRefreshStarted(connection.id, clock.now().toISOString());
    try {
      if (store.kind !== "postgres") return await refreshRow(store.db, connection.id, connection.tenantId, ownMark, force, staleAccessToken);
      // Never retried as a whole: it spends a refresh token at the provider.
      return await store.transaction(async (trx) => {
        await store.lock(`refresh:${connection.id}`, trx);
        return refreshRow(trx, connection.id, connection.tenantId, ownMark, force, staleAccessToken);
      }, { retryOnConflict: false });
    } catch (error) {
      // Cleared after PostgreSQL's transaction, which rolls back whatever it wrote when it fails.
      if (answeredRefusals.has(error as object)) await queries.clearRefreshMark(connection.id).catch(() => undefined);
      throw error;
    }
  }

  /** `reason`: `expiring` (due before the call) or `rejected` (the provider answered 401 to the token). */
  function singleFlight(connection: Connection, force: boolean, staleAccessToken?: string): Promise<TokenSet> {
    const attributes = { [ATTR.connectionId]: connection.id, [ATTR.provider]: connection.provider, [ATTR.refreshReason]: force ? "rejected" : "expiring" };
    return tracing.inSpan(SPANS.credentialRefresh, { attributes }, () => refreshOnce(connection, force, staleAccessToken));
  }

  function refreshOnce(connection: Connection, force: boolean, staleAccessToken?: string): Promise<TokenSet> {
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
    /** Before a call: the provider it goes to must still have the origins the connection was issued for. */
    assertOrigins: (connection: Connection, provider: ResolvedProvider) => assertOrigins(connection, provider),
  };
}

export type CredentialRefresher = ReturnType<typeof createCredentialRefresher>;
