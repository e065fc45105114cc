import type { Executor, Store } from "../store/database.js";
import type { ControlKeysTable } from "../store/schema.js";

/** Every query on `control_keys`, bound to the store; a transaction may be passed last. */
export function createControlKeyQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    insert: (row: ControlKeysTable, db: Executor = storeDb) => db.insertInto("control_keys").values(row).execute(),

    list: (tenantId: string, db: Executor = storeDb) =>
      db.selectFrom("control_keys").selectAll().where("tenant_id", "=", tenantId).orderBy("created_at").orderBy("id").execute(),

    find: (tenantId: string, id: string, db: Executor = storeDb) =>
      db.selectFrom("control_keys").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    findByHash: (keyHash: string, db: Executor = storeDb) =>
      db.selectFrom("control_keys").select(["id", "tenant_id", "env", "revoked_at"]).where("key_hash", "=", keyHash).executeTakeFirst(),

    markRevoked: (id: string, at: string, db: Executor = storeDb) => db.updateTable("control_keys").set({ revoked_at: at }).where("id", "=", id).execute(),

    touchLastUsed: (id: string, at: string, db: Executor = storeDb) => db.updateTable("control_keys").set({ last_used_at: at }).where("id", "=", id).execute(),
  };
}

export type ControlKeyQueries = ReturnType<typeof createControlKeyQueries>;
