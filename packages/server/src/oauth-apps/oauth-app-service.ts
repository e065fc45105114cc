/**
 * Tenants' own OAuth apps: a tenant may connect accounts of a provider through its own
 * (branded) OAuth client instead of the broker-wide one, per env. The secret is sealed and never
 * shown again (only its last four characters); an app that is replaced or removed stays stored,
 * because the connections it issued refresh and revoke with the client that issued them.
 */
import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { TestOrLive } from "../ids.js";
import type { ResolvedProvider, ScopedProviders } from "../providers/catalogue.js";
import type { Executor, Store } from "../store/database.js";
import type { Vault } from "../vault/vault.js";
import type { OAuthAppQueries, OAuthAppRow } from "./oauth-app-queries.js";

export type OAuthAppInput = { env: TestOrLive; client_id: string; client_secret: string };
export type OAuthAppView = { provider: string; env: TestOrLive; client_id: string; client_secret_hint: string | null; created_at: string };

type OAuthAppDeps = {
  store: Store;
  queries: OAuthAppQueries;
  vault: Pick<Vault, "seal" | "open">;
  catalogue: ScopedProviders;
  audit: Pick<AuditLog, "appendIn">;
  clock: Clock;
};

/** The last four characters, only of a secret long enough that they give nothing away. */
const hintOf = (secret: string) => (secret.length >= MIN_SECRET_LENGTH_FOR_HINT ? secret.slice(-4) : null);
const MIN_SECRET_LENGTH_FOR_HINT = 16;

const isUniqueViolation = (error: unknown) => ["23505", "SQLITE_CONSTRAINT_UNIQUE"].includes(String((error as { code?: unknown } | null)?.code));

const viewOf = (row: OAuthAppRow): OAuthAppView => ({
  provider: row.provider,
  env: row.env,
  client_id: row.client_id,
  client_secret_hint: row.client_secret_hint,
  created_at: row.created_at,
});

export function createOAuthAppService({ store, queries, vault, catalogue, audit, clock }: OAuthAppDeps) {
  const providerOf = async (tenantId: string, providerId: string, env?: TestOrLive) => (await catalogue.view({ tenantId, env })).providers.get(providerId);

  const secretContext = (row: Pick<OAuthAppRow, "tenant_id" | "id">) => ({ tenantId: row.tenant_id, table: "oauth_apps", rowId: row.id, field: "client_secret" });

  /** The provider as this app sees it: its client instead of the broker-wide one. */
  async function withApp(provider: ResolvedProvider, row: OAuthAppRow): Promise<ResolvedProvider> {
    const clientSecret = await vault.open(secretContext(row), row.client_secret_sealed);
    return { ...provider, client: { clientId: row.client_id, clientSecret }, missing: [] };
  }

  async function oauthProvider(tenantId: string, providerId: string): Promise<ResolvedProvider> {
    const provider = await providerOf(tenantId, providerId);
    if (!provider.oauth) throw new BrokerError("unprocessable", `provider "${providerId}" connects with API keys, not OAuth: it has no OAuth client`);
    return provider;
  }

  async function replace(key: { tenantId: string; env: TestOrLive; provider: string }, input: OAuthAppInput, actor: AuditActor): Promise<OAuthAppView> {
    const now = clock.now().toISOString();
    const id = randomUUID();
    // Sealed before the transaction: the vault may create the tenant's data key in its own statement.
    const sealed = await vault.seal(secretContext({ tenant_id: key.tenantId, id }), input.client_secret);
    const row: OAuthAppRow = {
      id,
      tenant_id: key.tenantId,
      env: key.env,
      provider: key.provider,
      client_id: input.client_id,
      client_secret_sealed: sealed,
      client_secret_hint: hintOf(input.client_secret),
      status: "current",
      created_at: now,
      retired_at: null,
    };
    await store.transaction(async (trx) => {
      const replaced = await queries.retireCurrent(key, "replaced", now, trx);
      await queries.insert(row, trx);
      await audit.appendIn({
        tenantId: key.tenantId,
        actor,
        action: "oauth_app.set",
        target: { type: "oauth_app", id },
        data: { provider: key.provider, env: key.env, client_id: input.client_id, replaced },
      }, trx);
    });
    return viewOf(row);
  }

  async function rotateSecret(row: OAuthAppRow, secret: string, actor: AuditActor): Promise<OAuthAppView> {
    const rotated = { ...row, client_secret_sealed: await vault.seal(secretContext(row), secret), client_secret_hint: hintOf(secret) };
    await store.transaction(async (trx) => {
      await queries.replaceSecret(row.id, rotated.client_secret_sealed, rotated.client_secret_hint, trx);
      await audit.appendIn({
        tenantId: row.tenant_id,
        actor,
        action: "oauth_app.secret_rotated",
        target: { type: "oauth_app", id: row.id },
        data: { provider: row.provider, env: row.env, client_id: row.client_id },
      }, trx);
    });
    return viewOf(rotated);
  }

  async function current(tenantId: string, providerId: string, env: TestOrLive): Promise<OAuthAppRow> {
    const row = await queries.findCurrent({ tenantId, env, provider: (await oauthProvider(tenantId, providerId)).id });
    if (!row) throw notFound(`an OAuth app of this tenant for "${providerId}" in env ${env}`);
    return row;
  }

  return {
    /**
     * Sets the tenant's app for a provider and env. Another client id replaces it (connections made
     * before keep theirs); the same client id with a new secret is a rotation of that app, which the
     * connections it issued use from then on.
     */
    async put(tenantId: string, providerId: string, input: OAuthAppInput, actor: AuditActor): Promise<OAuthAppView> {
      const provider = await oauthProvider(tenantId, providerId);
      const key = { tenantId, env: input.env, provider: provider.id };
      for (let attempt = 1; ; attempt += 1) {
        try {
          const existing = await queries.findCurrent(key);
          return existing?.client_id === input.client_id ? await rotateSecret(existing, input.client_secret, actor) : await replace(key, input, actor);
        } catch (error) {
          // A concurrent PUT made its app current first: do it again on top of that one.
          if (!isUniqueViolation(error)) throw error;
          if (attempt === 3) throw new BrokerError("conflict", "the OAuth app was changed at the same time; try again", { reason: "concurrent_change" });
        }
      }
    },

    get: async (tenantId: string, providerId: string, env: TestOrLive) => viewOf(await current(tenantId, providerId, env)),

    /** Every provider's current app of the tenant at once (the console's readiness, without one 404 per provider that has none). */
    list: async (tenantId: string, env?: TestOrLive) => (await queries.listCurrent(tenantId, env)).map(viewOf),

    /** Connects fall back to the broker-wide client; existing connections keep refreshing with this app. */
    async remove(tenantId: string, providerId: string, env: TestOrLive, actor: AuditActor): Promise<void> {
      const row = await current(tenantId, providerId, env);
      await store.transaction(async (trx) => {
        await queries.retireCurrent({ tenantId, env, provider: row.provider }, "removed", clock.now().toISOString(), trx);
        await audit.appendIn({ tenantId, actor, action: "oauth_app.removed", target: { type: "oauth_app", id: row.id }, data: { provider: row.provider, env } }, trx);
      });
    },

    /** Whether connects of this tenant and env run with its own app (so no broker-wide client is needed). */
    hasOwnApp: async (tenantId: string, env: TestOrLive, providerId: string) => (await queries.findCurrent({ tenantId, env, provider: providerId })) !== undefined,

    /** The provider a new connect of this tenant and env runs with, and the app's id when it is the tenant's own. */
    async forConnect(tenantId: string, env: TestOrLive, providerId: string): Promise<{ provider: ResolvedProvider; oauthAppId: string | null }> {
      const provider = await providerOf(tenantId, providerId, env);
      const row = provider.oauth ? await queries.findCurrent({ tenantId, env, provider: provider.id }) : undefined;
      return row ? { provider: await withApp(provider, row), oauthAppId: row.id } : { provider, oauthAppId: null };
    },

    /** The provider as the client that issued a connection's tokens sees it (for the code exchange, refresh and revocation). */
    async forIssuer(tenantId: string, providerId: string, oauthAppId: string | null, db?: Executor): Promise<ResolvedProvider> {
      const provider = await providerOf(tenantId, providerId);
      if (oauthAppId === null) return provider;
      const row = await queries.find(tenantId, oauthAppId, db);
      // Only deleting the tenant removes an app, and its connections with it.
      if (!row) throw new BrokerError("connection_unusable", "the OAuth app that issued this connection no longer exists; reconnect the account");
      return withApp(provider, row);
    },
  };
}

export type OAuthAppService = ReturnType<typeof createOAuthAppService>;
