import type { Executor } from "../store/database.js";
import type { SecretItemsTable } from "../store/schema.js";

export function createSecretItemQueries() {
  return {
    insert: (db: Executor, row: SecretItemsTable) => db.insertInto("secret_items").values(row).execute(),

    findByName: (db: Executor, scope: Pick<SecretItemsTable, "tenant_id" | "env" | "provider" | "name">) =>
      db
        .selectFrom("secret_items")
        .select("id")
        .where("tenant_id", "=", scope.tenant_id)
        .where("env", "=", scope.env)
        .where("provider", "=", scope.provider)
        .where("name", "=", scope.name)
        .executeTakeFirst(),

    list: (db: Executor, tenantId: string) =>
      db.selectFrom("secret_items").selectAll().where("tenant_id", "=", tenantId).orderBy("created_at").orderBy("id").execute(),

    find: (db: Executor, tenantId: string, id: string) =>
      db.selectFrom("secret_items").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    delete: (db: Executor, id: string) => db.deleteFrom("secret_items").where("id", "=", id).execute(),

    touchLastUsed: (db: Executor, id: string, at: string) => db.updateTable("secret_items").set({ last_used_at: at }).where("id", "=", id).execute(),
  };
}
