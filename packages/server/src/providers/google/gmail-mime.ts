/**
 * Gmail takes a message to send or to keep as a draft only as one RFC 2822 (MIME) text,
 * base64url-encoded in `raw`: no JSON field says "to" or "subject". This builds that text from a
 * model's plain arguments, and reads a fetched message back into plain fields.
 */
import { BrokerError } from "../../errors.js";

export type MailArguments = {
  to?: string[];
  cc?: string[];
  bcc?: string[];
  subject?: string;
  body?: string;
  html_body?: string;
  in_reply_to?: string;
};

/** A header value may not break its line: that would let an argument write headers of its own. */
const LINE_BREAK = /[\r\n\0]/;

function headerValue(field: string, value: string): string {
  if (LINE_BREAK.test(value)) throw new BrokerError("invalid_tool_args", `${field} cannot contain line breaks`, { fields: [{ field: `/${field}`, message: "contains a line break" }] });
  return value;
}

/** RFC 2047: a header with anything but printable ASCII travels as UTF-8 in base64 encoded-words. */
function encodedWords(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  // Each encoded-word stays under 76 characters: 45 bytes of UTF-8 at most, cut between characters.
  const words: string[] = [];
  let chunk = "";
  for (const character of text) {
    if (Buffer.byteLength(chunk + character) > 45) {
      words.push(chunk);
      chunk = "";
    }
    chunk += character;
  }
  if (chunk) words.push(chunk);
  return words.map((word) => `=?UTF-8?B?${Buffer.from(word).toString("base64")}?=`).join("\r\n ");
}

/** Base64 in lines of 76 characters, as MIME bodies are written. */
const base64Lines = (text: string) => (Buffer.from(text).toString("base64").match(/.{1,76}/g) ?? []).join("\r\n");

const textPart = (subtype: "plain" | "html", text: string) => [`Content-Type: text/${subtype}; charset="UTF-8"`, "Content-Transfer-Encoding: base64", "", base64Lines(text)].join("\r\n");

/** The message as Gmail's `raw` field: RFC 2822 text, base64url without padding. */
export function rawMessage(args: MailArguments, boundary: string): string {
  const headers: string[] = ["MIME-Version: 1.0"];
  for (const [name, field] of [["To", "to"], ["Cc", "cc"], ["Bcc", "bcc"]] as const) {
    const addresses = args[field] ?? [];
    if (addresses.length) headers.push(`${name}: ${addresses.map((address) => headerValue(field, address)).join(", ")}`);
  }
  if (args.subject !== undefined) headers.push(`Subject: ${encodedWords(headerValue("subject", args.subject))}`);
  // A reply names the message it answers, so Gmail and the recipients' clients thread it.
  if (args.in_reply_to) {
    const id = headerValue("in_reply_to", args.in_reply_to);
    headers.push(`In-Reply-To: ${id}`, `References: ${id}`);
  }
  const text = args.body ?? "";
  const content =
    args.html_body === undefined
      ? textPart("plain", text)
      : [`Content-Type: multipart/alternative; boundary="${boundary}"`, "", `--${boundary}`, textPart("plain", text), `--${boundary}`, textPart("html", args.html_body), `--${boundary}--`, ""].join("\r\n");
  return Buffer.from(`${headers.join("\r\n")}\r\n${content}`).toString("base64url");
}

type Part = { mimeType?: string; filename?: string; headers?: { name?: string; value?: string }[]; body?: { data?: string; size?: number; attachmentId?: string }; parts?: Part[] };
export type GmailMessage = { id?: string; threadId?: string; labelIds?: string[]; snippet?: string; internalDate?: string; payload?: Part };

function* partsOf(part: Part | undefined): Generator<Part> {
  if (!part) return;
  yield part;
  for (const child of part.parts ?? []) yield* partsOf(child);
}

const decoded = (data: string | undefined) => (data ? Buffer.from(data, "base64url").toString("utf8") : "");

/** Text a model can read from an HTML part: tags dropped, the common entities and blank runs folded. */
function htmlToText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, "")
    .replace(/<br\s*\/?>|<\/(p|div|li|tr|h[1-6])>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&nbsp;/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** The message's text: its first text/plain part, else its first HTML part as text, cut to `limit` characters. */
function bodyText(payload: Part | undefined, limit: number): { text: string; truncated: boolean } {
  const parts = [...partsOf(payload)].filter((part) => !part.filename);
  const plain = parts.find((part) => part.mimeType === "text/plain" && part.body?.data);
  const html = parts.find((part) => part.mimeType === "text/html" && part.body?.data);
  const text = plain ? decoded(plain.body?.data) : html ? htmlToText(decoded(html.body?.data)) : "";
  return text.length > limit ? { text: text.slice(0, limit), truncated: true } : { text, truncated: false };
}

const HEADERS = ["From", "To", "Cc", "Subject", "Date", "Message-ID"];

/** A fetched message (format "full") as plain fields: the headers people read, the text, the attachments' names. */
export function messageSummary(message: GmailMessage, textLimit: number) {
  const headers = message.payload?.headers ?? [];
  const header = (name: string) => headers.find((h) => h.name?.toLowerCase() === name.toLowerCase())?.value ?? null;
  const [from, to, cc, subject, date, messageId] = HEADERS.map(header);
  const { text, truncated } = bodyText(message.payload, textLimit);
  const attachments = [...partsOf(message.payload)]
    .filter((part) => part.filename)
    .map((part) => ({ filename: part.filename, mime_type: part.mimeType ?? null, size: part.body?.size ?? null, attachment_id: part.body?.attachmentId ?? null }));
  return {
    id: message.id,
    thread_id: message.threadId,
    label_ids: message.labelIds ?? [],
    from,
    to,
    cc,
    subject,
    date,
    message_id: messageId,
    snippet: message.snippet ?? null,
    text,
    text_truncated: truncated,
    attachments,
  };
}
