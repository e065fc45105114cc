/**
 * Connect sessions: a customer backend (or an operator) lets one of its end users connect their
 * own accounts through a hosted page, without an operator session. The session's token is the
 * only capability the page needs; it is stored hashed and lives 30 minutes. A session may connect
 * each allowed provider any number of times (several accounts).
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { AuditActor } from "../audit/audit-log.js";
import type { OAuthAppService } from "../oauth-apps/oauth-app-service.js";
import type { Clock } from "../clock.js";
import type { Owner } from "../connections/connection-queries.js";
import type { ConnectionService } from "../connections/connection-service.js";
import { connectInputsOf } from "../providers/connection-values.js";
import { BrokerError, notFound } from "../errors.js";
import type { TestOrLive } from "../ids.js";
import type { ControlKeyService } from "../keys/control-key-service.js";
import type { ResolvedProvider, ScopedProviders } from "../providers/catalogue.js";
import type { SecretItemService } from "../secrets/secret-item-service.js";
import { isLoopbackHostname } from "../shared/loopback.js";
import type { ConnectSessionQueries, ConnectSessionRow } from "./connect-session-queries.js";
import { scopesInWords } from "./scope-words.js";

export const CONNECT_SESSION_TTL_MS = 30 * 60_000;
const TOKEN_PREFIX = "cs_";

export type ConnectSessionInput = { end_user_id: string; providers?: string[] | undefined; redirect_url?: string | undefined; label?: string | undefined };

/** Who creates the session: its env and the identity recorded as the connections' creator. */
export type SessionCreator = { tenantId: string; env: TestOrLive; actor: AuditActor; owner: Owner };

/** How a provider can be connected on the page, and where its OAuth flow goes (the page's forms may lead there). */
/** A value the page asks for before connecting (the provider's `connect_input` connection values, e.g. a Zendesk subdomain). */
export type ConnectInput = { name: string; label: string; description: string | undefined };
/** A scope the provider's OAuth flow asks for, and what it lets the application do, in plain words when known. */
export type ScopeInWords = { scope: string; words: string | undefined };
export type ConnectOption = {
  id: string;
  displayName: string;
  /** The catalogue's icon when it is a data: image (an https icon would make the end user's browser fetch it). */
  icon: string | undefined;
  oauth: boolean;
  apiKey: boolean;
  authorizeOrigin: string | null;
  inputs: ConnectInput[];
  /** What the OAuth flow asks for (its default scopes); empty for an API-key-only provider. */
  scopes: ScopeInWords[];
};

export type OpenSession = { row: ConnectSessionRow; options: ConnectOption[] };

type ConnectSessionDeps = {
  queries: ConnectSessionQueries;
  catalogue: ScopedProviders;
  connections: Pick<ConnectionService, "startForEndUser">;
  secretItems: Pick<SecretItemService, "createForEndUser">;
  controlKeys: Pick<ControlKeyService, "isActive">;
  oauthApps: Pick<OAuthAppService, "hasOwnApp">;
  clock: Clock;
  publicUrl: string;
};

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");
const fieldError = (field: string, message: string) =>
  new BrokerError("invalid_request", `${field.slice(1)} ${message}`, { fields: [{ location: "body", field, message }] }, { status: 422 });

/** https anywhere; plain http only to this machine (a desktop or CLI app listening on loopback). */
export function isAllowedRedirect(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && isLoopbackHostname(url.hostname);
}

const creatorTypeOf = (actor: AuditActor): ConnectSessionRow["created_by_type"] => {
  if (actor.type === "operator" || actor.type === "control_key") return actor.type;
  throw new Error(`a connect session cannot be created by ${actor.type}`);
};

export function createConnectSessionService(deps: ConnectSessionDeps) {
  const { queries, clock } = deps;

  /** How a tenant connects a provider in an env: OAuth needs a client, the broker-wide one or the tenant's own. */
  async function optionOf(provider: ResolvedProvider, tenantId: string, env: TestOrLive): Promise<ConnectOption> {
    const hasClient = provider.client !== undefined || (provider.oauth !== undefined && (await deps.oauthApps.hasOwnApp(tenantId, env, provider.id)));
    const oauth = provider.oauth !== undefined && hasClient;
    const authorizeOrigin = oauth ? new URL(provider.oauth!.authorizeUrl).origin : null;
    const inputs = connectInputsOf(provider).map(([name, spec]) => ({ name, label: spec.label, description: spec.description }));
    const icon = provider.icon?.startsWith("data:image/") ? provider.icon : undefined;
    const scopes = oauth ? scopesInWords(provider.id, provider.oauth!.defaultScopes) : [];
    return { id: provider.id, displayName: provider.displayName, icon, oauth, apiKey: provider.authModes.includes("api_key"), authorizeOrigin, inputs, scopes };
  }
  const connectable = (option: ConnectOption) => option.oauth || option.apiKey;

  async function allowedProviders(creator: SessionCreator, requested: string[] | undefined): Promise<string[]> {
    const { providers } = await deps.catalogue.view({ tenantId: creator.tenantId, env: creator.env });
    const options = await Promise.all(providers.list().map((provider) => optionOf(provider, creator.tenantId, creator.env)));
    if (!requested) return options.filter(connectable).map((option) => option.id);
    const known = options.map((option) => option.id);
    // A provider alias (`github`) names its built-in provider; the session keeps the canonical id.
    requested = requested.map((id) => (known.includes(id) ? id : providers.canonicalId(id)));
    requested.forEach((id, index) => {
      if (!known.includes(id)) throw fieldError(`/providers/${index}`, `is not a provider; known providers: ${known.join(", ")}`);
      if (!connectable(options.find((option) => option.id === id)!)) {
        throw new BrokerError("provider_not_configured", `provider "${id}" cannot be connected: its OAuth client is not configured`, { provider: id });
      }
    });
    return [...new Set(requested)];
  }

  /**
   * A session dies with the control key that made it: revoking a leaked key stops its links too.
   * Links that agent apps made (earlier versions handed them to MCP agents) are dead: an agent
   * holding one could attach a credential of its choosing to its end user.
   */
  async function creatorIsActive(row: ConnectSessionRow): Promise<boolean> {
    if (row.created_by_type === "control_key") return deps.controlKeys.isActive(row.tenant_id, row.created_by_id);
    return row.created_by_type === "operator";
  }

  /** The session behind a token, if it is still usable. Unknown tokens are 404; expired ones 410. */
  async function open(token: string): Promise<OpenSession> {
    const row = token.startsWith(TOKEN_PREFIX) ? await queries.findByTokenHash(hashToken(token)) : undefined;
    if (!row || !(await creatorIsActive(row))) throw notFound("connect session");
    if (row.expires_at <= clock.now().toISOString()) {
      throw new BrokerError("connect_session_expired", "this connect link has expired; ask the application for a new one");
    }
    // A tenant-defined provider removed since the link was made is no longer offered.
    const { providers } = await deps.catalogue.view({ tenantId: row.tenant_id, env: row.env });
    const allowed = (JSON.parse(row.providers) as string[]).filter((id) => providers.has(id));
    return { row, options: await Promise.all(allowed.map((id) => optionOf(providers.get(id), row.tenant_id, row.env))) };
  }

  function optionIn(session: OpenSession, providerId: string): ConnectOption {
    const option = session.options.find((candidate) => candidate.id === providerId);
    if (!option) throw new BrokerError("forbidden", `this connect link does not allow connecting "${providerId}"`);
    return option;
  }

  /**
   * An end user's connection belongs to no operator: its owner is the session (so no member sees
   * it as their own; admins see every connection). Who created the session is on the session row.
   */
  const initiatorOf = (row: ConnectSessionRow) => ({
    tenantId: row.tenant_id,
    owner: { issuer: "connect_session", subject: row.id },
    endUserId: row.end_user_id,
    label: row.label,
    connectSessionId: row.id,
  });

  return {
    open,

    /** Part of deleting an end user: their links stop working at once. */
    deleteAllOfEndUser: (tenantId: string, endUserId: string) => queries.deleteOfEndUser(tenantId, endUserId),

    async create(creator: SessionCreator, input: ConnectSessionInput) {
      if (input.redirect_url !== undefined && !isAllowedRedirect(input.redirect_url)) {
        throw fieldError("/redirect_url", "must be an https URL, or an http URL on loopback (127.0.0.1, [::1], localhost)");
      }
      const providers = await allowedProviders(creator, input.providers);
      const token = `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
      const now = clock.now();
      const row: ConnectSessionRow = {
        id: randomUUID(),
        tenant_id: creator.tenantId,
        env: creator.env,
        end_user_id: input.end_user_id,
        providers: JSON.stringify(providers),
        redirect_url: input.redirect_url ?? null,
        label: input.label ?? null,
        token_hash: hashToken(token),
        created_by_type: creatorTypeOf(creator.actor),
        created_by_id: creator.actor.type === "operator" ? `${creator.owner.issuer}|${creator.owner.subject}` : creator.actor.id,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + CONNECT_SESSION_TTL_MS).toISOString(),
      };
      await queries.deleteExpiredBefore(new Date(now.getTime() - 24 * 3_600_000).toISOString());
      await queries.insert(row);
      return {
        id: row.id,
        connect_url: `${deps.publicUrl}/connect/${token}`,
        expires_at: row.expires_at,
        end_user_id: row.end_user_id,
        env: row.env,
        providers,
        redirect_url: row.redirect_url,
        label: row.label,
      };
    },

    /** The provider's authorize URL for this session's end user (PKCE, state bound to the session), and the state. */
    /** The provider a page offers, for a page about it (403 when the session does not offer it). */
    offered: (session: OpenSession, providerId: string) => optionIn(session, providerId),

    /** `values`: the connect_input values typed on the page, checked by the connect itself (422 invalid_request). */
    async beginOAuth(session: OpenSession, providerId: string, values: Record<string, string> = {}): Promise<{ authorizeUrl: string; state: string }> {
      const option = optionIn(session, providerId);
      if (!option.oauth) throw new BrokerError("unprocessable", `${option.displayName} is connected with an API key on this page, not through OAuth`);
      const { row } = session;
      const started = await deps.connections.startForEndUser(initiatorOf(row), {
        provider: providerId,
        env: row.env,
        ...(row.redirect_url ? { redirect_after: row.redirect_url } : {}),
        ...(Object.keys(values).length ? { connection_values: values } : {}),
      });
      return { authorizeUrl: started.authorize_url, state: started.state };
    },

    /** Stores an API key as a secret item of the session's end user. */
    async saveApiKey(session: OpenSession, providerId: string, value: string, values: Record<string, string> = {}) {
      const option = optionIn(session, providerId);
      if (!option.apiKey) throw new BrokerError("unprocessable", `${option.displayName} is connected through OAuth, not with an API key`);
      const { row } = session;
      const item = await deps.secretItems.createForEndUser(
        row.tenant_id,
        { provider: providerId, env: row.env, value, endUserId: row.end_user_id, label: row.label, ...(Object.keys(values).length ? { connection_values: values } : {}) },
        { type: "end_user", id: row.end_user_id },
      );
      return { item, redirectUrl: row.redirect_url, displayName: option.displayName };
    },
  };
}

export type ConnectSessionService = ReturnType<typeof createConnectSessionService>;
