/** Slack's quirks that need code; everything else about it is data (chat-declaration.ts). */
import type { ProviderHooks } from "../provider-types.js";
import type { UpstreamResponse } from "../upstream-client.js";

// Slack Web API errors come with HTTP 200 and `ok: false`; these mean the token is bad.
const AUTH_ERRORS = new Set(["invalid_auth", "not_authed", "token_expired", "token_revoked", "account_inactive"]);

function inspectSlackResponse(response: UpstreamResponse) {
  const body = response.body as { ok?: boolean; error?: string } | null;
  if (!body || typeof body !== "object" || body.ok !== false) return undefined;
  const error = body.error ?? "unknown_error";
  return { status: AUTH_ERRORS.has(error) ? 401 : 400, message: error };
}

type ChannelList = { channels?: Record<string, unknown>[]; response_metadata?: { next_cursor?: string } };

export const chatHooks: ProviderHooks = {
  // The token endpoint too answers errors with HTTP 200 and `ok: false`.
  oauth: { inspectTokenResponse: (body) => (body.ok === false ? { error: String(body.error ?? "unknown_error") } : undefined) },
  // Slack names the workspace and user in the token response itself: no API call tells more.
  async fetchIdentity(_api, tokenResponse) {
    const team = tokenResponse.team as { id?: string; name?: string } | undefined;
    const user = tokenResponse.authed_user as { id?: string } | undefined;
    if (!team?.id) throw new Error("Slack's token response names no team");
    return { displayName: team.name ?? team.id, accountId: `${team.id}:${user?.id ?? String(tokenResponse.bot_user_id ?? "")}` };
  },
  inspectApiResponse: inspectSlackResponse,
  tools: {
    // Slack's empty next_cursor means "no more pages": the result says null, which a pointer cannot.
    "chat.list_channels": {
      mapResponse: ({ body }) => {
        const { channels = [], response_metadata } = body as ChannelList;
        return {
          channels: channels.map((c) => ({ id: c.id, name: c.name, is_private: c.is_private, is_archived: c.is_archived, is_member: c.is_member, num_members: c.num_members })),
          next_cursor: response_metadata?.next_cursor || null,
        };
      },
    },
  },
};
