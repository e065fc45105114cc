import type { Executor, Store } from "../store/database.js";
import type { TenantMembersTable, TenantsTable } from "../store/schema.js";

/** Every query on `tenants` and `tenant_members`, bound to the store; a transaction may be passed last. */
export function createTenantQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    insertTenant: (row: TenantsTable, db: Executor = storeDb) => db.insertInto("tenants").values(row).execute(),

    findTenant: (tenantId: string, db: Executor = storeDb) => db.selectFrom("tenants").selectAll().where("id", "=", tenantId).executeTakeFirst(),

    async countTenants(db: Executor = storeDb): Promise<number> {
      const row = await db.selectFrom("tenants").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** One row per (tenant, issuer, subject): adding an existing member changes its role. */
    upsertMember: (row: TenantMembersTable, db: Executor = storeDb) =>
      db
        .insertInto("tenant_members")
        .values(row)
        .onConflict((oc) => oc.columns(["tenant_id", "issuer", "subject"]).doUpdateSet({ role: row.role }))
        .execute(),

    /** Every tenant an identity is a member of, by name. */
    listMembershipsOf: (issuer: string, subject: string, db: Executor = storeDb) =>
      db
        .selectFrom("tenant_members")
        .innerJoin("tenants", "tenants.id", "tenant_members.tenant_id")
        .select(["tenants.id as tenant_id", "tenants.name", "tenant_members.role"])
        .where("tenant_members.issuer", "=", issuer)
        .where("tenant_members.subject", "=", subject)
        .orderBy("tenants.name")
        .orderBy("tenants.id")
        .execute(),

    /** Every member of a tenant, oldest first. */
    listMembers: (tenantId: string, db: Executor = storeDb) =>
      db.selectFrom("tenant_members").selectAll().where("tenant_id", "=", tenantId).orderBy("created_at").orderBy("id").execute(),

    findMemberById: (tenantId: string, id: string, db: Executor = storeDb) =>
      db.selectFrom("tenant_members").selectAll().where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    /** What channels and approver rules know of a member: email, name, Slack identity, groups. */
    updateMemberProfile: (tenantId: string, id: string, profile: Partial<Pick<TenantMembersTable, "email" | "display_name" | "slack_user_id" | "groups">>, db: Executor = storeDb) =>
      db.updateTable("tenant_members").set(profile).where("tenant_id", "=", tenantId).where("id", "=", id).executeTakeFirst(),

    findMember: (tenantId: string, issuer: string, subject: string, db: Executor = storeDb) =>
      db
        .selectFrom("tenant_members")
        .select(["id", "tenant_id", "role"])
        .where("tenant_id", "=", tenantId)
        .where("issuer", "=", issuer)
        .where("subject", "=", subject)
        .executeTakeFirst(),
  };
}

export type TenantQueries = ReturnType<typeof createTenantQueries>;
