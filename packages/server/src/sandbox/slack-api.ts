/** Web API methods of the fake Slack (https://slack.com/api/<method>): HTTP 200, `ok` says the outcome. */
import type { ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { bearerToken, header, sendJson, type FakeRequest } from "./http.js";
import type { ProviderCore } from "./provider-core.js";
import { blocksOf, handleMoreSlackMethods, MORE_NEEDED_SCOPES, MORE_SLACK_METHODS } from "./slack-more-methods.js";
import type { SlackUser } from "./types.js";

export const SLACK_APP = { appId: "A0KRD7HC3", botUserId: "U0KRQLJ9H", botId: "B0KRQLJ9J", botName: "toolbroker" };

type Channel = { id: string; name: string; isPrivate: boolean; isMember: boolean; isGeneral: boolean; topic: string; purpose: string; created: number };
type Caller = { user: SlackUser; scopes: string[] };

const CHANNELS: Channel[] = [
  { id: "C024BE91L", name: "general", isPrivate: false, isMember: true, isGeneral: true, topic: "Company-wide announcements", purpose: "Everyone", created: 1449252889 },
  { id: "C024BE92M", name: "random", isPrivate: false, isMember: true, isGeneral: false, topic: "Non-work banter", purpose: "Water cooler", created: 1449252890 },
  { id: "C024BE93N", name: "announcements", isPrivate: false, isMember: false, isGeneral: false, topic: "", purpose: "Read-only news", created: 1449252891 },
  { id: "C061EG9SL", name: "devs", isPrivate: true, isMember: true, isGeneral: false, topic: "Builds", purpose: "Engineering", created: 1449252892 },
  { id: "C061EG9T2", name: "secret-project", isPrivate: true, isMember: false, isGeneral: false, topic: "", purpose: "", created: 1449252893 },
];
/** A channel's id and name, by its id (for the interaction payloads a button press sends). */
export function slackChannelById(id: string): { id: string; name: string } | undefined {
  const channel = CHANNELS.find((candidate) => candidate.id === id);
  return channel && { id: channel.id, name: channel.name };
}

/** Scopes a method needs, checked only when the token was granted some scopes. */
const NEEDED_SCOPE: Record<string, string> = { "conversations.list": "channels:read", "chat.postMessage": "chat:write", ...MORE_NEEDED_SCOPES };

export type SlackApiContext = { core: ProviderCore<SlackUser>; now: () => number; messages: Map<string, unknown[]> };

/** Slack takes the token as a Bearer header, or as a `token` argument in a form body or query (never in JSON). */
export function slackToken(req: FakeRequest): string | undefined {
  const fromHeader = bearerToken(header(req, "authorization"));
  if (fromHeader) return fromHeader;
  const isJson = String(header(req, "content-type") ?? "").includes("application/json");
  return (isJson ? undefined : req.fields.token) ?? req.query.token;
}

export async function handleSlackMethod(ctx: SlackApiContext, method: string, req: FakeRequest, res: ServerResponse): Promise<void> {
  if (await ctx.core.interceptApi(req, res)) return;
  const token = slackToken(req);
  const credential = header(req, "authorization") ?? token;
  const reply = (body: Record<string, unknown>, caller?: Caller) => {
    const headers: Record<string, string> = { "x-slack-req-id": randomUUID().replaceAll("-", ""), ...ctx.core.echoHeaders(credential) };
    if (caller) {
      headers["x-oauth-scopes"] = caller.scopes.join(",");
      headers["x-accepted-oauth-scopes"] = NEEDED_SCOPE[method] ?? "";
    }
    sendJson(res, 200, body.ok ? ctx.core.echoInto(body, credential) : body, headers);
  };
  if (!["auth.test", "conversations.list", "chat.postMessage", ...MORE_SLACK_METHODS].includes(method)) {
    return reply({ ok: false, error: "unknown_method", req_method: method });
  }
  const auth = ctx.core.state.authenticate(token);
  if (!auth.ok) {
    const error = { missing: "not_authed", unknown: "invalid_auth", expired: "token_expired", revoked: "token_revoked" }[auth.reason];
    return reply({ ok: false, error });
  }
  const caller: Caller = { user: auth.grant.user, scopes: auth.grant.scope.split(" ").filter(Boolean) };
  const needed = NEEDED_SCOPE[method];
  if (needed && caller.scopes.length > 0 && !caller.scopes.includes(needed)) {
    return reply({ ok: false, error: "missing_scope", needed, provided: caller.scopes.join(",") }, caller);
  }
  const args: Record<string, unknown> = { ...req.query, ...(isObject(req.body) ? req.body : {}) };
  if (method === "auth.test") return reply(authTest(caller), caller);
  if (MORE_SLACK_METHODS.includes(method)) {
    const context = { messages: ctx.messages, channelIds: new Set(CHANNELS.filter((channel) => channel.isMember).map((channel) => channel.id)), botUserId: SLACK_APP.botUserId };
    return reply(handleMoreSlackMethods(method, args, caller, context), caller);
  }
  if (method === "conversations.list") return reply(listConversations(args, caller), caller);
  const posted = postMessage(ctx, args, caller);
  const contentType = header(req, "content-type") ?? "";
  if (posted.ok && contentType.includes("application/json") && !/charset=/i.test(contentType)) {
    return reply({ ...posted, warning: "missing_charset", response_metadata: { warnings: ["missing_charset"] } }, caller);
  }
  reply(posted, caller);
}

function authTest(caller: Caller) {
  return {
    ok: true,
    url: `https://${caller.user.teamDomain}.slack.com/`,
    team: caller.user.teamName,
    user: SLACK_APP.botName,
    team_id: caller.user.teamId,
    user_id: SLACK_APP.botUserId,
    bot_id: SLACK_APP.botId,
    is_enterprise_install: false,
  };
}

function listConversations(args: Record<string, unknown>, caller: Caller): Record<string, unknown> {
  const types = String(args.types ?? "public_channel").split(",").map((type) => type.trim());
  const unknownType = types.find((type) => !["public_channel", "private_channel", "mpim", "im"].includes(type));
  if (unknownType) return { ok: false, error: "invalid_types" };
  const limit = Number(args.limit ?? 100);
  if (!Number.isInteger(limit) || limit < 1) return { ok: false, error: "invalid_limit" };
  const visible = CHANNELS.filter(
    (channel) => (channel.isPrivate ? types.includes("private_channel") && channel.isMember : types.includes("public_channel")),
  );
  let start = 0;
  if (args.cursor) {
    const decoded = Buffer.from(String(args.cursor), "base64").toString("utf8");
    start = visible.findIndex((channel) => `team:${channel.id}` === decoded);
    if (start < 0) return { ok: false, error: "invalid_cursor" };
  }
  const page = visible.slice(start, start + Math.min(limit, 1000));
  const next = visible[start + page.length];
  return {
    ok: true,
    channels: page.map((channel) => channelJson(channel, caller)),
    response_metadata: { next_cursor: next ? Buffer.from(`team:${next.id}`).toString("base64") : "" },
  };
}

function postMessage(ctx: SlackApiContext, args: Record<string, unknown>, caller: Caller): Record<string, unknown> {
  const wanted = String(args.channel ?? "").replace(/^#/, "");
  const channel = CHANNELS.find((candidate) => candidate.id === wanted || candidate.name === wanted);
  if (!channel || (channel.isPrivate && !channel.isMember)) return { ok: false, error: "channel_not_found" };
  if (!channel.isMember && !caller.scopes.includes("chat:write.public")) return { ok: false, error: "not_in_channel" };
  const text = typeof args.text === "string" ? args.text : "";
  const blocks = blocksOf(args.blocks);
  if (blocks === "invalid") return { ok: false, error: "invalid_blocks" };
  if (!text && !blocks && !args.attachments) return { ok: false, error: "no_text" };
  const sent = ctx.messages.get(channel.id) ?? [];
  const ts = `${Math.floor(ctx.now() / 1000)}.${String(sent.length + 1).padStart(6, "0")}`;
  const message = {
    user: SLACK_APP.botUserId,
    type: "message",
    ts,
    bot_id: SLACK_APP.botId,
    app_id: SLACK_APP.appId,
    text,
    ...(blocks ? { blocks } : {}),
    team: caller.user.teamId,
    bot_profile: { id: SLACK_APP.botId, app_id: SLACK_APP.appId, name: SLACK_APP.botName, deleted: false, team_id: caller.user.teamId },
    ...(args.thread_ts ? { thread_ts: String(args.thread_ts), parent_user_id: caller.user.id } : {}),
  };
  sent.push(message);
  ctx.messages.set(channel.id, sent);
  return { ok: true, channel: channel.id, ts, message };
}

function channelJson(channel: Channel, caller: Caller) {
  return {
    id: channel.id,
    name: channel.name,
    is_channel: true,
    is_group: false,
    is_im: false,
    is_mpim: false,
    is_private: channel.isPrivate,
    created: channel.created,
    is_archived: false,
    is_general: channel.isGeneral,
    unlinked: 0,
    name_normalized: channel.name,
    is_shared: false,
    is_org_shared: false,
    is_ext_shared: false,
    context_team_id: caller.user.teamId,
    shared_team_ids: [caller.user.teamId],
    creator: caller.user.id,
    is_member: channel.isMember,
    topic: { value: channel.topic, creator: channel.topic ? caller.user.id : "", last_set: channel.topic ? channel.created : 0 },
    purpose: { value: channel.purpose, creator: channel.purpose ? caller.user.id : "", last_set: channel.purpose ? channel.created : 0 },
    previous_names: [],
    num_members: channel.isGeneral ? 42 : 7,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return Boolean(value) && typeof value === "object" && !Array.isArray(value);
}
