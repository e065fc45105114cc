/**
 * What approvals need to know of a tenant's members: an email address and a Slack identity to reach
 * them, a name to show, and the groups policy rules name as approvers. Admins maintain them.
 */
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import { BrokerError, notFound } from "../errors.js";
import type { Store } from "../store/database.js";
import type { TenantMembersTable } from "../store/schema.js";
import type { TenantQueries } from "./tenant-queries.js";

export type MemberProfilePatch = {
  email?: string | null | undefined;
  display_name?: string | null | undefined;
  slack_user_id?: string | null | undefined;
  groups?: string[] | null | undefined;
};

type MemberProfileDeps = { store: Pick<Store, "transaction" | "lock">; queries: TenantQueries; audit: Pick<AuditLog, "appendIn"> };

/** A member as the API shows them. */
export const presentMember = (row: TenantMembersTable) => ({
  id: row.id,
  issuer: row.issuer,
  subject: row.subject,
  role: row.role,
  email: row.email,
  display_name: row.display_name,
  slack_user_id: row.slack_user_id,
  groups: row.groups ? (JSON.parse(row.groups) as string[]) : [],
  created_at: row.created_at,
});

/** The patch as columns: only the fields sent; groups deduplicated and sorted (an empty list is stored as none). */
function columnsOf(patch: MemberProfilePatch) {
  const columns: Partial<Pick<TenantMembersTable, "email" | "display_name" | "slack_user_id" | "groups">> = {};
  if (patch.email !== undefined) columns.email = patch.email;
  if (patch.display_name !== undefined) columns.display_name = patch.display_name;
  if (patch.slack_user_id !== undefined) columns.slack_user_id = patch.slack_user_id;
  if (patch.groups !== undefined) columns.groups = patch.groups && patch.groups.length > 0 ? JSON.stringify([...new Set(patch.groups)].sort()) : null;
  return columns;
}

export function createMemberProfiles({ store, queries, audit }: MemberProfileDeps) {
  return {
    list: async (tenantId: string) => (await queries.listMembers(tenantId)).map(presentMember),

    async update(tenantId: string, memberId: string, patch: MemberProfilePatch, actor: AuditActor) {
      return store.transaction(async (trx) => {
        // One Slack identity is one member: a button press must map to exactly one person.
        await store.lock(`member-profiles:${tenantId}`, trx);
        if (!(await queries.findMemberById(tenantId, memberId, trx))) throw notFound("member");
        if (patch.slack_user_id) {
          const members = await queries.listMembers(tenantId, trx);
          if (members.some((member) => member.id !== memberId && member.slack_user_id === patch.slack_user_id)) {
            throw new BrokerError("conflict", "another member of this tenant already has this Slack identity", { field: "slack_user_id" });
          }
        }
        const columns = columnsOf(patch);
        await queries.updateMemberProfile(tenantId, memberId, columns, trx);
        await audit.appendIn({ tenantId, actor, action: "member.updated", target: { type: "member", id: memberId }, data: { changed: Object.keys(columns).sort() } }, trx);
        return presentMember((await queries.findMemberById(tenantId, memberId, trx))!);
      });
    },
  };
}

export type MemberProfiles = ReturnType<typeof createMemberProfiles>;
