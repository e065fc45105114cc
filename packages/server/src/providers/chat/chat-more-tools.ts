/**
 * Slack tools beyond listing channels and posting: reading a channel's history, looking up a
 * user, reacting to and editing messages. Write methods go form-encoded, as Slack's description
 * gives them.
 */
import type { ToolDeclaration } from "../declaration-schema.js";

const channelId = { type: "string", pattern: "^[CGD][A-Z0-9]{8,20}$", description: "Channel id (C…, G… or D…; chat.list_channels lists them)" };
const ts = { type: "string", pattern: "^\\d{10}\\.\\d{6}$", description: "Message timestamp (ts), e.g. 1700000000.000100" };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false });

export const chatMoreTools: ToolDeclaration[] = [
  {
    name: "chat.get_channel_history",
    title: "Read a Slack channel's messages",
    description: "Read the latest messages of a Slack channel the app is in, newest first (text, author, ts, thread replies count); page with cursor.",
    arguments_schema: object(
      {
        channel: channelId,
        limit: { type: "integer", minimum: 1, maximum: 200, description: "Messages per page (default 100)" },
        cursor: { type: "string", maxLength: 500, description: "next_cursor of a previous call" },
        oldest: { type: "number", minimum: 0, description: "Only messages after this Unix time (seconds)" },
        latest: { type: "number", minimum: 0, description: "Only messages before this Unix time (seconds)" },
      },
      ["channel"],
    ),
    risk: "low",
    side_effect: "read",
    scopes: ["channels:history"],
    request: { method: "GET", path: "/conversations.history", query: { channel: "{channel}", limit: "{limit}", cursor: "{cursor}", oldest: "{oldest}", latest: "{latest}" } },
    response: { schema: { type: "object", properties: { messages: { type: "array", items: { type: "object" } }, response_metadata: { type: ["object", "null"] } } } },
  },
  {
    name: "chat.get_user_info",
    title: "Look up a Slack user",
    description: "Get a Slack user's name, display name, title, time zone and whether they are a bot, by user id (U…).",
    arguments_schema: object({ user: { type: "string", pattern: "^[UW][A-Z0-9]{8,20}$", description: "User id (U… or W…)" } }, ["user"]),
    risk: "low",
    side_effect: "read",
    scopes: ["users:read"],
    request: { method: "GET", path: "/users.info", query: { user: "{user}" } },
    response: {
      schema: { type: "object", properties: { user: { type: "object" } } },
      fields: { id: "/user/id", name: "/user/name", real_name: "/user/real_name", display_name: "/user/profile/display_name", title: "/user/profile/title", tz: "/user/tz", is_bot: "/user/is_bot", deleted: "/user/deleted" },
    },
  },
  {
    name: "chat.add_reaction",
    title: "React to a Slack message",
    description: "Add an emoji reaction to a Slack message, shown to everyone in the channel.",
    arguments_schema: object({ channel: channelId, timestamp: ts, name: { type: "string", pattern: "^[a-z0-9_+'-]{1,100}$", description: "Emoji name without colons, e.g. thumbsup" } }, ["channel", "timestamp", "name"]),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: ["reactions:write"],
    request: { method: "POST", path: "/reactions.add", body_encoding: "form", body: { channel: "{channel}", timestamp: "{timestamp}", name: "{name}" } },
  },
  {
    name: "chat.update_message",
    title: "Edit a Slack message",
    description: "Replace the text of a message the app posted. Everyone in the channel sees the new text, marked edited; the old text is not kept.",
    arguments_schema: object({ channel: channelId, ts, text: { type: "string", minLength: 1, maxLength: 40000, description: "New text (Slack mrkdwn)" } }, ["channel", "ts", "text"]),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: ["chat:write"],
    request: { method: "POST", path: "/chat.update", body_encoding: "form", body: { channel: "{channel}", ts: "{ts}", text: "{text}" } },
    response: { schema: { type: "object", properties: { message: { type: ["object", "null"] } } }, fields: { channel: "/channel", ts: "/ts", text: "/text" } },
  },
];

export const chatExamples: Record<string, Record<string, unknown>> = {
  "chat.list_channels": { limit: 20, types: "public_channel,private_channel", exclude_archived: true },
  "chat.post_message": { channel: "C024BE91L", text: "Deploy finished :rocket:" },
  "chat.get_channel_history": { channel: "C024BE91L", limit: 20 },
  "chat.get_user_info": { user: "U061F7AUR" },
  "chat.add_reaction": { channel: "C024BE91L", timestamp: "1700000000.000001", name: "thumbsup" },
  "chat.update_message": { channel: "C024BE91L", ts: "1700000000.000001", text: "Deploy finished (v2.4) :rocket:" },
};
