import { randomUUID } from "node:crypto";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { TenantId } from "../ids.js";
import type { AuditLog } from "../audit/audit-log.js";
import type { Store } from "../store/database.js";
import type { TenantMembersTable } from "../store/schema.js";
import type { TenantQueries } from "./tenant-queries.js";

export type Role = TenantMembersTable["role"];
const NO_PROFILE = { email: null, display_name: null, slack_user_id: null, groups: null };
export type Membership = { memberId: string; tenantId: TenantId; role: Role };

type TenantServiceDeps = { store: Pick<Store, "db" | "lock" | "transaction">; queries: TenantQueries; clock: Clock; audit: Pick<AuditLog, "appendIn"> };

export function createTenantService({ store, queries, clock, audit }: TenantServiceDeps) {

  return {
    async create(name: string, admin: { issuer: string; subject: string }) {
      const tenantId = randomUUID() as TenantId;
      const now = clock.now().toISOString();
      await store.transaction(async (trx) => {
        await queries.insertTenant({ id: tenantId, name, plan_id: "free", created_at: now }, trx);
        await queries.upsertMember({ id: randomUUID(), tenant_id: tenantId, ...admin, role: "admin", created_at: now, ...NO_PROFILE }, trx);
        await audit.appendIn({
          tenantId,
          actor: { type: "cli", id: admin.subject },
          action: "tenant.created",
          target: { type: "tenant", id: tenantId },
          data: { name, admin_issuer: admin.issuer, admin_subject: admin.subject },
        }, trx);
      });
      return { tenantId, name };
    },

    async get(tenantId: string) {
      const row = await queries.findTenant(tenantId);
      if (!row) throw notFound("tenant");
      return row;
    },

    count: (): Promise<number> => queries.countTenants(),

    /** Grants or changes access; the same identity added twice keeps one row with the new role. */
    async addMember(tenantId: string, member: { issuer: string; subject: string; role: Role }, actor: string) {
      await this.get(tenantId);
      const now = clock.now().toISOString();
      await store.transaction(async (trx) => {
        await queries.upsertMember({ id: randomUUID(), tenant_id: tenantId, ...member, created_at: now, ...NO_PROFILE }, trx);
        await audit.appendIn({
          tenantId,
          actor: { type: "cli", id: actor },
          action: "member.added",
          target: { type: "member", id: `${member.issuer}|${member.subject}` },
          data: { ...member },
        }, trx);
      });
    },

    /** The tenants an identity may act in, for the console's tenant picker. */
    membershipsOf: (issuer: string, subject: string) => queries.listMembershipsOf(issuer, subject),

    async findMembership(tenantId: string, issuer: string, subject: string): Promise<Membership | undefined> {
      const row = await queries.findMember(tenantId, issuer, subject);
      return row ? { memberId: row.id, tenantId: row.tenant_id as TenantId, role: row.role } : undefined;
    },
  };
}

export type TenantService = ReturnType<typeof createTenantService>;

export function assertRole(role: string): asserts role is Role {
  if (role !== "admin" && role !== "viewer") throw new BrokerError("invalid_request", "role must be admin or viewer");
}
