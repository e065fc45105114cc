/** Gmail's quirks that need code; everything else about it is data (gmail.ts). */
import { randomUUID } from "node:crypto";
import type { ProviderHooks } from "../provider-types.js";
import type { UpstreamRequest } from "../upstream-client.js";
import { messageSummary, rawMessage, type GmailMessage, type MailArguments } from "./gmail-mime.js";

/** Characters of text a message's summary carries: enough to read, bounded for a model's context. */
const MESSAGE_TEXT_LIMIT = 50_000;
const THREAD_MESSAGE_TEXT_LIMIT = 10_000;

const boundary = () => `toolbroker-${randomUUID()}`;
const asObject = (value: unknown) => (value && typeof value === "object" ? (value as Record<string, unknown>) : {});

/** Gmail sends and drafts only what `raw` holds: the message, as RFC 2822 text in base64url. */
const withRaw = (built: UpstreamRequest, args: Record<string, unknown>): UpstreamRequest => ({ ...built, body: { ...asObject(built.body), raw: rawMessage(args as MailArguments, boundary()) } });

export const gmailHooks: ProviderHooks = {
  tools: {
    "gmail.send_message": { request: withRaw },
    "gmail.create_draft": {
      request: (built, args) => {
        const body = asObject(built.body);
        return { ...built, body: { ...body, message: { ...asObject(body.message), raw: rawMessage(args as MailArguments, boundary()) } } };
      },
    },
    "gmail.get_message": { mapResponse: ({ body }) => messageSummary(body as GmailMessage, MESSAGE_TEXT_LIMIT) },
    "gmail.get_thread": {
      mapResponse: ({ body }) => {
        const thread = body as { id?: string; messages?: GmailMessage[] };
        return { id: thread.id, messages: (thread.messages ?? []).map((message) => messageSummary(message, THREAD_MESSAGE_TEXT_LIMIT)) };
      },
    },
  },
};
