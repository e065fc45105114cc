/**
 * What the fake Slack sends an app's interactivity request URL when someone presses a button in one
 * of the app's messages, as Slack does: a `block_actions` payload, form-encoded as `payload=<JSON>`,
 * signed with the app's signing secret (`X-Slack-Signature: v0=` hex HMAC-SHA256 of
 * `v0:{timestamp}:{body}`, `X-Slack-Request-Timestamp` in seconds). Tests post it to the broker.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { ButtonPress, SignedInteraction, SlackUser } from "./types.js";

type Message = Record<string, any>;

export function slackSignature(signingSecret: string, timestamp: number | string, body: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${body}`).digest("hex")}`;
}

/** The button element with this action id in a message's actions blocks, with its block's id. */
function buttonOf(message: Message, actionId: string): { blockId: string; element: Message } {
  for (const block of (message.blocks ?? []) as Message[]) {
    if (block.type !== "actions") continue;
    const element = (block.elements as Message[]).find((candidate) => candidate.action_id === actionId);
    if (element) return { blockId: String(block.block_id ?? ""), element };
  }
  throw new Error(`the message ${message.ts} has no button with action_id ${actionId}`);
}

export function buttonPressRequest(
  context: { message: Message; channel: { id: string; name: string }; user: SlackUser; appId: string; url: string; signingSecret: string; nowSeconds: number },
  press: ButtonPress,
): SignedInteraction {
  const { message, channel, user, appId } = context;
  const { blockId, element } = buttonOf(message, press.actionId);
  const actionTs = `${context.nowSeconds}.${String(randomBytes(3).readUIntBE(0, 3)).padStart(6, "0").slice(0, 6)}`;
  const payload = {
    type: "block_actions",
    user: { id: user.id, username: user.name, name: user.name, team_id: user.teamId },
    api_app_id: appId,
    token: "Shh_its_a_seekrit",
    container: { type: "message", message_ts: message.ts, channel_id: channel.id, is_ephemeral: false },
    trigger_id: `${context.nowSeconds}.${randomBytes(6).toString("hex")}`,
    team: { id: user.teamId, domain: user.teamDomain },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: channel.id, name: channel.name },
    message: structuredClone(message),
    state: { values: {} },
    response_url: `${context.url}/actions/${user.teamId}/${randomBytes(6).toString("hex")}`,
    actions: [{ action_id: press.actionId, block_id: blockId, text: element.text, value: element.value, ...(element.style ? { style: element.style } : {}), type: element.type, action_ts: actionTs }],
  };
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const timestamp = press.timestamp ?? context.nowSeconds;
  return {
    body,
    payload,
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": String(timestamp),
      "x-slack-signature": slackSignature(context.signingSecret, timestamp, body),
    },
  };
}
