import type { Executor, Store } from "../store/database.js";
import type { AgentAppsTable } from "../store/schema.js";

/** Every query on `agent_apps`, bound to the store; a transaction may be passed last. */
export function createAgentAppQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    insert: (row: AgentAppsTable, db: Executor = storeDb) => db.insertInto("agent_apps").values(row).execute(),

    list: (tenantId: string, db: Executor = storeDb) =>
      db.selectFrom("agent_apps").selectAll().where("tenant_id", "=", tenantId).orderBy("created_at").orderBy("id").execute(),

    find: (tenantId: string, id: string, db: Executor = storeDb) =>
      db.selectFrom("agent_apps").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    markDisabled: (id: string, at: string, db: Executor = storeDb) =>
      db.updateTable("agent_apps").set({ status: "disabled", disabled_at: at }).where("id", "=", id).execute(),
  };
}

export type AgentAppQueries = ReturnType<typeof createAgentAppQueries>;
