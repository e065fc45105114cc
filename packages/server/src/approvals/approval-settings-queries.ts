import type { Executor, Store } from "../store/database.js";
import type { ApprovalSettingsTable } from "../store/schema.js";
import type { ApprovalChannelKind } from "./approval.js";

export type ApprovalSettings = { channels: ApprovalChannelKind[]; slackConnectionId: string | null; slackChannel: string | null; updatedAt: string | null; updatedBy: string | null };

export const NO_SETTINGS: ApprovalSettings = { channels: [], slackConnectionId: null, slackChannel: null, updatedAt: null, updatedBy: null };

/** Every query on `approval_settings` (a tenant's approval channels), bound to the store; a transaction may be passed last. */
export function createApprovalSettingsQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    async find(tenantId: string, db: Executor = storeDb): Promise<ApprovalSettings> {
      const row = await db.selectFrom("approval_settings").selectAll().where("tenant_id", "=", tenantId).executeTakeFirst();
      if (!row) return NO_SETTINGS;
      return { channels: JSON.parse(row.channels) as ApprovalChannelKind[], slackConnectionId: row.slack_connection_id, slackChannel: row.slack_channel, updatedAt: row.updated_at, updatedBy: row.updated_by };
    },

    upsert: (row: ApprovalSettingsTable, db: Executor = storeDb) =>
      db
        .insertInto("approval_settings")
        .values(row)
        .onConflict((oc) => oc.column("tenant_id").doUpdateSet({ channels: row.channels, slack_connection_id: row.slack_connection_id, slack_channel: row.slack_channel, updated_at: row.updated_at, updated_by: row.updated_by }))
        .execute(),
  };
}

export type ApprovalSettingsQueries = ReturnType<typeof createApprovalSettingsQueries>;
