/**
 * A tenant's approval channels: where approvals go besides the console when their policy rule names
 * no channels, and which Slack connection and channel the Slack channel posts through. The Slack
 * connection must be the tenant's own, shared (not an end user's), active Slack connection.
 */
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { Store } from "../store/database.js";
import type { ApprovalChannelKind } from "./approval.js";
import type { ApprovalSettingsQueries } from "./approval-settings-queries.js";

/** The built-in provider id of Slack (`slack` is its alias). */
export const SLACK_PROVIDER_ID = "chat";

export type ApprovalSettingsInput = { channels: ApprovalChannelKind[]; slack: { connectionId: string; channel: string } | null };

/** What the settings need to know of a connection. */
export type ConnectionSummary = { provider: string; status: string; endUserId: string | null };

type ApprovalSettingsServiceDeps = {
  store: Pick<Store, "transaction">;
  settings: ApprovalSettingsQueries;
  audit: Pick<AuditLog, "appendIn">;
  clock: Clock;
  /** The tenant's connection by id (undefined for none, or another tenant's). */
  findConnection: (tenantId: string, connectionId: string) => Promise<ConnectionSummary | undefined>;
};

const field = (path: string, message: string) => ({ fields: [{ location: "body", field: path, message }] });

export function createApprovalSettingsService({ store, settings, audit, clock, findConnection }: ApprovalSettingsServiceDeps) {
  async function assertSlackConnection(tenantId: string, connectionId: string): Promise<void> {
    const connection = await findConnection(tenantId, connectionId);
    if (!connection) throw notFound("connected account");
    if (connection.provider !== SLACK_PROVIDER_ID) {
      throw new BrokerError("credential_mismatch", `the connected account belongs to provider "${connection.provider}", not Slack`, { reason: "provider" });
    }
    if (connection.endUserId !== null) {
      throw new BrokerError("credential_mismatch", "the connected account belongs to an end user; approvals post through a shared Slack connection", { reason: "end_user" });
    }
    if (connection.status !== "active") {
      throw new BrokerError("connection_unusable", `the connected account is ${connection.status}; an operator must reconnect it`, { connection_status: connection.status, reconnect_required: true });
    }
  }

  return {
    get: (tenantId: string) => settings.find(tenantId),

    async put(tenantId: string, input: ApprovalSettingsInput, actor: AuditActor) {
      if (input.channels.includes("slack") && !input.slack) {
        throw new BrokerError("invalid_request", "channels names slack, so slack must name a connected account and a channel", field("/slack", "required when channels includes slack"));
      }
      if (input.slack) await assertSlackConnection(tenantId, input.slack.connectionId);
      const at = clock.now().toISOString();
      const row = {
        tenant_id: tenantId,
        channels: JSON.stringify(input.channels),
        slack_connection_id: input.slack?.connectionId ?? null,
        slack_channel: input.slack?.channel ?? null,
        updated_at: at,
        updated_by: actor.id,
      };
      await store.transaction(async (trx) => {
        await settings.upsert(row, trx);
        await audit.appendIn({
          tenantId,
          actor,
          action: "approval_settings.updated",
          target: { type: "approval_settings", id: tenantId },
          data: { channels: input.channels, slack_connection_id: row.slack_connection_id, slack_channel: row.slack_channel },
        }, trx);
      });
      return settings.find(tenantId);
    },
  };
}

export type ApprovalSettingsService = ReturnType<typeof createApprovalSettingsService>;
