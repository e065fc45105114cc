/**
 * Slack's request signing: every request Slack sends an app carries `X-Slack-Request-Timestamp`
 * (seconds) and `X-Slack-Signature: v0=<hex HMAC-SHA256 of "v0:{timestamp}:{raw body}">` under the
 * app's signing secret. A request is believed only when the signature matches the body exactly as
 * received and the timestamp is within five minutes of now (a captured request cannot be replayed
 * later; within the window a replay is the same person's same vote, which counts once).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { unauthorized } from "../errors.js";

export const SLACK_TIMESTAMP_WINDOW_SECONDS = 5 * 60;

export type SignedRequest = { timestamp: string | undefined; signature: string | undefined; rawBody: string };

export function slackSignatureOf(signingSecret: string, timestamp: string, rawBody: string): string {
  return `v0=${createHmac("sha256", signingSecret).update(`v0:${timestamp}:${rawBody}`).digest("hex")}`;
}

/** Throws 401 unless the request is Slack's, signed with `signingSecret`, and recent. */
export function assertSignedBySlack(signingSecret: string, request: SignedRequest, now: Date): void {
  const { timestamp, signature } = request;
  if (!timestamp || !signature) throw unauthorized("a Slack request needs X-Slack-Request-Timestamp and X-Slack-Signature");
  if (!/^\d{1,12}$/.test(timestamp)) throw unauthorized("X-Slack-Request-Timestamp must be seconds since the epoch");
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > SLACK_TIMESTAMP_WINDOW_SECONDS) {
    throw unauthorized("the Slack request's timestamp is more than five minutes away from now");
  }
  const expected = Buffer.from(slackSignatureOf(signingSecret, timestamp, request.rawBody));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw unauthorized("the Slack request's signature does not match");
}
