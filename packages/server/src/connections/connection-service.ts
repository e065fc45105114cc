/**
 * Connecting SaaS accounts: the OAuth start/callback pair, the operator's list, and revocation.
 * Callers only ever see a `connected_account_id`; tokens stay sealed in the vault.
 */
import { createHash, randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { TestOrLive } from "../ids.js";
import { decodeCursor, encodeCursor, invalidCursor } from "../http/cursor.js";
import { requireOAuthClient, type ResolvedProvider, type ScopedProviders } from "../providers/catalogue.js";
import { canonicalProviderId } from "../providers/aliases.js";
import { checkConnectInputs, resolveApiBase, plainValues, type StoredConnectionValues } from "../providers/connection-values.js";
import { flowOriginsOf, originChange, originsOf, describeChange } from "../providers/credential-origins.js";
import type { UpstreamClient } from "../providers/upstream-client.js";
import type { Store, Tx } from "../store/database.js";
import type { Vault } from "../vault/vault.js";
import { openTokens, sealTokens } from "./credential-bundle.js";
import type { ConnectionCache } from "./connection-cache.js";
import type { Connection, Owner } from "./connection.js";
import type { ConnectionQueries } from "./connection-queries.js";
import type { OAuthAppService } from "../oauth-apps/oauth-app-service.js";
import { UpstreamOAuthError, type OAuthClient } from "./oauth-client.js";
import { createUpstreamRevocation, type UpstreamRevocationAttempt } from "./upstream-revocation.js";
import { valuesAtConnect } from "./values-at-connect.js";

export const OAUTH_STATE_TTL_MS = 10 * 60_000;
export const CALLBACK_PATH = "/v1/connections/oauth/callback";
/** How many times a revoke looks again when a refresh replaced the credential it was revoking. */
const REVOKE_ROUNDS = 3;

export type OperatorContext = { tenantId: string; role?: "admin" | "viewer" } & Owner;
/** `connection_values`: the values the provider asks a person for (`connect_input`, e.g. a Zendesk subdomain). */
export type StartInput = { provider: string; env?: TestOrLive; scopes?: string[]; redirect_after?: string; connection_values?: Record<string, string> | undefined };
/**
 * Who a connection is made for. An operator connects shared accounts; a connect session connects
 * accounts owned by one end user, recorded as made by whoever created the session.
 */
export type ConnectInitiator = { tenantId: string; owner: Owner; endUserId: string | null; label: string | null; connectSessionId: string | null };
export type ListFilter = {
  endUserId?: string | undefined;
  provider?: string | undefined;
  status?: "active" | "expired" | "revoked" | undefined;
  env?: TestOrLive | undefined;
  cursor?: string | undefined;
  limit: number;
};
export type CompletedConnect = { connectionId: string; tenantId: string; provider: string; displayName: string; redirectAfter: string | null; connectSessionId: string | null };

type ConnectionServiceDeps = {
  cache: Pick<ConnectionCache, "invalidate">;
  store: Pick<Store, "db" | "transaction">;
  queries: ConnectionQueries;
  vault: Pick<Vault, "seal" | "open" | "status">;
  oauthClient: OAuthClient;
  catalogue: ScopedProviders;
  oauthApps: Pick<OAuthAppService, "forConnect" | "forIssuer">;
  upstream: UpstreamClient;
  audit: Pick<AuditLog, "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  clock: Clock;
  publicUrl: string;
  production: boolean;
};

const hashState = (state: string) => createHash("sha256").update(state).digest("hex");
/** The state vanished during the exchange: its end user was deleted (or, for an operator's flow, it was cleaned up long expired). */
const flowDropped = (endUserId: string | null) =>
  endUserId !== null
    ? new BrokerError("oauth_state_invalid", "the end user was deleted while this connection was being made; nothing was stored", { reason: "end_user_deleted" })
    : new BrokerError("oauth_state_invalid", "this OAuth state was dropped while the connection was being made; start the connection again");
const oauthError = (code: "oauth_state_invalid" | "oauth_state_expired" | "oauth_denied" | "oauth_exchange_failed", message: string, details?: Record<string, unknown>) =>
  new BrokerError(code, message, details);

export function createConnectionService(deps: ConnectionServiceDeps) {
  const { store, queries, vault, clock } = deps;
  const redirectUri = `${deps.publicUrl}${CALLBACK_PATH}`;
  const operatorActor = (op: Owner) => ({ type: "operator" as const, id: `${op.issuer}|${op.subject}` });
  const upstreamRevocation = createUpstreamRevocation(deps);
  const creatorActor = (connection: Pick<Connection, "endUserId" | "owner">) =>
    connection.endUserId !== null ? { type: "end_user" as const, id: connection.endUserId } : operatorActor(connection.owner);

  function checkRedirectAfter(value: string | undefined) {
    if (value === undefined) return;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new BrokerError("invalid_request", "redirect_after must be an absolute URL", { fields: [{ location: "body", field: "/redirect_after", message: "is not a URL" }] });
    }
    const allowed = deps.production ? url.protocol === "https:" : url.protocol === "https:" || url.protocol === "http:";
    if (!allowed) throw new BrokerError("invalid_request", `redirect_after must use ${deps.production ? "https" : "http or https"}`, { fields: [{ location: "body", field: "/redirect_after", message: "bad scheme" }] });
  }

  async function completeExchange(provider: ResolvedProvider, state: string, verifier: string, params: URLSearchParams) {
    try {
      return await deps.oauthClient.exchangeCode(provider, { callbackParams: params, state, verifier, redirectUri });
    } catch (error) {
      if (error instanceof UpstreamOAuthError && error.providerFailed) {
        throw new BrokerError("upstream_error", "the provider's token endpoint did not answer with tokens", { reason: "token_endpoint" });
      }
      if (error instanceof UpstreamOAuthError) {
        throw oauthError("oauth_exchange_failed", `the provider refused the authorization code (${error.error})`, { upstream_error: error.error });
      }
      throw new BrokerError("upstream_error", "the provider's token endpoint could not be reached", { reason: "network" });
    }
  }

  /** The provider moved while the flow was under way: its code and verifier go nowhere else. */
  function assertSameOrigins(state: { token_origin: string | null; api_origin: string | null }, provider: ResolvedProvider) {
    if (state.api_origin === null) return;
    const change = originChange({ token: state.token_origin, api: state.api_origin }, flowOriginsOf(provider), "oauth2");
    if (change) throw oauthError("oauth_state_invalid", "the provider's address changed while this connection was under way; nothing was sent to it; start the connection again", { reason: "origin_changed", ...describeChange(change) });
  }

  /** Admins see every connection of the tenant; other members only those they connected. */
  const visibleOwner = (operator: OperatorContext): Owner | undefined => (operator.role === "admin" ? undefined : operator);

  /** Stores a single-use state (sealed PKCE verifier) and answers the provider's authorize URL. */
  async function beginOAuth(initiator: ConnectInitiator, input: StartInput) {
    // The tenant's own OAuth app for this provider and env, when it has one; else the broker-wide client.
    const { provider, oauthAppId } = await deps.oauthApps.forConnect(initiator.tenantId, input.env ?? "test", input.provider);
    const { oauth } = requireOAuthClient(provider);
    // Checked before the person leaves for the provider: a typo is a 422 here, not a failed connect.
    const typedIn = checkConnectInputs(provider, input.connection_values);
    const scopes = input.scopes?.length ? input.scopes : oauth.defaultScopes;
    const { verifier, challenge } = await deps.oauthClient.generatePkce();
    const state = deps.oauthClient.generateState();
    const stateHash = hashState(state);
    const startedWith = flowOriginsOf(provider);
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + OAUTH_STATE_TTL_MS).toISOString();
    await queries.deleteStatesExpiredBefore(new Date(now.getTime() - OAUTH_STATE_TTL_MS).toISOString());
    await queries.insertState({
      state_hash: stateHash,
      tenant_id: initiator.tenantId,
      owner_issuer: initiator.owner.issuer,
      owner_subject: initiator.owner.subject,
      env: input.env ?? "test",
      provider: provider.id,
      scopes: JSON.stringify(scopes),
      redirect_after: input.redirect_after ?? null,
      code_verifier_sealed: await vault.seal({ tenantId: initiator.tenantId, table: "oauth_states", rowId: stateHash, field: "code_verifier" }, verifier),
      created_at: now.toISOString(),
      expires_at: expiresAt,
      consumed_at: null,
      end_user_id: initiator.endUserId,
      label: initiator.label,
      connect_session_id: initiator.connectSessionId,
      oauth_app_id: oauthAppId,
      token_origin: startedWith.token,
      api_origin: startedWith.api,
      connection_values: Object.keys(typedIn).length ? JSON.stringify(typedIn) : null,
    });
    return { authorize_url: deps.oauthClient.authorizeUrl(provider, { state, challenge, redirectUri, scopes }), state, expires_at: expiresAt };
  }

  return {
    providerName: async (tenantId: string, id: string) => (await deps.catalogue.view({ tenantId })).providers.get(id).displayName,

    start(operator: OperatorContext, input: StartInput) {
      checkRedirectAfter(input.redirect_after);
      return beginOAuth({ tenantId: operator.tenantId, owner: operator, endUserId: null, label: null, connectSessionId: null }, input);
    },

    /** A connect session's start (its redirect URL already checked): the connection will belong to the session's end user. */
    startForEndUser: (initiator: ConnectInitiator, input: { provider: string; env: TestOrLive; redirect_after?: string; connection_values?: Record<string, string> }) => beginOAuth(initiator, input),

    /**
     * Handles the browser's return from the provider. Stores nothing unless every check passes. A
     * flow started from a connect page must come back to the browser that started it.
     */
    async complete(params: URLSearchParams, isBoundBrowser: (state: string) => boolean): Promise<CompletedConnect> {
      const state = params.get("state");
      if (!state) throw oauthError("oauth_state_invalid", "the callback carries no state");
      // The provider sends back a code or an error; a callback with neither is not one of its answers
      // (and without a code there is nothing to exchange), so it does not spend the state either.
      if (!params.get("code") && !params.get("error")) {
        throw new BrokerError("invalid_request", "the callback carries neither an authorization code nor an error", {
          fields: [{ location: "querystring", field: "/code", message: "is required when there is no error" }],
        });
      }
      const stateHash = hashState(state);
      const row = await queries.findState(stateHash);
      if (!row) throw oauthError("oauth_state_invalid", "unknown OAuth state; start the connection again");
      if (row.connect_session_id !== null && !isBoundBrowser(state)) {
        throw oauthError("oauth_state_invalid", "this connection was started in another browser; open the connect link again in this one");
      }
      const now = clock.now();
      if (!(await queries.consumeState(stateHash, now.toISOString()))) {
        throw oauthError("oauth_state_invalid", "this OAuth state was already used; start the connection again");
      }
      if (row.expires_at <= now.toISOString()) throw oauthError("oauth_state_expired", "the OAuth state expired; start the connection again");
      const upstreamError = params.get("error");
      if (upstreamError) {
        throw oauthError("oauth_denied", `the provider returned an error: ${upstreamError}`, { upstream_error: upstreamError });
      }
      const provider = await deps.oauthApps.forIssuer(row.tenant_id, row.provider, row.oauth_app_id);
      requireOAuthClient(provider);
      assertSameOrigins(row, provider);
      const verifier = await vault.open({ tenantId: row.tenant_id, table: "oauth_states", rowId: stateHash, field: "code_verifier" }, row.code_verifier_sealed);
      const { tokens, raw } = await completeExchange(provider, state, verifier, params);

      // The values the API base URL needs, before anything is sent to it (the identity read included).
      const typedIn = row.connection_values ? (JSON.parse(row.connection_values) as StoredConnectionValues) : {};
      const connectionValues = await valuesAtConnect(provider, { typedIn, tokenResponse: raw, accessToken: tokens.accessToken }, deps.upstream).catch(async (error: unknown) => {
        await deps.oauthClient.revoke(provider, tokens.accessToken);
        throw error instanceof BrokerError ? error : new BrokerError("upstream_error", "the provider's API could not be reached for the connection's values", { reason: "connection_value" });
      });
      const apiBaseUrl = resolveApiBase(provider, plainValues(connectionValues));
      const presented = provider.presentCredential({ kind: "oauth2", secret: tokens.accessToken });
      const api = (req: Parameters<UpstreamClient["send"]>[1]) =>
        deps.upstream.send(
          apiBaseUrl,
          { ...req, headers: { ...provider.apiHeaders, ...presented.headers, ...req.headers }, query: { ...req.query, ...presented.query } },
          { guarded: provider.tenantDefined === true },
        );
      const identity = await provider.fetchIdentity(api, raw).catch(async () => {
        // Nothing will be stored, so the grant just issued must not stay live at the provider.
        await deps.oauthClient.revoke(provider, tokens.accessToken);
        throw new BrokerError("upstream_error", "the provider did not tell who the connected account is", { reason: "identity" });
      });

      const id = randomUUID();
      const sealed = await sealTokens(vault, row.tenant_id, id, tokens);
      const at = now.toISOString();
      const connection: Connection = {
        id,
        tenantId: row.tenant_id,
        env: row.env,
        provider: provider.id,
        status: "active",
        owner: { issuer: row.owner_issuer, subject: row.owner_subject },
        displayName: identity.displayName,
        upstreamAccountId: identity.accountId,
        credentialSealed: sealed,
        createdAt: at,
        updatedAt: at,
        lastUsedAt: null,
        revokedAt: null,
        upstreamRevocation: null,
        endUserId: row.end_user_id,
        label: row.label,
        oauthAppId: row.oauth_app_id,
        // The tokens will only ever go to where they were just issued (providers/credential-origins.ts).
        origins: originsOf(provider, plainValues(connectionValues)),
        reconnectReason: null,
        refreshStartedAt: null,
        connectionValues,
      };
      if (!(await storeNew(connection, row.connect_session_id, stateHash))) {
        // The flow was dropped while the code was exchanged (its end user deleted): the grant goes too.
        await deps.oauthClient.revoke(provider, tokens.accessToken);
        throw flowDropped(row.end_user_id);
      }
      return { connectionId: id, tenantId: row.tenant_id, provider: provider.id, displayName: identity.displayName, redirectAfter: row.redirect_after, connectSessionId: row.connect_session_id };
    },

    /** Admins see every connection of the tenant; other members only those they connected. */
    async list(operator: OperatorContext, filter: ListFilter) {
      const after = filter.cursor ? decodeCursor<{ c: string; i: string }>(filter.cursor, ["c", "i"]) : undefined;
      if (after && (typeof after.c !== "string" || typeof after.i !== "string")) throw invalidCursor();
      const connections = await queries.list(operator.tenantId, {
        ...filter,
        // Connections are stored under the canonical id: a filter by alias (`github`) finds `scm`'s.
        ...(filter.provider ? { provider: canonicalProviderId(filter.provider) } : {}),
        owner: visibleOwner(operator),
        after: after && { createdAt: after.c, id: after.i },
        limit: filter.limit + 1,
      });
      const page = connections.slice(0, filter.limit);
      const last = page.at(-1);
      return {
        data: await Promise.all(page.map((connection) => present(connection))),
        next_cursor: connections.length > filter.limit && last ? encodeCursor({ c: last.createdAt, i: last.id }) : null,
      };
    },

    async get(operator: OperatorContext, id: string) {
      return present(await findVisible(operator, id));
    },

    async setLabel(operator: OperatorContext, id: string, label: string | null) {
      const connection = await findVisible(operator, id);
      const at = clock.now().toISOString();
      await queries.updateLabel(id, label, at);
      deps.cache.invalidate(id);
      return present({ ...connection, label, updatedAt: at });
    },

    /**
     * Revokes every connection of one end user (their "delete my account"); returns how many.
     * Flows still under way for them are dropped first, so none can complete afterwards.
     */
    async revokeAllOfEndUser(tenantId: string, endUserId: string, actor: AuditActor): Promise<number> {
      await queries.deleteStatesOfEndUser(tenantId, endUserId);
      const connections = await queries.listLiveOfEndUser(tenantId, endUserId);
      for (const connection of connections) await revokeConnection(connection.tenantId, connection.id, actor, undefined);
      return connections.length;
    },

    revoke: (operator: OperatorContext, id: string) => revokeConnection(operator.tenantId, id, operatorActor(operator), visibleOwner(operator)),
  };

  /**
   * The new connection, its audit event and `connection.created`, in one transaction, provided the
   * flow's state still exists (see `holdState`); false, storing nothing, once it does not.
   */
  async function storeNew(connection: Connection, connectSessionId: string | null, stateHash: string): Promise<boolean> {
    const { id, tenantId, provider, env, endUserId, displayName } = connection;
    return store.transaction(async (trx) => {
      if (!(await queries.holdState(stateHash, trx))) return false;
      await queries.insertConnection(connection, trx);
      await deps.audit.appendIn({
        tenantId,
        actor: creatorActor(connection),
        action: "connection.created",
        target: { type: "connection", id },
        endUserId,
        data: { provider, env, display_name: displayName, ...(connectSessionId ? { connect_session_id: connectSessionId } : {}) },
      }, trx);
      await deps.events.emitIn({
        tenantId,
        type: "connection.created",
        data: { connected_account_id: id, provider, env, end_user_id: endUserId, label: connection.label, display_name: displayName, created_at: connection.createdAt },
      }, trx);
      return true;
    });
  }

  async function findVisible(operator: OperatorContext, id: string) {
    const connection = await queries.find(operator.tenantId, id, visibleOwner(operator));
    if (!connection) throw notFound("connection");
    return connection;
  }

  async function revokeConnection(tenantId: string, id: string, actor: AuditActor, owner: Owner | undefined) {
    // A refresh may store new tokens while the old ones are being revoked upstream; the row is
    // revoked only over the credential that was revoked, so such new tokens are revoked next round.
    for (let round = 0; round < REVOKE_ROUNDS; round += 1) {
      const connection = await queries.find(tenantId, id, owner);
      if (!connection) throw notFound("connection");
      if (connection.status === "revoked") return present(connection);
      const upstream = await upstreamRevocation.revoke(connection);
      const at = clock.now().toISOString();
      const revoked = await store.transaction((trx) => recordRevocation(trx, connection, actor, upstream, at));
      // After the commit: invalidating earlier lets a concurrent read cache the connection as it was.
      deps.cache.invalidate(id);
      if (revoked) return present({ ...connection, status: "revoked", credentialSealed: null, revokedAt: at, updatedAt: at, upstreamRevocation: upstream.outcome });
    }
    throw new BrokerError("conflict", "the connection's credential kept changing while it was being revoked; try again");
  }

  /** False when the stored credential changed since it was revoked upstream (see markRevoked). */
  async function recordRevocation(trx: Tx, connection: Connection, actor: AuditActor, upstream: UpstreamRevocationAttempt, at: string): Promise<boolean> {
    const { id, tenantId, provider, env, endUserId } = connection;
    if (!(await queries.markRevoked(id, connection.credentialSealed, at, upstream.outcome, trx))) return false;
    await deps.audit.appendIn({
      tenantId,
      actor,
      action: "connection.revoked",
      target: { type: "connection", id },
      endUserId,
      data: { provider, env, upstream_revocation: upstream.outcome, ...(upstream.notSent ? { upstream_revocation_not_sent: upstream.notSent } : {}) },
    }, trx);
    await deps.events.emitIn({
      tenantId,
      type: "connection.revoked",
      data: { connected_account_id: id, provider, env, display_name: connection.displayName, end_user_id: endUserId, label: connection.label, revoked_at: at },
    }, trx);
    return true;
  }

  async function present(connection: Connection) {
    // Scopes live inside the sealed bundle; a revoked connection has none left to show.
    const scopes = connection.credentialSealed ? (await openTokens(vault, connection)).scopes : [];
    return {
      connected_account_id: connection.id,
      provider: connection.provider,
      env: connection.env,
      status: connection.status,
      display_name: connection.displayName,
      scopes,
      created_at: connection.createdAt,
      last_used_at: connection.lastUsedAt,
      revoked_at: connection.revokedAt,
      upstream_revocation: connection.upstreamRevocation,
      end_user_id: connection.endUserId,
      label: connection.label,
      reconnect_reason: connection.status === "expired" ? connection.reconnectReason : null,
      connection_values: connection.connectionValues,
    };
  }
}

export type ConnectionService = ReturnType<typeof createConnectionService>;
