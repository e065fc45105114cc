import type { Executor } from "../store/database.js";
import type { AgentAppsTable } from "../store/schema.js";

export function createAgentAppQueries() {
  return {
    insert: (db: Executor, row: AgentAppsTable) => db.insertInto("agent_apps").values(row).execute(),

    list: (db: Executor, tenantId: string) =>
      db.selectFrom("agent_apps").selectAll().where("tenant_id", "=", tenantId).orderBy("created_at").orderBy("id").execute(),

    find: (db: Executor, tenantId: string, id: string) =>
      db.selectFrom("agent_apps").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    markDisabled: (db: Executor, id: string, at: string) =>
      db.updateTable("agent_apps").set({ status: "disabled", disabled_at: at }).where("id", "=", id).execute(),
  };
}
