/**
 * What approvals need to know of a tenant's members: an email address and a Slack identity to reach
 * them, a name to show, and the groups policy rules name as approvers. Admins maintain names and
 * groups; each member sets their own email and Slack identity, because whoever controls those
 * receives that member's approval links and presses that member's Slack buttons: an admin who could
 * set another's would cast two votes of a two-person rule alone.
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

/** The operator changing a profile: their own member id and role in the tenant. */
export type MemberEditor = { memberId: string; role: TenantMembersTable["role"]; actor: AuditActor };

/** The fields that reach a person and act as them: only that person sets them. */
const CONTACT_FIELDS = ["email", "slack_user_id"] as const;

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

/** Refuses what this editor may not change: another member's contact fields, or (for a viewer) names and groups. */
function checkEditor(memberId: string, patch: MemberProfilePatch, editor: MemberEditor) {
  const contacts = CONTACT_FIELDS.filter((field) => patch[field] !== undefined);
  if (contacts.length > 0 && editor.memberId !== memberId) {
    throw new BrokerError("forbidden", "members set their own contact fields (email, slack_user_id): only that member may change them", { fields: contacts });
  }
  const managed = (["display_name", "groups"] as const).filter((field) => patch[field] !== undefined);
  if (managed.length > 0 && editor.role !== "admin") {
    throw new BrokerError("forbidden", "display_name and groups need the admin role in this tenant", { fields: managed });
  }
}

/** Contact fields as they were and as they are now (emails and Slack ids are not secrets; who changed them matters). */
function contactChanges(before: TenantMembersTable, columns: ReturnType<typeof columnsOf>) {
  const changes: Record<string, { from: string | null; to: string | null }> = {};
  for (const field of CONTACT_FIELDS) {
    const to = columns[field];
    if (to !== undefined && to !== before[field]) changes[field] = { from: before[field], to };
  }
  return changes;
}

export function createMemberProfiles({ store, queries, audit }: MemberProfileDeps) {
  return {
    list: async (tenantId: string) => (await queries.listMembers(tenantId)).map(presentMember),

    async update(tenantId: string, memberId: string, patch: MemberProfilePatch, editor: MemberEditor) {
      return store.transaction(async (trx) => {
        // One Slack identity is one member: a button press must map to exactly one person.
        await store.lock(`member-profiles:${tenantId}`, trx);
        const before = await queries.findMemberById(tenantId, memberId, trx);
        if (!before) throw notFound("member");
        checkEditor(memberId, patch, editor);
        if (patch.slack_user_id) {
          const members = await queries.listMembers(tenantId, trx);
          if (members.some((member) => member.id !== memberId && member.slack_user_id === patch.slack_user_id)) {
            throw new BrokerError("conflict", "another member of this tenant already has this Slack identity", { field: "slack_user_id" });
          }
        }
        const columns = columnsOf(patch);
        await queries.updateMemberProfile(tenantId, memberId, columns, trx);
        const data = { changed: Object.keys(columns).sort(), ...contactChanges(before, columns) };
        await audit.appendIn({ tenantId, actor: editor.actor, action: "member.updated", target: { type: "member", id: memberId }, data }, trx);
        return presentMember((await queries.findMemberById(tenantId, memberId, trx))!);
      });
    },
  };
}

export type MemberProfiles = ReturnType<typeof createMemberProfiles>;
