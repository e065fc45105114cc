/**
 * The Slack approval channel: posts an approval's request to the tenant's chosen Slack channel
 * through the tenant's Slack connection (chat.postMessage, Block Kit with Approve and Deny),
 * reminders in the request's thread, and the outcome in place of the request (chat.update).
 * Button presses come back through the interactivity endpoint (slack-interactivity.ts).
 * What it posted (channel id and ts) is the delivery's progress, so a retry never posts twice.
 */
import type { Clock } from "../clock.js";
import type { ApprovalChannel, ApprovalNotice } from "./approval-channel.js";
import type { ApprovalSettingsQueries } from "./approval-settings-queries.js";
import { visibleStatus } from "./approval-rules.js";
import { outcomeMessage, requestMessage, type SlackMessage } from "./slack-blocks.js";
import { isPostedSlackMessage, type PostedSlackMessage, type SlackMessageQueries } from "./slack-message-queries.js";

export type SlackMethod = "chat.postMessage" | "chat.update";

/**
 * One Slack Web API call with a tenant's connection (its tokens fresh), answering Slack's HTTP
 * status and JSON body; passed in from app.ts, since approvals know nothing of connections.
 */
export type SlackApiCall = (tenantId: string, connectionId: string, method: SlackMethod, body: Record<string, unknown>) => Promise<{ status: number; body: unknown }>;

type SlackChannelDeps = {
  settings: Pick<ApprovalSettingsQueries, "find">;
  messages: Pick<SlackMessageQueries, "requestMessageOf">;
  callSlack: SlackApiCall;
  clock: Clock;
};

/** Nothing to send (a reminder for an approval decided meanwhile): recorded as the delivery's progress. */
type Skipped = { skipped: "decided" };

export function createSlackChannel({ settings, messages, callSlack, clock }: SlackChannelDeps): ApprovalChannel {
  async function call(tenantId: string, connectionId: string, method: SlackMethod, body: Record<string, unknown>): Promise<PostedSlackMessage> {
    const answer = await callSlack(tenantId, connectionId, method, body);
    const reply = answer.body as { ok?: unknown; error?: unknown; channel?: unknown; ts?: unknown } | null;
    // Slack answers errors with HTTP 200 and ok: false; its error is a short code (channel_not_found), never a secret.
    if (answer.status !== 200 || reply?.ok !== true) {
      const error = typeof reply?.error === "string" ? reply.error.slice(0, 100) : "no error named";
      throw new Error(`Slack ${method} answered HTTP ${answer.status}: ${error}`);
    }
    const posted = { channel: reply.channel, ts: reply.ts };
    if (!isPostedSlackMessage(posted)) throw new Error(`Slack ${method} answered without a channel and ts`);
    return posted;
  }

  return {
    kind: "slack",
    async send(notice: ApprovalNotice): Promise<PostedSlackMessage | Skipped> {
      if (isPostedSlackMessage(notice.progress)) return notice.progress;
      const { approval, purpose } = notice;
      const chosen = await settings.find(approval.tenantId);
      if (!chosen.slackConnectionId || !chosen.slackChannel) throw new Error("the tenant's approval settings name no Slack connection and channel");
      const connectionId = chosen.slackConnectionId;
      const status = visibleStatus(approval, clock.now());
      const post = (message: SlackMessage, where: { channel: string; thread_ts?: string } = { channel: chosen.slackChannel! }) =>
        call(approval.tenantId, connectionId, "chat.postMessage", { ...where, ...message, unfurl_links: false });
      // A request still unsent when the approval was decided says the outcome: no buttons on a decided approval.
      if (purpose === "request") return post(status === "pending" ? requestMessage(notice) : outcomeMessage(notice, status));
      const request = await messages.requestMessageOf(approval.tenantId, approval.id);
      if (purpose === "reminder") {
        if (status !== "pending") return { skipped: "decided" };
        return post(requestMessage(notice, true), request ? { channel: request.channel, thread_ts: request.ts } : undefined);
      }
      const outcome = outcomeMessage(notice, status);
      if (!request) return post(outcome);
      return call(approval.tenantId, connectionId, "chat.update", { channel: request.channel, ts: request.ts, ...outcome });
    },
  };
}
