/**
 * Connecting SaaS accounts: the OAuth start/callback pair, the operator's list, and revocation.
 * Callers only ever see a `connected_account_id`; tokens stay sealed in the vault.
 */
import { createHash, randomUUID } from "node:crypto";
import type { AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { EventOutbox } from "../events/event-outbox.js";
import type { Env } from "../ids.js";
import type { ProviderCatalogue, ResolvedProvider } from "../providers/catalogue.js";
import type { UpstreamClient } from "../providers/upstream-client.js";
import type { Store } from "../store/database.js";
import type { Vault } from "../vault/vault.js";
import { openTokens, sealTokens } from "./credential-bundle.js";
import type { ConnectionCache } from "./connection-cache.js";
import type { ConnectionQueries, ConnectionRow, Owner } from "./connection-queries.js";
import { UpstreamOAuthError, type OAuthClient } from "./oauth-client.js";

export const OAUTH_STATE_TTL_MS = 10 * 60_000;
export const CALLBACK_PATH = "/v1/connections/oauth/callback";

export type OperatorContext = { tenantId: string } & Owner;
export type StartInput = { provider: string; env?: Env; scopes?: string[]; redirect_after?: string };

type ConnectionServiceDeps = {
  cache: Pick<ConnectionCache, "invalidate">;
  store: Pick<Store, "db">;
  queries: ConnectionQueries;
  vault: Pick<Vault, "seal" | "open" | "status">;
  oauthClient: OAuthClient;
  providers: ProviderCatalogue;
  upstream: UpstreamClient;
  audit: Pick<AuditLog, "appendIn">;
  events: Pick<EventOutbox, "emitIn">;
  clock: Clock;
  publicUrl: string;
  production: boolean;
};

const hashState = (state: string) => createHash("sha256").update(state).digest("hex");
const oauthError = (code: "oauth_state_invalid" | "oauth_state_expired" | "oauth_denied" | "oauth_exchange_failed", message: string, details?: Record<string, unknown>) =>
  new BrokerError(code, message, details);

export function createConnectionService(deps: ConnectionServiceDeps) {
  const { store, queries, vault, clock } = deps;
  const redirectUri = `${deps.publicUrl}${CALLBACK_PATH}`;
  const operatorActor = (op: Owner) => ({ type: "operator" as const, id: `${op.issuer}|${op.subject}` });

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

  return {
    async start(operator: OperatorContext, input: StartInput) {
      const provider = deps.providers.get(input.provider);
      const { oauth } = deps.providers.requireOAuthClient(provider);
      checkRedirectAfter(input.redirect_after);
      const scopes = input.scopes?.length ? input.scopes : oauth.defaultScopes;
      const { verifier, challenge } = await deps.oauthClient.generatePkce();
      const state = deps.oauthClient.generateState();
      const stateHash = hashState(state);
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + OAUTH_STATE_TTL_MS).toISOString();
      await queries.deleteStatesExpiredBefore(store.db, new Date(now.getTime() - OAUTH_STATE_TTL_MS).toISOString());
      await queries.insertState(store.db, {
        state_hash: stateHash,
        tenant_id: operator.tenantId,
        owner_issuer: operator.issuer,
        owner_subject: operator.subject,
        env: input.env ?? "test",
        provider: provider.id,
        scopes: JSON.stringify(scopes),
        redirect_after: input.redirect_after ?? null,
        code_verifier_sealed: await vault.seal({ tenantId: operator.tenantId, table: "oauth_states", rowId: stateHash, field: "code_verifier" }, verifier),
        created_at: now.toISOString(),
        expires_at: expiresAt,
        consumed_at: null,
      });
      return { authorize_url: deps.oauthClient.authorizeUrl(provider, { state, challenge, redirectUri, scopes }), state, expires_at: expiresAt };
    },

    /** Handles the browser's return from the provider. Stores nothing unless every check passes. */
    async complete(params: URLSearchParams): Promise<{ connectionId: string; redirectAfter: string | null }> {
      const state = params.get("state");
      if (!state) throw oauthError("oauth_state_invalid", "the callback carries no state");
      const stateHash = hashState(state);
      const row = await queries.findState(store.db, stateHash);
      if (!row) throw oauthError("oauth_state_invalid", "unknown OAuth state; start the connection again");
      const now = clock.now();
      if (!(await queries.consumeState(store.db, stateHash, now.toISOString()))) {
        throw oauthError("oauth_state_invalid", "this OAuth state was already used; start the connection again");
      }
      if (row.expires_at <= now.toISOString()) throw oauthError("oauth_state_expired", "the OAuth state expired; start the connection again");
      const upstreamError = params.get("error");
      if (upstreamError) {
        throw oauthError("oauth_denied", `the provider returned an error: ${upstreamError}`, { upstream_error: upstreamError });
      }
      const provider = deps.providers.get(row.provider);
      deps.providers.requireOAuthClient(provider);
      const verifier = await vault.open({ tenantId: row.tenant_id, table: "oauth_states", rowId: stateHash, field: "code_verifier" }, row.code_verifier_sealed);
      const { tokens, raw } = await completeExchange(provider, state, verifier, params);

      const api = (req: Parameters<UpstreamClient["send"]>[1]) =>
        deps.upstream.send(provider.apiBaseUrl, { ...req, headers: { ...provider.apiHeaders, authorization: provider.authorizationHeader({ kind: "oauth2", secret: tokens.accessToken }), ...req.headers } });
      const identity = await provider.fetchIdentity(api, raw).catch(async () => {
        // Nothing will be stored, so the grant just issued must not stay live at the provider.
        await deps.oauthClient.revoke(provider, tokens.accessToken);
        throw new BrokerError("upstream_error", "the provider did not tell who the connected account is", { reason: "identity" });
      });

      const id = randomUUID();
      const sealed = await sealTokens(vault, row.tenant_id, id, tokens);
      const at = now.toISOString();
      const connection: ConnectionRow = {
        id,
        tenant_id: row.tenant_id,
        env: row.env,
        provider: provider.id,
        status: "active",
        owner_issuer: row.owner_issuer,
        owner_subject: row.owner_subject,
        display_name: identity.displayName,
        upstream_account_id: identity.accountId,
        credential_sealed: sealed,
        created_at: at,
        updated_at: at,
        last_used_at: null,
        revoked_at: null,
        upstream_revocation: null,
      };
      await store.db.transaction().execute(async (trx) => {
        await queries.insertConnection(trx, connection);
        await deps.audit.appendIn(trx, {
          tenantId: row.tenant_id,
          actor: operatorActor({ issuer: row.owner_issuer, subject: row.owner_subject }),
          action: "connection.created",
          target: { type: "connection", id },
          data: { provider: provider.id, env: row.env, display_name: identity.displayName },
        });
      });
      return { connectionId: id, redirectAfter: row.redirect_after };
    },

    async list(operator: OperatorContext) {
      const rows = await queries.listOwned(store.db, operator.tenantId, operator);
      return Promise.all(rows.map((row) => present(row)));
    },

    async get(operator: OperatorContext, id: string) {
      const row = await queries.findOwned(store.db, operator.tenantId, operator, id);
      if (!row) throw notFound("connection");
      return present(row);
    },

    async revoke(operator: OperatorContext, id: string) {
      const row = await queries.findOwned(store.db, operator.tenantId, operator, id);
      if (!row) throw notFound("connection");
      if (row.status === "revoked") return present(row);
      let upstreamRevocation: "revoked" | "failed" | "unsupported" = "unsupported";
      if (row.credential_sealed) {
        const tokens = await openTokens(vault, row).catch((error: unknown) => {
          // With the vault itself down (wrong or missing master key, failing storage) change
          // nothing: the grant can still be revoked upstream once it is back. A single
          // unreadable ciphertext, though, is worthless and goes.
          if (vault.status().status === "degraded") throw error;
          return undefined;
        });
        upstreamRevocation = tokens ? await deps.oauthClient.revoke(deps.providers.get(row.provider), tokens.accessToken) : "failed";
      }
      const at = clock.now().toISOString();
      await store.db.transaction().execute(async (trx) => {
        await queries.markRevoked(trx, id, at, upstreamRevocation);
        deps.cache.invalidate(id);
        await deps.audit.appendIn(trx, {
          tenantId: row.tenant_id,
          actor: operatorActor(operator),
          action: "connection.revoked",
          target: { type: "connection", id },
          data: { provider: row.provider, env: row.env, upstream_revocation: upstreamRevocation },
        });
        await deps.events.emitIn(trx, {
          tenantId: row.tenant_id,
          type: "connection.revoked",
          data: { connected_account_id: id, provider: row.provider, env: row.env, display_name: row.display_name, revoked_at: at },
        });
      });
      return present({ ...row, status: "revoked", credential_sealed: null, revoked_at: at, updated_at: at, upstream_revocation: upstreamRevocation });
    },
  };

  async function present(row: ConnectionRow) {
    // Scopes live inside the sealed bundle; a revoked connection has none left to show.
    const scopes = row.credential_sealed ? (await openTokens(vault, row)).scopes : [];
    return {
      connected_account_id: row.id,
      provider: row.provider,
      env: row.env,
      status: row.status,
      display_name: row.display_name,
      scopes,
      created_at: row.created_at,
      last_used_at: row.last_used_at,
      revoked_at: row.revoked_at,
      upstream_revocation: row.upstream_revocation,
    };
  }
}

export type ConnectionService = ReturnType<typeof createConnectionService>;
