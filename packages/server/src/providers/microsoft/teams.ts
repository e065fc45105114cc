/**
 * `microsoft_teams`: teams, channels and chats through Microsoft Graph v1.0. Reading channel
 * messages needs ChannelMessage.Read.All, which a tenant administrator must consent to.
 * Graph lists at most 50 messages per page and takes no $skip on messages.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import type { ProviderHooks } from "../provider-types.js";
import type { UpstreamRequest } from "../upstream-client.js";
import { GRAPH_BASE_URL, GRAPH_DESCRIPTION, GRAPH_IDENTITY, TENANT_NOTE, collectionOf, graphAuth, scopesOf, graphId, top } from "./graph.js";
import { TEAMS_ICON } from "./icons.js";


const MESSAGE_FIELDS = {
  id: "/id",
  created_at: "/createdDateTime",
  from: "/from/user/displayName",
  from_id: "/from/user/id",
  subject: "/subject",
  body: "/body/content",
  body_type: "/body/contentType",
  message_type: "/messageType",
  reply_to_id: "/replyToId",
  web_url: "/webUrl",
};

const teamId = graphId("The team id (from list_joined_teams)");
const channelId = graphId("The channel id, like 19:…@thread.tacv2 (from list_channels)");
const chatId = graphId("The chat id, like 19:…@thread.v2 (from list_chats)");
const messageTop = top(50, "messages");
const content = { type: "string", minLength: 1, maxLength: 28000, description: "The message" };
const contentType = { type: "string", enum: ["text", "html"], description: "How content is written (default text)" };
const messageBody = { body: { contentType: "{content_type}", content: "{content}" } };

const tools: ToolDeclaration[] = [
  {
    name: "microsoft_teams.list_joined_teams",
    title: "List my teams",
    description: "List the teams the connected user is a member of.",
    arguments_schema: { type: "object", properties: {}, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["Team.ReadBasic.All"],
    request: { method: "GET", path: "/me/joinedTeams" },
    response: { schema: collectionOf(), root: "/value", fields: { id: "/id", name: "/displayName", description: "/description", is_archived: "/isArchived", web_url: "/webUrl" } },
  },
  {
    name: "microsoft_teams.list_channels",
    title: "List channels",
    description: "List the channels of a team that the user can see.",
    arguments_schema: { type: "object", properties: { team_id: teamId }, required: ["team_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["Channel.ReadBasic.All"],
    request: { method: "GET", path: "/teams/{team_id}/channels" },
    response: {
      schema: collectionOf(),
      root: "/value",
      fields: { id: "/id", name: "/displayName", description: "/description", membership: "/membershipType", web_url: "/webUrl" },
    },
  },
  {
    name: "microsoft_teams.list_channel_messages",
    title: "Read a channel",
    description: "List a channel's top-level messages, newest first (replies with list_message_replies). Bodies are HTML as Teams stores them.",
    arguments_schema: { type: "object", properties: { team_id: teamId, channel_id: channelId, top: messageTop }, required: ["team_id", "channel_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["ChannelMessage.Read.All"],
    request: { method: "GET", path: "/teams/{team_id}/channels/{channel_id}/messages", query: { $top: "{top}" } },
    response: { schema: collectionOf(), root: "/value", fields: MESSAGE_FIELDS },
  },
  {
    name: "microsoft_teams.list_message_replies",
    title: "Read a thread",
    description: "List the replies to one channel message.",
    arguments_schema: {
      type: "object",
      properties: { team_id: teamId, channel_id: channelId, message_id: graphId("The top-level message's id"), top: messageTop },
      required: ["team_id", "channel_id", "message_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: ["ChannelMessage.Read.All"],
    request: { method: "GET", path: "/teams/{team_id}/channels/{channel_id}/messages/{message_id}/replies", query: { $top: "{top}" } },
    response: { schema: collectionOf(), root: "/value", fields: MESSAGE_FIELDS },
  },
  {
    name: "microsoft_teams.send_channel_message",
    title: "Post in a channel",
    description: "Post a new message in a channel, as the connected user, seen at once by everyone in the channel. An agent cannot delete it afterwards.",
    arguments_schema: {
      type: "object",
      properties: { team_id: teamId, channel_id: channelId, content, content_type: contentType, subject: { type: "string", maxLength: 255, description: "A subject line above the message" } },
      required: ["team_id", "channel_id", "content"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    scopes: ["ChannelMessage.Send"],
    request: { method: "POST", path: "/teams/{team_id}/channels/{channel_id}/messages", body: { ...messageBody, subject: "{subject}" } },
    response: { schema: { type: "object" }, fields: MESSAGE_FIELDS },
  },
  {
    name: "microsoft_teams.reply_to_channel_message",
    title: "Reply in a channel thread",
    description: "Reply to a channel message, as the connected user, seen at once by everyone in the channel. An agent cannot delete it afterwards.",
    arguments_schema: {
      type: "object",
      properties: { team_id: teamId, channel_id: channelId, message_id: graphId("The message replied to"), content, content_type: contentType },
      required: ["team_id", "channel_id", "message_id", "content"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    scopes: ["ChannelMessage.Send"],
    request: { method: "POST", path: "/teams/{team_id}/channels/{channel_id}/messages/{message_id}/replies", body: messageBody },
    response: { schema: { type: "object" }, fields: MESSAGE_FIELDS },
  },
  {
    name: "microsoft_teams.list_chats",
    title: "List chats",
    description: "List the user's one-on-one, group and meeting chats, with their topic and last update.",
    arguments_schema: { type: "object", properties: { top: top(50, "chats") }, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["Chat.ReadBasic"],
    request: { method: "GET", path: "/me/chats", query: { $top: "{top}" } },
    response: { schema: collectionOf(), root: "/value", fields: { id: "/id", topic: "/topic", chat_type: "/chatType", updated_at: "/lastUpdatedDateTime", web_url: "/webUrl" } },
  },
  {
    name: "microsoft_teams.list_chat_messages",
    title: "Read a chat",
    description: "List a chat's messages, newest first.",
    arguments_schema: { type: "object", properties: { chat_id: chatId, top: messageTop }, required: ["chat_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["Chat.Read"],
    request: { method: "GET", path: "/chats/{chat_id}/messages", query: { $top: "{top}" } },
    response: { schema: collectionOf(), root: "/value", fields: MESSAGE_FIELDS },
  },
  {
    name: "microsoft_teams.send_chat_message",
    title: "Send a chat message",
    description: "Send a message in a chat, as the connected user; its members see it at once. An agent cannot delete it afterwards.",
    arguments_schema: { type: "object", properties: { chat_id: chatId, content, content_type: contentType }, required: ["chat_id", "content"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    scopes: ["ChatMessage.Send"],
    request: { method: "POST", path: "/chats/{chat_id}/messages", body: messageBody },
    response: { schema: { type: "object" }, fields: MESSAGE_FIELDS },
  },
  {
    name: "microsoft_teams.list_team_members",
    title: "List team members",
    description: "List a team's members and their roles (owner, or none for a member).",
    arguments_schema: { type: "object", properties: { team_id: teamId }, required: ["team_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["TeamMember.Read.All"],
    request: { method: "GET", path: "/teams/{team_id}/members" },
    response: { schema: collectionOf(), root: "/value", fields: { id: "/id", name: "/displayName", roles: "/roles" } },
  },
];

const declaration: ProviderDeclaration = {
  id: "microsoft_teams",
  display_name: "Microsoft Teams",
  description: `Teams, channels and chats of a Microsoft 365 work or school account, through Microsoft Graph. ${TENANT_NOTE}`,
  icon: TEAMS_ICON,
  docs_url: "https://learn.microsoft.com/en-us/graph/api/resources/teams-api-overview?view=graph-rest-1.0",
  api_base_url: GRAPH_BASE_URL,
  auth: graphAuth(scopesOf(tools)),
  identity: GRAPH_IDENTITY,
};

type Json = Record<string, any>;

/** Teams takes `text` or `html`; without a contentType it would read the content as HTML. */
const defaultContentType = (built: UpstreamRequest, args: Json): UpstreamRequest => {
  const body = structuredClone(built.body as Json);
  body.body.contentType = args.content_type ?? "text";
  return { ...built, body };
};

const hooks: ProviderHooks = {
  tools: Object.fromEntries(
    ["microsoft_teams.send_channel_message", "microsoft_teams.reply_to_channel_message", "microsoft_teams.send_chat_message"].map((name) => [
      name,
      { request: (built, args) => defaultContentType(built, args) },
    ]),
  ),
};

const TEAM = "172b0cce-e65d-44ce-9a49-91d9f2e8493a";
const CHANNEL = "19:4a95f7d8db4c4e7fae857bcebe0623e6@thread.tacv2";

export const microsoftTeams: BuiltInProvider = {
  declaration,
  tools,
  hooks,
  vendorDescription: GRAPH_DESCRIPTION,
  examples: {
    "microsoft_teams.list_joined_teams": {},
    "microsoft_teams.list_channels": { team_id: TEAM },
    "microsoft_teams.list_channel_messages": { team_id: TEAM, channel_id: CHANNEL, top: 20 },
    "microsoft_teams.list_message_replies": { team_id: TEAM, channel_id: CHANNEL, message_id: "1616965872395", top: 20 },
    "microsoft_teams.send_channel_message": { team_id: TEAM, channel_id: CHANNEL, content: "The release is out.", subject: "Release 2.4" },
    "microsoft_teams.reply_to_channel_message": { team_id: TEAM, channel_id: CHANNEL, message_id: "1616965872395", content: "<b>Done</b>", content_type: "html" },
    "microsoft_teams.list_chats": { top: 20 },
    "microsoft_teams.list_chat_messages": { chat_id: "19:2da4c29f6d7041eca70b638b43d45437@thread.v2", top: 20 },
    "microsoft_teams.send_chat_message": { chat_id: "19:2da4c29f6d7041eca70b638b43d45437@thread.v2", content: "Running 5 minutes late." },
    "microsoft_teams.list_team_members": { team_id: TEAM },
  },
};
