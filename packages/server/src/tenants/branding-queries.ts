import type { Executor, Store } from "../store/database.js";
import type { TenantBrandingTable } from "../store/schema.js";

export type BrandingRow = TenantBrandingTable;
/** The columns a change sets; a missing one keeps its value. */
export type BrandingFields = Partial<Pick<BrandingRow, "display_name" | "logo_base64" | "logo_content_type" | "logo_sha256">>;

/** Every query on `tenant_branding`, bound to the store; a transaction may be passed last. */
export function createBrandingQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    find: (tenantId: string, db: Executor = storeDb) =>
      db
        .selectFrom("tenant_branding")
        .select(["tenant_id", "display_name", "logo_base64", "logo_content_type", "logo_sha256", "updated_at", "updated_by"])
        .where("tenant_id", "=", tenantId)
        .executeTakeFirst(),

    /**
     * Sets only the fields given, in one statement: two operators changing the name and the logo at
     * the same time both win, on either engine, with no read-modify-write between them.
     */
    upsertFields: (tenantId: string, fields: BrandingFields, stamp: Pick<BrandingRow, "updated_at" | "updated_by">, db: Executor = storeDb) =>
      db
        .insertInto("tenant_branding")
        .values({ tenant_id: tenantId, display_name: null, logo_base64: null, logo_content_type: null, logo_sha256: null, ...fields, ...stamp })
        .onConflict((oc) => oc.column("tenant_id").doUpdateSet({ ...fields, ...stamp }))
        .execute(),
  };
}

export type BrandingQueries = ReturnType<typeof createBrandingQueries>;
