import type { Executor, Store, Tx } from "../store/database.js";
import type { ConnectionsTable, OAuthStatesTable } from "../store/schema.js";
import type { CredentialOrigins, ReconnectReason } from "../providers/credential-origins.js";
import type { Sealed } from "../shared/sealed.js";
import type { StoredConnectionValues } from "../providers/connection-values.js";
import type { Connection, ConnectionStatus, Owner, UpstreamRevocation } from "./connection.js";

export type { Owner } from "./connection.js";

export type ConnectionFilter = {
  owner?: Owner | undefined;
  /** A string for one end user's connections, null for shared ones only. */
  endUserId?: string | null | undefined;
  provider?: string | undefined;
  status?: ConnectionStatus | undefined;
  env?: "test" | "live" | undefined;
  after?: { createdAt: string; id: string } | undefined;
  limit: number;
};

function connectionFromRow(row: ConnectionsTable): Connection {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    env: row.env,
    provider: row.provider,
    status: row.status,
    owner: { issuer: row.owner_issuer, subject: row.owner_subject },
    displayName: row.display_name,
    upstreamAccountId: row.upstream_account_id,
    credentialSealed: row.credential_sealed,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    upstreamRevocation: row.upstream_revocation,
    endUserId: row.end_user_id,
    label: row.label,
    oauthAppId: row.oauth_app_id,
    origins: { token: row.token_origin, api: row.api_origin },
    reconnectReason: row.reconnect_reason,
    refreshStartedAt: row.refresh_started_at,
    connectionValues: row.connection_values ? (JSON.parse(row.connection_values) as StoredConnectionValues) : {},
  };
}

function connectionToRow(connection: Connection): ConnectionsTable {
  return {
    id: connection.id,
    tenant_id: connection.tenantId,
    env: connection.env,
    provider: connection.provider,
    status: connection.status,
    owner_issuer: connection.owner.issuer,
    owner_subject: connection.owner.subject,
    display_name: connection.displayName,
    upstream_account_id: connection.upstreamAccountId,
    credential_sealed: connection.credentialSealed,
    created_at: connection.createdAt,
    updated_at: connection.updatedAt,
    last_used_at: connection.lastUsedAt,
    revoked_at: connection.revokedAt,
    upstream_revocation: connection.upstreamRevocation,
    end_user_id: connection.endUserId,
    label: connection.label,
    oauth_app_id: connection.oauthAppId,
    token_origin: connection.origins.token,
    api_origin: connection.origins.api,
    reconnect_reason: connection.reconnectReason,
    refresh_started_at: connection.refreshStartedAt,
    connection_values: Object.keys(connection.connectionValues).length ? JSON.stringify(connection.connectionValues) : null,
  };
}

const mapped = async (pending: Promise<ConnectionsTable[]>) => (await pending).map(connectionFromRow);

/** Every query on `connections` and `oauth_states`, bound to the store; a transaction may be passed last. */
export function createConnectionQueries({ db: storeDb, kind }: Pick<Store, "db" | "kind">) {
  return {
    insertState: (row: OAuthStatesTable, db: Executor = storeDb) => db.insertInto("oauth_states").values(row).execute(),

    findState: (stateHash: string, db: Executor = storeDb) =>
      db.selectFrom("oauth_states").selectAll().where("state_hash", "=", stateHash).executeTakeFirst(),

    /** Marks a state used; false when it was already used (a replay) — single use under races too. */
    async consumeState(stateHash: string, at: string, db: Executor = storeDb): Promise<boolean> {
      const result = await db
        .updateTable("oauth_states")
        .set({ consumed_at: at })
        .where("state_hash", "=", stateHash)
        .where("consumed_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /**
     * Whether the flow's state still exists, holding it until `trx` ends: an end user's deletion
     * deletes their states, so it waits for a connection being stored and then sees it, or ran
     * first and this answers false. PostgreSQL locks the row; SQLite's write transaction (begun
     * immediate) already keeps every other writer out.
     */
    async holdState(stateHash: string, trx: Tx): Promise<boolean> {
      const query = trx.selectFrom("oauth_states").select("state_hash").where("state_hash", "=", stateHash);
      return (await (kind === "postgres" ? query.forUpdate() : query).executeTakeFirst()) !== undefined;
    },

    deleteStatesOfEndUser: (tenantId: string, endUserId: string, db: Executor = storeDb) =>
      db.deleteFrom("oauth_states").where("tenant_id", "=", tenantId).where("end_user_id", "=", endUserId).execute(),

    deleteStatesExpiredBefore: (at: string, db: Executor = storeDb) => db.deleteFrom("oauth_states").where("expires_at", "<", at).execute(),

    insertConnection: (connection: Connection, db: Executor = storeDb) => db.insertInto("connections").values(connectionToRow(connection)).execute(),

    /** Newest first; `owner` narrows to one operator's connections (viewers see only their own). */
    list: (tenantId: string, filter: ConnectionFilter, db: Executor = storeDb) => {
      let query = db.selectFrom("connections").selectAll().where("tenant_id", "=", tenantId);
      if (filter.owner) query = query.where("owner_issuer", "=", filter.owner.issuer).where("owner_subject", "=", filter.owner.subject);
      if (filter.endUserId !== undefined) query = filter.endUserId === null ? query.where("end_user_id", "is", null) : query.where("end_user_id", "=", filter.endUserId);
      if (filter.provider) query = query.where("provider", "=", filter.provider);
      if (filter.status) query = query.where("status", "=", filter.status);
      if (filter.env) query = query.where("env", "=", filter.env);
      const after = filter.after;
      if (after) query = query.where((eb) => eb.or([eb("created_at", "<", after.createdAt), eb.and([eb("created_at", "=", after.createdAt), eb("id", ">", after.id)])]));
      return mapped(query.orderBy("created_at", "desc").orderBy("id").limit(filter.limit).execute());
    },

    async find(tenantId: string, id: string, owner?: Owner, db: Executor = storeDb): Promise<Connection | undefined> {
      let query = db.selectFrom("connections").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id);
      if (owner) query = query.where("owner_issuer", "=", owner.issuer).where("owner_subject", "=", owner.subject);
      const row = await query.executeTakeFirst();
      return row && connectionFromRow(row);
    },

    updateLabel: (id: string, label: string | null, at: string, db: Executor = storeDb) =>
      db.updateTable("connections").set({ label, updated_at: at }).where("id", "=", id).execute(),

    /** Connections of one end user still holding a credential (to revoke them all). */
    listLiveOfEndUser: (tenantId: string, endUserId: string, db: Executor = storeDb) =>
      mapped(db.selectFrom("connections").selectAll().where("tenant_id", "=", tenantId).where("end_user_id", "=", endUserId).where("status", "!=", "revoked").orderBy("created_at").execute()),

    /** Active connections of a provider that an end user (or, with null, a caller without one) may use: theirs and the shared ones. */
    listUsable: (scope: { tenantId: string; env: "test" | "live"; provider: string; endUserId: string | null }, db: Executor = storeDb) => {
      const query = db
        .selectFrom("connections")
        .selectAll()
        .where("tenant_id", "=", scope.tenantId)
        .where("env", "=", scope.env)
        .where("provider", "=", scope.provider)
        .where("status", "=", "active");
      const { endUserId } = scope;
      return mapped(
        (endUserId === null ? query.where("end_user_id", "is", null) : query.where((eb) => eb.or([eb("end_user_id", "is", null), eb("end_user_id", "=", endUserId)])))
          .orderBy("created_at")
          .orderBy("id")
          .limit(50)
          .execute(),
      );
    },

    /**
     * Stores refreshed tokens over exactly the ones they replace, on a connection still active;
     * false when it was revoked or expired meanwhile (a revoke must never get tokens back).
     */
    async updateCredential(id: string, replaced: Sealed, sealed: Sealed, at: string, db: Executor = storeDb): Promise<boolean> {
      const result = await db
        .updateTable("connections")
        .set({ credential_sealed: sealed, updated_at: at, refresh_started_at: null })
        .where("id", "=", id)
        .where("status", "=", "active")
        .where("credential_sealed", "=", replaced)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    markExpired: (id: string, at: string, reason: ReconnectReason, db: Executor = storeDb) =>
      db
        .updateTable("connections")
        .set({ status: "expired", updated_at: at, reconnect_reason: reason, refresh_started_at: null })
        .where("id", "=", id)
        .where("status", "=", "active")
        .executeTakeFirst(),

    /** Binds a connection stored before origins were recorded to the origins its provider has now (once). */
    bindOrigins: (id: string, origins: CredentialOrigins, db: Executor = storeDb) =>
      db.updateTable("connections").set({ token_origin: origins.token, api_origin: origins.api }).where("id", "=", id).where("api_origin", "is", null).execute(),

    /**
     * The write-ahead mark of a refresh, set before its request leaves; false when a mark was
     * already there: an earlier refresh was interrupted (or another instance's is still running).
     */
    async markRefreshStarted(id: string, at: string, db: Executor = storeDb): Promise<boolean> {
      const result = await db.updateTable("connections").set({ refresh_started_at: at }).where("id", "=", id).where("refresh_started_at", "is", null).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    clearRefreshMark: (id: string, db: Executor = storeDb) => db.updateTable("connections").set({ refresh_started_at: null }).where("id", "=", id).execute(),

    /**
     * A tenant's provider moved: its active connections bound elsewhere expire (origin_changed), in
     * the caller's transaction. Returns the ones that changed, for their events.
     */
    markOriginChanged: (scope: { tenantId: string; provider: string }, to: CredentialOrigins, at: string, db: Executor = storeDb) =>
      db
        .updateTable("connections")
        .set({ status: "expired", updated_at: at, reconnect_reason: "origin_changed", refresh_started_at: null })
        .where("tenant_id", "=", scope.tenantId)
        .where("provider", "=", scope.provider)
        .where("status", "=", "active")
        .where((eb) =>
          eb.or([
            eb("api_origin", "is", null),
            eb("api_origin", "!=", to.api),
            to.token === null ? eb("token_origin", "is not", null) : eb.or([eb("token_origin", "is", null), eb("token_origin", "!=", to.token)]),
          ]),
        )
        .returning(["id", "env", "end_user_id", "label"])
        .execute(),

    /**
     * Revokes the connection if it still holds the credential that was revoked upstream; false
     * when another revoke came first or a refresh stored new tokens meanwhile (those are live).
     */
    async markRevoked(id: string, revokedSealed: Sealed | null, at: string, upstreamRevocation: UpstreamRevocation | null, db: Executor = storeDb): Promise<boolean> {
      const result = await db
        .updateTable("connections")
        .set({ status: "revoked", credential_sealed: null, revoked_at: at, updated_at: at, upstream_revocation: upstreamRevocation })
        .where("id", "=", id)
        .where("status", "!=", "revoked")
        .where((eb) => (revokedSealed === null ? eb("credential_sealed", "is", null) : eb("credential_sealed", "=", revokedSealed)))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    touchLastUsed: (id: string, at: string, db: Executor = storeDb) => db.updateTable("connections").set({ last_used_at: at }).where("id", "=", id).execute(),
  };
}

export type ConnectionQueries = ReturnType<typeof createConnectionQueries>;
