import type { Executor } from "../store/database.js";
import type { TenantMembersTable, TenantsTable } from "../store/schema.js";

export function createTenantQueries() {
  return {
    insertTenant: (db: Executor, row: TenantsTable) => db.insertInto("tenants").values(row).execute(),

    findTenant: (db: Executor, tenantId: string) => db.selectFrom("tenants").selectAll().where("id", "=", tenantId).executeTakeFirst(),

    async countTenants(db: Executor): Promise<number> {
      const row = await db.selectFrom("tenants").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** One row per (tenant, issuer, subject): adding an existing member changes its role. */
    upsertMember: (db: Executor, row: TenantMembersTable) =>
      db
        .insertInto("tenant_members")
        .values(row)
        .onConflict((oc) => oc.columns(["tenant_id", "issuer", "subject"]).doUpdateSet({ role: row.role }))
        .execute(),

    findMember: (db: Executor, tenantId: string, issuer: string, subject: string) =>
      db
        .selectFrom("tenant_members")
        .select(["id", "tenant_id", "role"])
        .where("tenant_id", "=", tenantId)
        .where("issuer", "=", issuer)
        .where("subject", "=", subject)
        .executeTakeFirst(),
  };
}
