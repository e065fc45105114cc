/**
 * Fake Slack: OAuth v2 install flow (/oauth/v2/authorize, /api/oauth.v2.access) with token rotation
 * (expiring xoxb- bot tokens, single-use xoxe- refresh tokens), auth.revoke and a few Web API methods.
 * Every Web API answer is HTTP 200 with `ok` saying the outcome, as Slack does.
 */
import type { ServerResponse } from "node:http";
import { clientCredentials, sendJson, sendText, startServer, type FakeRequest, type RunningServer } from "./http.js";
import { randomAlphanumeric, randomToken } from "./oauth-state.js";
import { createProviderCore, providerEnv, splitScopes, type ProviderCore } from "./provider-core.js";
import { handleSlackMethod, SLACK_APP, slackChannelById, slackToken } from "./slack-api.js";
import { buttonPressRequest } from "./slack-interactions.js";
import { seedSlackMessages } from "./slack-more-methods.js";
import type { ButtonPress, SignedInteraction, SlackFake, SlackUser } from "./types.js";

export const DEFAULT_SLACK_USER: SlackUser = { id: "U061F7AUR", name: "wanda", teamId: "T9TK3CUKW", teamName: "Slack Softball Team", teamDomain: "slack-softball" };

export async function startSlackFake(options: { ttlSeconds: number; now: () => number }): Promise<{ provider: SlackFake; server: RunningServer }> {
  const core = createProviderCore<SlackUser>({
    clientId: `${digits(10)}.${digits(13)}`,
    clientSecret: randomToken(16),
    ttlSeconds: options.ttlSeconds,
    now: options.now,
    defaultUser: DEFAULT_SLACK_USER,
    newAccessToken: () => `xoxb-${digits(13)}-${digits(13)}-${randomAlphanumeric(24)}`,
    newRefreshToken: () => `xoxe-1-${randomAlphanumeric(120)}`,
    refreshRevokesOldAccessToken: false,
  });
  const messages = new Map<string, unknown[]>();
  seedSlackMessages(messages, SLACK_APP);
  const server = await startServer(async (req, res) => {
    if (req.path === "/oauth/v2/authorize" && req.method === "GET") {
      return core.handleAuthorize(req, res, {
        requireResponseType: false,
        unknownClient: (response) => sendText(response, 400, "Invalid client_id parameter", { "content-type": "text/html; charset=utf-8" }),
        deniedDescription: "The user declined to install the app.",
      });
    }
    const method = /^\/api\/([A-Za-z0-9.]+)$/.exec(req.path)?.[1];
    if (!method) return sendText(res, 404, "Not Found");
    if (method === "oauth.v2.access") return handleToken(core, req, res);
    if (method === "auth.revoke") return handleRevoke(core, req, res);
    return handleSlackMethod({ core, now: options.now, messages }, method, req, res);
  });
  const url = server.url;
  // The app's signing secret, which signs the interaction requests a button press sends (slack-interactions.ts).
  const signingSecret = randomToken(16);
  const env = {
    ...providerEnv("CHAT", {
      clientId: core.clientId,
      clientSecret: core.clientSecret,
      authorizeUrl: `${url}/oauth/v2/authorize`,
      tokenUrl: `${url}/api/oauth.v2.access`,
      apiBaseUrl: `${url}/api`,
      revokeUrl: `${url}/api/auth.revoke`,
    }),
    BROKER_SLACK_SIGNING_SECRET: signingSecret,
  };
  const messagesIn = (channel: string) => structuredClone((messages.get(channel) ?? []) as Record<string, any>[]);
  const buttonPress = (press: ButtonPress): SignedInteraction => {
    const message = messagesIn(press.channel).find((candidate) => candidate.ts === press.ts);
    const channel = slackChannelById(press.channel);
    if (!message || !channel) throw new Error(`no message ${press.ts} in channel ${press.channel}`);
    const user = { ...core.currentUser(), ...press.user };
    return buttonPressRequest({ message, channel, user, appId: SLACK_APP.appId, url, signingSecret, nowSeconds: Math.floor(options.now() / 1000) }, press);
  };
  return { provider: { ...core.publicProvider(url, env), signingSecret, messages: messagesIn, buttonPress }, server };
}

async function handleToken(core: ProviderCore<SlackUser>, req: FakeRequest, res: ServerResponse): Promise<void> {
  if (await core.interceptToken(res)) return;
  const params = { ...req.query, ...req.fields };
  const fail = (error: string) => sendJson(res, 200, { ok: false, error });
  const credentials = clientCredentials({ ...req, fields: params });
  const client = core.state.checkClient(credentials.clientId, credentials.clientSecret);
  if (client === "unknown_client") return fail("invalid_client_id");
  if (client === "bad_secret") return fail("bad_client_secret");
  const grantType = params.grant_type ?? "authorization_code";
  if (grantType === "authorization_code") {
    const result = core.state.exchangeCode({ code: params.code, redirectUri: params.redirect_uri, codeVerifier: params.code_verifier });
    if (!result.ok) {
      const error = { invalid_code: "invalid_code", code_expired: "invalid_code", pkce_mismatch: "invalid_code", code_reused: "code_already_used", redirect_mismatch: "bad_redirect_uri" }[result.reason];
      return fail(error);
    }
    core.stats.authorizationCodeGrants += 1;
    return sendJson(res, 200, tokenBody(result.tokens));
  }
  if (grantType === "refresh_token") {
    const result = core.state.refresh(params.refresh_token);
    if (!result.ok) return fail("invalid_refresh_token");
    core.stats.refreshGrants += 1;
    return sendJson(res, 200, tokenBody(result.tokens));
  }
  return fail("invalid_grant_type");
}

function tokenBody(tokens: { accessToken: string; refreshToken: string; expiresIn: number; grant: { scope: string; user: SlackUser } }) {
  const user = tokens.grant.user;
  return {
    ok: true,
    app_id: SLACK_APP.appId,
    authed_user: { id: user.id },
    scope: splitScopes(tokens.grant.scope).join(","),
    token_type: "bot",
    access_token: tokens.accessToken,
    bot_user_id: SLACK_APP.botUserId,
    refresh_token: tokens.refreshToken,
    expires_in: tokens.expiresIn,
    team: { id: user.teamId, name: user.teamName },
    enterprise: null,
    is_enterprise_install: false,
  };
}

/** auth.revoke: the token comes as Bearer or a `token` argument; `test=true` only checks it. */
function handleRevoke(core: ProviderCore<SlackUser>, req: FakeRequest, res: ServerResponse): void {
  const token = slackToken(req);
  if (!token) return sendJson(res, 200, { ok: false, error: "not_authed" });
  if (!core.state.kindOf(token)) return sendJson(res, 200, { ok: false, error: "invalid_auth" });
  const test = ["1", "true"].includes(String(req.fields.test ?? req.query.test ?? ""));
  if (test) return sendJson(res, 200, { ok: true, revoked: false });
  core.state.revokeGrantOf(token);
  core.stats.revocations += 1;
  sendJson(res, 200, { ok: true, revoked: true });
}

function digits(count: number): string {
  return Array.from({ length: count }, (_, index) => (index === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10))).join("");
}
