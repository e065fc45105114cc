import type { Env } from "../ids.js";
import type { Executor } from "../store/database.js";
import type { PoliciesTable } from "../store/schema.js";

export function createPolicyQueries() {
  return {
    latest: (db: Executor, tenantId: string, env: Env) =>
      db.selectFrom("policies").selectAll().where("tenant_id", "=", tenantId).where("env", "=", env).orderBy("version", "desc").limit(1).executeTakeFirst(),

    insert: (db: Executor, row: PoliciesTable) => db.insertInto("policies").values(row).execute(),
  };
}
