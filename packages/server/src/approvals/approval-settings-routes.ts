/** `GET/PUT /v1/approval-settings`: a tenant's default approval channels and its Slack connection and channel. */
import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { BrokerError } from "../errors.js";
import { errorResponses, StringEnum, Timestamp, Uuid } from "../http/schemas.js";
import type { ApprovalSettings } from "./approval-settings-queries.js";
import type { ApprovalSettingsService } from "./approval-settings-service.js";

const Channels = Type.Array(StringEnum(["slack", "email"] as const), {
  uniqueItems: true,
  maxItems: 2,
  description: "Where approvals go besides the console when their policy rule names no channels (none for approvals the end user decides)",
});
/** A Slack channel id (C…, G…) or a channel name with or without its #. */
const SlackChannel = Type.String({ pattern: "^(?:[CG][A-Z0-9]{8,20}|#?[a-z0-9][a-z0-9._-]{0,79})$", description: "A channel id (C024BE91L) or name (#approvals) the Slack app is a member of" });
const SlackTarget = Type.Object({ connected_account_id: Uuid, channel: SlackChannel }, { additionalProperties: false });

const Settings = Type.Object(
  {
    channels: Channels,
    slack: Type.Union([SlackTarget, Type.Null()], { description: "The shared Slack connection approval messages are posted through, and the channel" }),
    updated_at: Type.Union([Timestamp, Type.Null()]),
    updated_by: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: "ApprovalSettings" },
);

const present = (settings: ApprovalSettings) => ({
  channels: settings.channels,
  slack: settings.slackConnectionId && settings.slackChannel ? { connected_account_id: settings.slackConnectionId, channel: settings.slackChannel } : null,
  updated_at: settings.updatedAt,
  updated_by: settings.updatedBy,
});

export function registerApprovalSettingsRoutes(app: App, deps: { approvalSettingsService: ApprovalSettingsService }) {
  const tags = ["approvals"];
  app.get(
    "/v1/approval-settings",
    { config: { credentials: ["operator"], role: "admin" }, schema: { tags, summary: "The tenant's approval channels", response: { 200: Settings, ...errorResponses(401, 403) } } },
    async (request) => present(await deps.approvalSettingsService.get(request.credential.tenantId)),
  );

  app.put(
    "/v1/approval-settings",
    {
      config: { credentials: ["operator"], role: "admin" },
      schema: {
        tags,
        summary: "Set the tenant's approval channels and Slack connection",
        description:
          "`slack` is required when `channels` names slack. Its connected account must be the tenant's own shared, active Slack connection: 404 for an unknown one " +
          "(or another tenant's), 422 credential_mismatch for another provider's or an end user's, 422 connection_unusable for an expired or revoked one. Audited as `approval_settings.updated`.",
        body: Type.Object({ channels: Channels, slack: Type.Optional(Type.Union([SlackTarget, Type.Null()])) }, { additionalProperties: false }),
        response: { 200: Settings, ...errorResponses(400, 401, 403, 404, 415, 422) },
      },
    },
    async (request) => {
      const { credential } = request;
      if (credential.kind !== "operator") throw new BrokerError("forbidden", "only a tenant member sets approval channels");
      const { channels, slack } = request.body;
      const input = { channels, slack: slack ? { connectionId: slack.connected_account_id, channel: slack.channel } : null };
      const saved = await deps.approvalSettingsService.put(credential.tenantId, input, { type: "operator", id: `${credential.issuer}|${credential.subject}` });
      return present(saved);
    },
  );
}
