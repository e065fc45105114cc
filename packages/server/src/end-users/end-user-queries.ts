import { sql } from "kysely";
import type { Executor, Store } from "../store/database.js";

export type EndUserSummary = {
  end_user_id: string;
  connection_count: number;
  secret_item_count: number;
  first_seen_at: string;
  last_used_at: string | null;
};

/**
 * End users exist only through what they own: the broker has no end-user table. One is "seen"
 * once a connection or secret item belongs to them; revoked connections still count as seen.
 */
export function createEndUserQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    async list(tenantId: string, filter: { env?: "test" | "live" | undefined; after?: string | undefined; limit: number }, db: Executor = storeDb): Promise<EndUserSummary[]> {
      let connections = db
        .selectFrom("connections")
        .select([
          "end_user_id",
          sql<number>`case when status = 'active' then 1 else 0 end`.as("connection"),
          sql<number>`0`.as("secret_item"),
          "created_at",
          "last_used_at",
        ])
        .where("tenant_id", "=", tenantId)
        .where("end_user_id", "is not", null);
      let secretItems = db
        .selectFrom("secret_items")
        .select(["end_user_id", sql<number>`0`.as("connection"), sql<number>`1`.as("secret_item"), "created_at", "last_used_at"])
        .where("tenant_id", "=", tenantId)
        .where("end_user_id", "is not", null);
      if (filter.env) {
        connections = connections.where("env", "=", filter.env);
        secretItems = secretItems.where("env", "=", filter.env);
      }
      let query = db
        .selectFrom(connections.unionAll(secretItems).as("owned"))
        .select([
          "owned.end_user_id",
          sql<number>`sum(owned.connection)`.as("connection_count"),
          sql<number>`sum(owned.secret_item)`.as("secret_item_count"),
          sql<string>`min(owned.created_at)`.as("first_seen_at"),
          sql<string | null>`max(owned.last_used_at)`.as("last_used_at"),
        ])
        .groupBy("owned.end_user_id");
      if (filter.after !== undefined) query = query.having("owned.end_user_id", ">", filter.after);
      const rows = await query.orderBy("owned.end_user_id").limit(filter.limit).execute();
      return rows.map((row) => ({
        end_user_id: row.end_user_id as string,
        connection_count: Number(row.connection_count),
        secret_item_count: Number(row.secret_item_count),
        first_seen_at: row.first_seen_at,
        last_used_at: row.last_used_at,
      }));
    },
  };
}

export type EndUserQueries = ReturnType<typeof createEndUserQueries>;
