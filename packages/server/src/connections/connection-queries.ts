import type { Executor } from "../store/database.js";
import type { ConnectionsTable, OAuthStatesTable } from "../store/schema.js";

export type ConnectionRow = ConnectionsTable;
export type Owner = { issuer: string; subject: string };

export function createConnectionQueries() {
  return {
    insertState: (db: Executor, row: OAuthStatesTable) => db.insertInto("oauth_states").values(row).execute(),

    findState: (db: Executor, stateHash: string) =>
      db.selectFrom("oauth_states").selectAll().where("state_hash", "=", stateHash).executeTakeFirst(),

    /** Marks a state used; false when it was already used (a replay) — single use under races too. */
    async consumeState(db: Executor, stateHash: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable("oauth_states")
        .set({ consumed_at: at })
        .where("state_hash", "=", stateHash)
        .where("consumed_at", "is", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    deleteStatesExpiredBefore: (db: Executor, at: string) => db.deleteFrom("oauth_states").where("expires_at", "<", at).execute(),

    insertConnection: (db: Executor, row: ConnectionRow) => db.insertInto("connections").values(row).execute(),

    listOwned: (db: Executor, tenantId: string, owner: Owner) =>
      db
        .selectFrom("connections")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("owner_issuer", "=", owner.issuer)
        .where("owner_subject", "=", owner.subject)
        .orderBy("created_at", "desc")
        .orderBy("id")
        .execute(),

    findOwned: (db: Executor, tenantId: string, owner: Owner, id: string) =>
      db
        .selectFrom("connections")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("owner_issuer", "=", owner.issuer)
        .where("owner_subject", "=", owner.subject)
        .where("id", "=", id)
        .executeTakeFirst(),

    findInTenant: (db: Executor, tenantId: string, id: string) =>
      db.selectFrom("connections").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    updateCredential: (db: Executor, id: string, sealed: string, at: string) =>
      db.updateTable("connections").set({ credential_sealed: sealed, updated_at: at }).where("id", "=", id).execute(),

    markExpired: (db: Executor, id: string, at: string) =>
      db.updateTable("connections").set({ status: "expired", updated_at: at }).where("id", "=", id).where("status", "=", "active").executeTakeFirst(),

    markRevoked: (db: Executor, id: string, at: string, upstreamRevocation: ConnectionRow["upstream_revocation"]) =>
      db
        .updateTable("connections")
        .set({ status: "revoked", credential_sealed: null, revoked_at: at, updated_at: at, upstream_revocation: upstreamRevocation })
        .where("id", "=", id)
        .execute(),

    touchLastUsed: (db: Executor, id: string, at: string) => db.updateTable("connections").set({ last_used_at: at }).where("id", "=", id).execute(),
  };
}

export type ConnectionQueries = ReturnType<typeof createConnectionQueries>;
