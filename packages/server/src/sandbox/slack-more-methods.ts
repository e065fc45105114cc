/**
 * More Web API methods of the fake Slack, for the chat tools past the first two:
 * conversations.history, users.info, reactions.add and chat.update (text and Block Kit blocks). Each channel's messages are
 * the ones posted through the fake, after one seeded message the app posted in #general.
 */
import type { SlackUser } from "./types.js";

type Caller = { user: SlackUser; scopes: string[] };
type Message = Record<string, any>;
type Args = Record<string, unknown>;

/** The app's seeded message in #general (channel id C024BE91L), for reactions and edits. */
export const SEEDED_MESSAGE = { channel: "C024BE91L", ts: "1700000000.000001" };

export const MORE_SLACK_METHODS = ["conversations.history", "users.info", "reactions.add", "chat.update"];
export const MORE_NEEDED_SCOPES: Record<string, string> = {
  "conversations.history": "channels:history",
  "users.info": "users:read",
  "reactions.add": "reactions:write",
  "chat.update": "chat:write",
};

export function seedSlackMessages(messages: Map<string, unknown[]>, app: { botUserId: string; botId: string; appId: string }) {
  messages.set(SEEDED_MESSAGE.channel, [{ type: "message", user: app.botUserId, bot_id: app.botId, app_id: app.appId, text: "Deploy started", ts: SEEDED_MESSAGE.ts }]);
}

export function handleMoreSlackMethods(
  method: string,
  args: Args,
  caller: Caller,
  context: { messages: Map<string, unknown[]>; channelIds: ReadonlySet<string>; botUserId: string },
): Record<string, unknown> {
  const channelMessages = () => {
    const channel = String(args.channel ?? "");
    return context.channelIds.has(channel) ? ((context.messages.get(channel) ?? []) as Message[]) : undefined;
  };
  if (method === "users.info") {
    const id = String(args.user ?? "");
    if (id !== caller.user.id && id !== context.botUserId) return { ok: false, error: "user_not_found" };
    const bot = id === context.botUserId;
    const name = bot ? "toolbroker" : caller.user.name;
    return {
      ok: true,
      user: { id, team_id: caller.user.teamId, name, deleted: false, real_name: name, tz: "Europe/London", is_bot: bot, profile: { display_name: name, real_name: name, title: bot ? "" : "Pitcher" } },
    };
  }
  const messages = channelMessages();
  if (!messages) return { ok: false, error: "channel_not_found" };
  if (method === "conversations.history") {
    const limit = Math.min(Number(args.limit ?? 100) || 100, 999);
    const oldest = Number(args.oldest ?? 0);
    const latest = args.latest === undefined ? Infinity : Number(args.latest);
    const newestFirst = messages.filter((message) => Number(message.ts) > oldest && Number(message.ts) < latest).reverse();
    return { ok: true, messages: newestFirst.slice(0, limit), has_more: newestFirst.length > limit, pin_count: 0, channel_actions_ts: null, channel_actions_count: 0, response_metadata: { next_cursor: "" } };
  }
  const ts = String(method === "reactions.add" ? (args.timestamp ?? "") : (args.ts ?? ""));
  const message = messages.find((candidate) => candidate.ts === ts);
  if (!message) return { ok: false, error: "message_not_found" };
  if (method === "reactions.add") {
    const name = String(args.name ?? "");
    if (!name) return { ok: false, error: "invalid_name" };
    const reactions: { name: string; users: string[]; count: number }[] = (message.reactions ??= []);
    const reaction = reactions.find((candidate) => candidate.name === name);
    if (reaction?.users.includes(context.botUserId)) return { ok: false, error: "already_reacted" };
    if (reaction) reaction.users.push(context.botUserId);
    else reactions.push({ name, users: [context.botUserId], count: 0 });
    for (const each of reactions) each.count = each.users.length;
    return { ok: true };
  }
  // chat.update: only the app's own messages.
  if (message.user !== context.botUserId) return { ok: false, error: "cant_update_message" };
  const text = typeof args.text === "string" ? args.text : "";
  const blocks = blocksOf(args.blocks);
  if (blocks === "invalid") return { ok: false, error: "invalid_blocks" };
  if (!text && !blocks) return { ok: false, error: "no_text" };
  message.text = text;
  // As Slack does: blocks given replace the message's; a text-only update leaves a text-only message.
  if (blocks) message.blocks = blocks;
  else delete message.blocks;
  message.edited = { user: context.botUserId, ts: message.ts };
  return { ok: true, channel: args.channel, ts, text, message: { ...message } };
}

/** `blocks` comes as a JSON array, or as its JSON text in a form body; anything else is Slack's invalid_blocks. */
export function blocksOf(value: unknown): unknown[] | undefined | "invalid" {
  if (value === undefined || value === "") return undefined;
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return "invalid";
    }
  }
  return Array.isArray(parsed) && parsed.every((item) => Boolean(item) && typeof item === "object" && !Array.isArray(item)) ? parsed : "invalid";
}
