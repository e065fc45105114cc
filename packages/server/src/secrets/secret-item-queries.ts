import type { Executor, Store } from "../store/database.js";
import type { CredentialOrigins } from "../providers/credential-origins.js";
import type { SecretItemsTable } from "../store/schema.js";

/** `endUserId`: an end user's items; null: the shared ones only; undefined: every owner. */
export type SecretItemFilter = { provider?: string | undefined; env?: "test" | "live" | undefined; endUserId?: string | null | undefined };

/** Every query on `secret_items`, bound to the store; a transaction may be passed last. */
export function createSecretItemQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    insert: (row: SecretItemsTable, db: Executor = storeDb) => db.insertInto("secret_items").values(row).execute(),

    findByName: (scope: Pick<SecretItemsTable, "tenant_id" | "env" | "provider" | "name">, db: Executor = storeDb) =>
      db
        .selectFrom("secret_items")
        .select("id")
        .where("tenant_id", "=", scope.tenant_id)
        .where("env", "=", scope.env)
        .where("provider", "=", scope.provider)
        .where("name", "=", scope.name)
        .executeTakeFirst(),

    /** The tenant's items, optionally of one provider, env, or owner (an end user's id, or null for the shared ones). */
    list: (tenantId: string, filter: SecretItemFilter = {}, db: Executor = storeDb) => {
      let query = db.selectFrom("secret_items").selectAll().where("tenant_id", "=", tenantId);
      if (filter.provider !== undefined) query = query.where("provider", "=", filter.provider);
      if (filter.env !== undefined) query = query.where("env", "=", filter.env);
      if (filter.endUserId === null) query = query.where("end_user_id", "is", null);
      else if (filter.endUserId !== undefined) query = query.where("end_user_id", "=", filter.endUserId);
      return query.orderBy("created_at").orderBy("id").execute();
    },

    find: (tenantId: string, id: string, db: Executor = storeDb) =>
      db.selectFrom("secret_items").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    /** Secret items of a provider that an end user (or, with null, a caller without one) may use: theirs and the shared ones. */
    listUsable: (scope: { tenantId: string; env: "test" | "live"; provider: string; endUserId: string | null }, db: Executor = storeDb) => {
      const query = db
        .selectFrom("secret_items")
        .select(["id", "name", "label", "end_user_id", "provider", "env"])
        .where("tenant_id", "=", scope.tenantId)
        .where("env", "=", scope.env)
        .where("provider", "=", scope.provider)
        .where("reconnect_reason", "is", null);
      const { endUserId } = scope;
      return (endUserId === null ? query.where("end_user_id", "is", null) : query.where((eb) => eb.or([eb("end_user_id", "is", null), eb("end_user_id", "=", endUserId)])))
        .orderBy("created_at")
        .orderBy("id")
        .limit(50)
        .execute();
    },

    listOfEndUser: (tenantId: string, endUserId: string, db: Executor = storeDb) =>
      db.selectFrom("secret_items").selectAll().where("tenant_id", "=", tenantId).where("end_user_id", "=", endUserId).orderBy("created_at").execute(),

    /** A new value for an item: its hint with it, and bound to the address it is stored for now (a stale reason is cleared). */
    async replaceValue(id: string, change: Pick<SecretItemsTable, "value_sealed" | "value_hint" | "api_origin">, db: Executor = storeDb): Promise<boolean> {
      const result = await db.updateTable("secret_items").set({ ...change, reconnect_reason: null }).where("id", "=", id).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },

    delete: (id: string, db: Executor = storeDb) => db.deleteFrom("secret_items").where("id", "=", id).execute(),

    touchLastUsed: (id: string, at: string, db: Executor = storeDb) => db.updateTable("secret_items").set({ last_used_at: at }).where("id", "=", id).execute(),

    /** Binds an item stored before origins were recorded to its provider's API origin now (once). */
    bindOrigin: (id: string, origins: CredentialOrigins, db: Executor = storeDb) =>
      db.updateTable("secret_items").set({ api_origin: origins.api }).where("id", "=", id).where("api_origin", "is", null).execute(),

    /** Marks one item (or, with `provider`, every item of a tenant's provider bound elsewhere) as needing to be stored again. */
    async markOriginChanged(scope: { tenantId: string; id?: string; provider?: string }, to: CredentialOrigins, db: Executor = storeDb): Promise<number> {
      let query = db
        .updateTable("secret_items")
        .set({ reconnect_reason: "origin_changed" })
        .where("tenant_id", "=", scope.tenantId)
        .where("reconnect_reason", "is", null)
        .where((eb) => eb.or([eb("api_origin", "is", null), eb("api_origin", "!=", to.api)]));
      if (scope.id !== undefined) query = query.where("id", "=", scope.id);
      if (scope.provider !== undefined) query = query.where("provider", "=", scope.provider);
      const result = await query.executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
  };
}

export type SecretItemQueries = ReturnType<typeof createSecretItemQueries>;
