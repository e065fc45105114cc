/** `chat`: Slack (OAuth v2 with optional token rotation, Web API). */
import { bearer, type ProviderDefinition, type ToolDefinition } from "../provider-types.js";
import type { UpstreamResponse } from "../upstream-client.js";

// Slack Web API errors come with HTTP 200 and `ok: false`; these mean the token is bad.
const AUTH_ERRORS = new Set(["invalid_auth", "not_authed", "token_expired", "token_revoked", "account_inactive"]);

function inspectSlackResponse(response: UpstreamResponse) {
  const body = response.body as { ok?: boolean; error?: string } | null;
  if (!body || typeof body !== "object" || body.ok !== false) return undefined;
  const error = body.error ?? "unknown_error";
  return { status: AUTH_ERRORS.has(error) ? 401 : 400, message: error };
}

const chatTools: ToolDefinition[] = [
  {
    name: "chat.list_channels",
    description: "List Slack conversations (channels) in the connected workspace.",
    argumentsSchema: {
      type: "object",
      properties: {
        limit: { type: "integer", minimum: 1, maximum: 1000 },
        cursor: { type: "string", maxLength: 500, description: "next_cursor of a previous call" },
        types: { type: "string", pattern: "^(public_channel|private_channel|mpim|im)(,(public_channel|private_channel|mpim|im))*$" },
        exclude_archived: { type: "boolean" },
      },
      additionalProperties: false,
    },
    risk: "low",
    sideEffect: "read",
    authModes: ["oauth2"],
    buildRequest: (args) => ({
      method: "GET",
      path: "/conversations.list",
      query: { limit: args.limit, cursor: args.cursor, types: args.types, exclude_archived: args.exclude_archived },
    }),
    responseSchema: {
      type: "object",
      properties: { channels: { type: "array", items: { type: "object" } }, response_metadata: { type: ["object", "null"] } },
    },
    mapResponse: ({ body }) => {
      const { channels = [], response_metadata } = body as { channels?: Record<string, unknown>[]; response_metadata?: { next_cursor?: string } };
      return {
        channels: channels.map((c) => ({ id: c.id, name: c.name, is_private: c.is_private, is_archived: c.is_archived, is_member: c.is_member, num_members: c.num_members })),
        next_cursor: response_metadata?.next_cursor || null,
      };
    },
  },
  {
    name: "chat.post_message",
    description: "Post a message to a Slack channel.",
    argumentsSchema: {
      type: "object",
      properties: {
        channel: { type: "string", minLength: 1, maxLength: 200, description: "Channel id (C…) or name" },
        text: { type: "string", minLength: 1, maxLength: 40000 },
        thread_ts: { type: "string", pattern: "^\\d+\\.\\d+$", description: "Reply in this thread" },
      },
      required: ["channel", "text"],
      additionalProperties: false,
    },
    risk: "low",
    sideEffect: "write",
    authModes: ["oauth2"],
    // Slack channel names are lower-case and ids upper-case: a name in any case is the same channel.
    caseInsensitiveArguments: ["/channel"],
    buildRequest: (args) => ({ method: "POST", path: "/chat.postMessage", body: { channel: args.channel, text: args.text, thread_ts: args.thread_ts } }),
    responseSchema: { type: "object", properties: { message: { type: ["object", "null"] } } },
    mapResponse: ({ body }) => {
      const { channel, ts, message } = body as { channel?: string; ts?: string; message?: { text?: string } };
      return { channel, ts, text: message?.text };
    },
  },
];

export const chatProvider: ProviderDefinition = {
  id: "chat",
  displayName: "Slack",
  authModes: ["oauth2"],
  apiBaseUrl: "https://slack.com/api",
  apiHeaders: {},
  oauth: {
    authorizeUrl: "https://slack.com/oauth/v2/authorize",
    tokenUrl: "https://slack.com/api/oauth.v2.access",
    revokeUrl: "https://slack.com/api/auth.revoke",
    defaultScopes: ["channels:read", "chat:write"],
    scopeSeparator: ",",
    inspectTokenResponse: (body) => (body.ok === false ? { error: String(body.error ?? "unknown_error") } : undefined),
    invalidGrantErrors: ["invalid_refresh_token", "invalid_grant", "token_revoked"],
    extraTokenTypes: ["bot", "user"],
    revocation: ({ token, revokeUrl }) => ({
      url: revokeUrl,
      request: { method: "POST", path: "", headers: { authorization: `Bearer ${token}` }, form: {} },
    }),
  },
  presentCredential: ({ secret }) => bearer(secret),
  async fetchIdentity(_api, tokenResponse) {
    const team = tokenResponse.team as { id?: string; name?: string } | undefined;
    const user = tokenResponse.authed_user as { id?: string } | undefined;
    if (!team?.id) throw new Error("Slack's token response names no team");
    return { displayName: team.name ?? team.id, accountId: `${team.id}:${user?.id ?? String(tokenResponse.bot_user_id ?? "")}` };
  },
  inspectApiResponse: inspectSlackResponse,
  tools: chatTools,
};
