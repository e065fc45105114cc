/**
 * `chat`: Slack (OAuth v2 with optional token rotation, Web API), as data checked against the
 * published catalogue schema. What data cannot say is in chat-hooks.ts.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import { chatMoreTools } from "./chat-more-tools.js";

export const chatDeclaration: ProviderDeclaration = {
  id: "chat",
  display_name: "Slack",
  api_base_url: "https://slack.com/api",
  auth: {
    type: "oauth2",
    authorize_url: "https://slack.com/oauth/v2/authorize",
    token_url: "https://slack.com/api/oauth.v2.access",
    revocation_url: "https://slack.com/api/auth.revoke",
    revocation_style: "bearer",
    // channels:history, users:read and reactions:write serve the tools past the first two.
    scopes: ["channels:read", "chat:write", "channels:history", "users:read", "reactions:write"],
    scope_separator: ",",
    invalid_grant_errors: ["invalid_refresh_token", "invalid_grant", "token_revoked"],
    extra_token_types: ["bot", "user"],
  },
};

export const chatTools: ToolDeclaration[] = [
  {
    name: "chat.list_channels",
    description: "List Slack conversations (channels) in the connected workspace.",
    arguments_schema: {
      type: "object",
      properties: {
        limit: { type: "integer", minimum: 1, maximum: 1000, description: "How many channels at most (Slack's default 100)" },
        cursor: { type: "string", maxLength: 500, description: "next_cursor of a previous call" },
        types: { type: "string", pattern: "^(public_channel|private_channel|mpim|im)(,(public_channel|private_channel|mpim|im))*$", description: "Comma-separated kinds: public_channel, private_channel, mpim, im" },
        exclude_archived: { type: "boolean", description: "Leave out archived channels" },
      },
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    request: {
      method: "GET",
      path: "/conversations.list",
      query: { limit: "{limit}", cursor: "{cursor}", types: "{types}", exclude_archived: "{exclude_archived}" },
    },
    response: {
      schema: { type: "object", properties: { channels: { type: "array", items: { type: "object" } }, response_metadata: { type: ["object", "null"] } } },
    },
  },
  {
    name: "chat.post_message",
    description: "Post a message to a Slack channel.",
    arguments_schema: {
      type: "object",
      properties: {
        channel: { type: "string", minLength: 1, maxLength: 200, description: "Channel id (C…) or name" },
        text: { type: "string", minLength: 1, maxLength: 40000, description: "The message, in Slack mrkdwn" },
        thread_ts: { type: "string", pattern: "^\\d+\\.\\d+$", description: "Reply in this thread" },
      },
      required: ["channel", "text"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    // Slack channel names are lower-case and ids upper-case: a name in any case is the same channel.
    case_insensitive_arguments: ["channel"],
    request: { method: "POST", path: "/chat.postMessage", body: { channel: "{channel}", text: "{text}", thread_ts: "{thread_ts}" } },
    response: {
      schema: { type: "object", properties: { message: { type: ["object", "null"] } } },
      fields: { channel: "/channel", ts: "/ts", text: "/message/text" },
    },
  },
  ...chatMoreTools,
];
