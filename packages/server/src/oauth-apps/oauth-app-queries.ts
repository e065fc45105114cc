import type { Executor, Store } from "../store/database.js";
import type { OAuthAppsTable } from "../store/schema.js";

export type OAuthAppRow = OAuthAppsTable;
type AppKey = { tenantId: string; env: "test" | "live"; provider: string };

/** Every query on `oauth_apps`, bound to the store; a transaction may be passed last. */
export function createOAuthAppQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    insert: (row: OAuthAppRow, db: Executor = storeDb) => db.insertInto("oauth_apps").values(row).execute(),

    findCurrent: ({ tenantId, env, provider }: AppKey, db: Executor = storeDb) =>
      db
        .selectFrom("oauth_apps")
        .selectAll()
        .where("tenant_id", "=", tenantId)
        .where("env", "=", env)
        .where("provider", "=", provider)
        .where("status", "=", "current")
        .executeTakeFirst(),

    /** The tenant's current apps (one per provider and env), optionally of one env. */
    listCurrent: (tenantId: string, env: "test" | "live" | undefined, db: Executor = storeDb) => {
      const query = db.selectFrom("oauth_apps").selectAll().where("tenant_id", "=", tenantId).where("status", "=", "current");
      return (env === undefined ? query : query.where("env", "=", env)).orderBy("provider").orderBy("env").execute();
    },

    /** Any app of the tenant, retired ones included: the connections it issued still use it. */
    find: (tenantId: string, id: string, db: Executor = storeDb) =>
      db.selectFrom("oauth_apps").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    /** A rotated secret for an app: the connections it issued refresh with the new one. */
    replaceSecret: (id: string, sealed: OAuthAppRow["client_secret_sealed"], hint: string | null, db: Executor = storeDb) =>
      db.updateTable("oauth_apps").set({ client_secret_sealed: sealed, client_secret_hint: hint }).where("id", "=", id).execute(),

    /** Marks the current app (if any) replaced or removed; answers whether there was one. */
    async retireCurrent({ tenantId, env, provider }: AppKey, status: "replaced" | "removed", at: string, db: Executor = storeDb): Promise<boolean> {
      const result = await db
        .updateTable("oauth_apps")
        .set({ status, retired_at: at })
        .where("tenant_id", "=", tenantId)
        .where("env", "=", env)
        .where("provider", "=", provider)
        .where("status", "=", "current")
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type OAuthAppQueries = ReturnType<typeof createOAuthAppQueries>;
