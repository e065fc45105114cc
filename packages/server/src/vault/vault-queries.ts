/**
 * Every query on `tenant_data_keys`: the wrapped data keys only the vault reads and writes.
 * Bound to the store once in app.ts.
 */
import type { Store } from "../store/database.js";
import type { TenantDataKeysTable } from "../store/schema.js";

export type DataKeyRow = TenantDataKeysTable;
export type WrappedDataKey = Pick<DataKeyRow, "id" | "tenant_id" | "master_kid" | "wrapped_key">;

const WRAPPED_KEY_COLUMNS = ["id", "tenant_id", "master_kid", "wrapped_key"] as const;

export function createVaultQueries({ db, transaction }: Pick<Store, "db" | "transaction">) {
  return {
    findDataKey: (tenantId: string, id: string): Promise<WrappedDataKey | undefined> =>
      db.selectFrom("tenant_data_keys").select(WRAPPED_KEY_COLUMNS).where("id", "=", id).where("tenant_id", "=", tenantId).executeTakeFirst(),

    /** A tenant has one data key: when two instances create it at once, the first insert wins. */
    insertDataKeyUnlessPresent: (row: DataKeyRow) =>
      db.insertInto("tenant_data_keys").values(row).onConflict((oc) => oc.column("tenant_id").doNothing()).execute(),

    async dataKeyIdOf(tenantId: string): Promise<string> {
      const row = await db.selectFrom("tenant_data_keys").select("id").where("tenant_id", "=", tenantId).executeTakeFirstOrThrow();
      return row.id;
    },

    allDataKeys: (): Promise<WrappedDataKey[]> => db.selectFrom("tenant_data_keys").select(WRAPPED_KEY_COLUMNS).execute(),

    dataKeysNotUnder: (masterKid: string, limit: number): Promise<WrappedDataKey[]> =>
      db.selectFrom("tenant_data_keys").select(WRAPPED_KEY_COLUMNS).where("master_kid", "!=", masterKid).limit(limit).execute(),

    /** One transaction per batch, so a rotation stopped half-way leaves whole batches done. */
    async rewrapDataKeys(rewrapped: readonly Pick<DataKeyRow, "id" | "master_kid" | "wrapped_key">[]): Promise<void> {
      await transaction(async (trx) => {
        for (const { id, master_kid, wrapped_key } of rewrapped) {
          await trx.updateTable("tenant_data_keys").set({ master_kid, wrapped_key }).where("id", "=", id).execute();
        }
      });
    },
  };
}

export type VaultQueries = ReturnType<typeof createVaultQueries>;
