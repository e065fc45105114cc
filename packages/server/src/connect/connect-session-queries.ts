import type { Executor, Store } from "../store/database.js";
import type { ConnectSessionsTable } from "../store/schema.js";

export type ConnectSessionRow = ConnectSessionsTable;

export function createConnectSessionQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    insert: (row: ConnectSessionRow, db: Executor = storeDb) => db.insertInto("connect_sessions").values(row).execute(),

    findByTokenHash: (tokenHash: string, db: Executor = storeDb) =>
      db.selectFrom("connect_sessions").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst(),

    deleteOfEndUser: (tenantId: string, endUserId: string, db: Executor = storeDb) =>
      db.deleteFrom("connect_sessions").where("tenant_id", "=", tenantId).where("end_user_id", "=", endUserId).execute(),

    /** Sessions live 30 minutes; a day later nobody can tell an expired one from an unknown one. */
    deleteExpiredBefore: (at: string, db: Executor = storeDb) => db.deleteFrom("connect_sessions").where("expires_at", "<", at).execute(),
  };
}

export type ConnectSessionQueries = ReturnType<typeof createConnectSessionQueries>;
