import type { Executor } from "../store/database.js";
import type { ControlKeysTable } from "../store/schema.js";

export function createControlKeyQueries() {
  return {
    insert: (db: Executor, row: ControlKeysTable) => db.insertInto("control_keys").values(row).execute(),

    list: (db: Executor, tenantId: string) =>
      db.selectFrom("control_keys").selectAll().where("tenant_id", "=", tenantId).orderBy("created_at").orderBy("id").execute(),

    find: (db: Executor, tenantId: string, id: string) =>
      db.selectFrom("control_keys").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    findByHash: (db: Executor, keyHash: string) =>
      db.selectFrom("control_keys").select(["id", "tenant_id", "env", "revoked_at"]).where("key_hash", "=", keyHash).executeTakeFirst(),

    markRevoked: (db: Executor, id: string, at: string) => db.updateTable("control_keys").set({ revoked_at: at }).where("id", "=", id).execute(),

    touchLastUsed: (db: Executor, id: string, at: string) => db.updateTable("control_keys").set({ last_used_at: at }).where("id", "=", id).execute(),
  };
}
