/**
 * Outlook mail tools (Microsoft Graph v1.0 /me/messages, /me/mailFolders, /me/sendMail). Paths are
 * the description's own: Graph's bound actions are written with their namespace
 * (`/me/microsoft.graph.sendMail`), which Graph takes as well as the short `/me/sendMail`; their
 * body parameters are PascalCase (`Message`, `SaveToSentItems`, `Comment`), as the metadata and
 * Microsoft's SDKs send them.
 */
import type { ToolDeclaration } from "../declaration-schema.js";
import { addressList, collectionOf, graphId, skip, top } from "./graph.js";

const MESSAGE_FIELDS = {
  id: "/id",
  subject: "/subject",
  from: "/from/emailAddress/address",
  from_name: "/from/emailAddress/name",
  received_at: "/receivedDateTime",
  preview: "/bodyPreview",
  is_read: "/isRead",
  is_draft: "/isDraft",
  has_attachments: "/hasAttachments",
  importance: "/importance",
  conversation_id: "/conversationId",
  folder_id: "/parentFolderId",
  web_link: "/webLink",
};
const MESSAGE_SELECT = "id,subject,from,receivedDateTime,bodyPreview,isRead,isDraft,hasAttachments,importance,conversationId,parentFolderId,webLink";

const messageId = graphId("The message id (from search_messages or list_folder_messages)");
const bodyType = { type: "string", enum: ["text", "html"], description: "How body is written (default text)" };

const listArguments = {
  filter: { type: "string", maxLength: 1000, description: "An OData $filter, e.g. isRead eq false, or receivedDateTime ge 2026-01-01T00:00:00Z. Cannot be combined with query" },
  top: top(100, "messages"),
  skip,
};

export const outlookMailTools: ToolDeclaration[] = [
  {
    name: "microsoft_outlook.search_messages",
    title: "Search mail",
    description:
      "Search the mailbox's messages, newest first. `query` is Outlook's search language (KQL: from:ana subject:invoice hasAttachments:true, or plain words); `filter` an OData $filter. Graph refuses query together with filter or skip. Returns subject, sender, date and a preview; read a whole message with get_message.",
    arguments_schema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 500, pattern: '^[^"\\\\]*$', description: "KQL search, e.g. from:ana@contoso.com subject:report (no double quotes)" },
        ...listArguments,
      },
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: ["Mail.Read"],
    // Graph wants $search in double quotes.
    request: { method: "GET", path: "/me/messages", query: { $search: '"{query}"', $filter: "{filter}", $top: "{top}", $skip: "{skip}", $select: MESSAGE_SELECT } },
    response: { schema: collectionOf(), root: "/value", fields: MESSAGE_FIELDS },
  },
  {
    name: "microsoft_outlook.list_folder_messages",
    title: "List messages in a folder",
    description: "List the messages of one mail folder, newest first: a folder id from list_mail_folders or a well-known name (inbox, drafts, sentitems, deleteditems, junkemail, archive).",
    arguments_schema: {
      type: "object",
      properties: { folder_id: graphId("Folder id or well-known name such as inbox"), ...listArguments },
      required: ["folder_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: ["Mail.Read"],
    request: { method: "GET", path: "/me/mailFolders/{folder_id}/messages", query: { $filter: "{filter}", $top: "{top}", $skip: "{skip}", $select: MESSAGE_SELECT } },
    response: { schema: collectionOf(), root: "/value", fields: MESSAGE_FIELDS },
  },
  {
    name: "microsoft_outlook.get_message",
    title: "Read a message",
    description: "Read one message whole: sender, recipients, subject and its body as plain text.",
    arguments_schema: {
      type: "object",
      properties: { message_id: messageId },
      required: ["message_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: ["Mail.Read"],
    request: {
      method: "GET",
      path: "/me/messages/{message_id}",
      query: { $select: `${MESSAGE_SELECT},toRecipients,ccRecipients,body,sentDateTime` },
      // Outlook converts the body to text for us when asked: a model reads text far better than HTML.
      headers: { Prefer: 'outlook.body-content-type="text"' },
    },
    response: {
      schema: { type: "object" },
      fields: { ...MESSAGE_FIELDS, to: "/toRecipients", cc: "/ccRecipients", sent_at: "/sentDateTime", body: "/body/content" },
    },
  },
  {
    name: "microsoft_outlook.list_mail_folders",
    title: "List mail folders",
    description: "List the mailbox's top-level mail folders with their unread and total counts.",
    arguments_schema: { type: "object", properties: { top: top(100, "folders"), skip }, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["Mail.Read"],
    request: { method: "GET", path: "/me/mailFolders", query: { $top: "{top}", $skip: "{skip}" } },
    response: {
      schema: collectionOf(),
      root: "/value",
      fields: { id: "/id", name: "/displayName", parent_id: "/parentFolderId", unread: "/unreadItemCount", total: "/totalItemCount", child_folders: "/childFolderCount" },
    },
  },
  {
    name: "microsoft_outlook.send_mail",
    title: "Send an email",
    description:
      "Send an email from the connected mailbox. Sends immediately and saves a copy in Sent Items; a sent message cannot be recalled. To let a person check it first, use create_draft.",
    arguments_schema: {
      type: "object",
      properties: {
        to: { ...addressList("Recipients", 100), minItems: 1 },
        cc: addressList("Copy recipients"),
        bcc: addressList("Blind copy recipients"),
        subject: { type: "string", maxLength: 1000, description: "Subject line" },
        body: { type: "string", maxLength: 500000, description: "The message body" },
        body_type: bodyType,
      },
      required: ["to", "subject", "body"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    scopes: ["Mail.Send"],
    request: {
      method: "POST",
      path: "/me/microsoft.graph.sendMail",
      body: {
        Message: { subject: "{subject}", body: { contentType: "{body_type}", content: "{body}" }, toRecipients: "{to}", ccRecipients: "{cc}", bccRecipients: "{bcc}" },
        SaveToSentItems: true,
      },
    },
  },
  {
    name: "microsoft_outlook.create_draft",
    title: "Draft an email",
    description: "Save a new message in Drafts without sending it; a person can review it in Outlook, or send_draft sends it. Returns the draft's id and web link.",
    arguments_schema: {
      type: "object",
      properties: {
        to: addressList("Recipients"),
        cc: addressList("Copy recipients"),
        bcc: addressList("Blind copy recipients"),
        subject: { type: "string", maxLength: 1000, description: "Subject line" },
        body: { type: "string", maxLength: 500000, description: "The message body" },
        body_type: bodyType,
      },
      required: ["subject"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    scopes: ["Mail.ReadWrite"],
    request: {
      method: "POST",
      path: "/me/messages",
      body: { subject: "{subject}", body: { contentType: "{body_type}", content: "{body}" }, toRecipients: "{to}", ccRecipients: "{cc}", bccRecipients: "{bcc}" },
    },
    response: { schema: { type: "object" }, fields: { id: "/id", subject: "/subject", is_draft: "/isDraft", web_link: "/webLink", created_at: "/createdDateTime" } },
  },
  {
    name: "microsoft_outlook.send_draft",
    title: "Send a draft",
    description: "Send a message saved in Drafts to its recipients. Sends immediately; a sent message cannot be recalled.",
    arguments_schema: { type: "object", properties: { message_id: graphId("The draft's message id (from create_draft)") }, required: ["message_id"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    scopes: ["Mail.Send"],
    request: { method: "POST", path: "/me/messages/{message_id}/microsoft.graph.send" },
  },
  {
    name: "microsoft_outlook.reply_to_message",
    title: "Reply to an email",
    description: "Reply to a message's sender, quoting the original. Sends immediately; a sent reply cannot be recalled.",
    arguments_schema: {
      type: "object",
      properties: {
        message_id: messageId,
        comment: { type: "string", minLength: 1, maxLength: 500000, description: "The reply's text, put above the quoted message" },
      },
      required: ["message_id", "comment"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    scopes: ["Mail.Send"],
    request: { method: "POST", path: "/me/messages/{message_id}/microsoft.graph.reply", body: { Comment: "{comment}" } },
  },
  {
    name: "microsoft_outlook.forward_message",
    title: "Forward an email",
    description: "Forward a message, with its attachments, to new recipients with a comment above it. Sends immediately; a forwarded message cannot be recalled.",
    arguments_schema: {
      type: "object",
      properties: {
        message_id: messageId,
        to: { ...addressList("Who to forward it to", 100), minItems: 1 },
        comment: { type: "string", maxLength: 500000, description: "Text above the forwarded message" },
      },
      required: ["message_id", "to"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    scopes: ["Mail.Send"],
    request: { method: "POST", path: "/me/messages/{message_id}/microsoft.graph.forward", body: { Comment: "{comment}", ToRecipients: "{to}" } },
  },
  {
    name: "microsoft_outlook.move_message",
    title: "Move an email",
    description: "Move a message to another folder (an id from list_mail_folders or a well-known name: inbox, archive, deleteditems, junkemail). The moved message gets a new id, which is returned.",
    arguments_schema: {
      type: "object",
      properties: { message_id: messageId, destination_id: graphId("Destination folder id or well-known name") },
      required: ["message_id", "destination_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    scopes: ["Mail.ReadWrite"],
    request: { method: "POST", path: "/me/messages/{message_id}/microsoft.graph.move", body: { DestinationId: "{destination_id}" } },
    response: { schema: { type: "object" }, fields: { id: "/id", subject: "/subject", folder_id: "/parentFolderId" } },
  },
  {
    name: "microsoft_outlook.update_message",
    title: "Mark or categorise an email",
    description: "Mark a message read or unread, set its importance, or replace its categories. Changes only what is given.",
    arguments_schema: {
      type: "object",
      properties: {
        message_id: messageId,
        is_read: { type: "boolean", description: "Mark as read (true) or unread (false)" },
        importance: { type: "string", enum: ["low", "normal", "high"], description: "The message's importance" },
        categories: { type: "array", maxItems: 25, items: { type: "string", maxLength: 255, description: "A category name" }, description: "The categories, replacing the current ones" },
      },
      required: ["message_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: ["Mail.ReadWrite"],
    request: { method: "PATCH", path: "/me/messages/{message_id}", body: { isRead: "{is_read}", importance: "{importance}", categories: "{categories}" } },
    response: { schema: { type: "object" }, fields: { id: "/id", subject: "/subject", is_read: "/isRead", importance: "/importance", categories: "/categories" } },
  },
  {
    name: "microsoft_outlook.delete_message",
    title: "Delete an email",
    description: "Delete a message. Outlook keeps a deleted message recoverable only for the mailbox's retention period (Recoverable Items), and an agent cannot bring it back; to keep it out of the way, move_message it to archive instead.",
    arguments_schema: { type: "object", properties: { message_id: messageId }, required: ["message_id"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: ["Mail.ReadWrite"],
    request: { method: "DELETE", path: "/me/messages/{message_id}" },
  },
];
