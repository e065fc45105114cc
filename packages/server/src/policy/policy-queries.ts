import type { TestOrLive } from "../ids.js";
import type { Executor, Store } from "../store/database.js";
import type { PoliciesTable } from "../store/schema.js";

/** Every query on `policies`, bound to the store; a transaction may be passed last. */
export function createPolicyQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    latest: (tenantId: string, env: TestOrLive, db: Executor = storeDb) =>
      db.selectFrom("policies").selectAll().where("tenant_id", "=", tenantId).where("env", "=", env).orderBy("version", "desc").limit(1).executeTakeFirst(),

    version: (tenantId: string, env: TestOrLive, version: number, db: Executor = storeDb) =>
      db.selectFrom("policies").selectAll().where("tenant_id", "=", tenantId).where("env", "=", env).where("version", "=", version).executeTakeFirst(),

    /** Newest first, at most `limit`. */
    history: (tenantId: string, env: TestOrLive, limit: number, db: Executor = storeDb) =>
      db
        .selectFrom("policies")
        .select(["version", "document", "created_at", "created_by"])
        .where("tenant_id", "=", tenantId)
        .where("env", "=", env)
        .orderBy("version", "desc")
        .limit(limit)
        .execute(),

    insert: (row: PoliciesTable, db: Executor = storeDb) => db.insertInto("policies").values(row).execute(),
  };
}

export type PolicyQueries = ReturnType<typeof createPolicyQueries>;
