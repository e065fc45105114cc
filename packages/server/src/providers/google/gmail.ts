/**
 * `gmail`: Gmail API v1 for the connected account (`users/me`). Search uses Gmail's own query
 * language (`q`, as in the Gmail search box). What data cannot say (the RFC 2822 text of a message
 * to send, reading a fetched message back into plain fields) is in gmail-hooks.ts.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { gmailHooks } from "./gmail-hooks.js";
import { googleDescription, googleIcon, googleOAuth, sameNames, scope } from "./google-auth.js";

const READONLY = scope("gmail.readonly");
const SEND = scope("gmail.send");
const COMPOSE = scope("gmail.compose");
const MODIFY = scope("gmail.modify");
const LABELS = scope("gmail.labels");

const ENVELOPE = '<path d="M10 15h28v19H10z" fill="#fff"/><path d="M10 15l14 11 14-11" fill="none" stroke="#ea4335" stroke-width="3"/>';

export const gmailDeclaration: ProviderDeclaration = {
  id: "gmail",
  display_name: "Gmail",
  description: "Search, read, label, draft and send mail in the connected Gmail account.",
  icon: googleIcon("#ea4335", ENVELOPE),
  docs_url: "https://developers.google.com/gmail/api/reference/rest",
  api_base_url: "https://gmail.googleapis.com/gmail/v1",
  auth: googleOAuth([READONLY, SEND, COMPOSE, MODIFY, LABELS]),
  // The mailbox's own address names the account.
  identity: { path: "/users/me/profile", account_id: "/emailAddress", display_name: "/emailAddress" },
};

const messageId = { type: "string", minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9_-]+$", description: "Gmail message id (from gmail.search_messages)" };
const threadId = { type: "string", minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9_-]+$", description: "Gmail thread id" };
const query = { type: "string", maxLength: 2000, description: 'Gmail search query, as in the Gmail search box: e.g. "from:alice@example.com is:unread newer_than:7d", "subject:invoice has:attachment", "label:work"' };
const maxResults = { type: "integer", minimum: 1, maximum: 500, description: "Results per page (Gmail's default 100, at most 500)" };
const pageToken = { type: "string", maxLength: 500, description: "next_page_token of the previous page" };
const includeSpamTrash = { type: "boolean", description: "Include messages in Spam and Trash (default false)" };
// One address or "Name <address>" per item; a line break would let an argument add headers, so none is taken.
const addresses = (who: string) => ({
  type: "array",
  maxItems: 100,
  description: `${who}: each an address or "Name <address>"`,
  items: { type: "string", minLength: 3, maxLength: 320, pattern: "^[^\\r\\n]+$", description: "One recipient" },
});
const mailProperties = {
  to: addresses("Recipients"),
  cc: addresses("Copy recipients"),
  bcc: addresses("Blind copy recipients (not shown to the others)"),
  subject: { type: "string", maxLength: 998, pattern: "^[^\\r\\n]*$", description: "Subject line" },
  body: { type: "string", maxLength: 200_000, description: "Plain-text body" },
  html_body: { type: "string", maxLength: 500_000, description: "Optional HTML version of the body; mail clients show it instead of the plain text" },
  thread_id: { ...threadId, description: "Put the message in this thread (a reply): give in_reply_to too, and a subject matching the thread's" },
  in_reply_to: { type: "string", maxLength: 998, pattern: "^<[^\\r\\n<>]+>$", description: "Message-ID header of the message answered, with its angle brackets (message_id of gmail.get_message)" },
};
const messageBodyShape = { type: "object", properties: { id: { type: "string" }, payload: { type: "object" } } };

export const gmailTools: ToolDeclaration[] = [
  {
    name: "gmail.get_profile",
    title: "Get Gmail profile",
    description: "Get the connected mailbox's address and its message and thread totals.",
    arguments_schema: { type: "object", properties: {}, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/users/me/profile" },
    response: { schema: { type: "object", properties: { emailAddress: { type: "string" } } }, fields: sameNames(["emailAddress", "messagesTotal", "threadsTotal", "historyId"]) },
  },
  {
    name: "gmail.search_messages",
    title: "Search Gmail messages",
    description:
      "Search the mailbox with Gmail's query language (the Gmail search box's operators). Returns message and thread ids only, newest first; " +
      "read a message with gmail.get_message. Without a query, lists every message.",
    arguments_schema: { type: "object", properties: { q: query, max_results: maxResults, page_token: pageToken, include_spam_trash: includeSpamTrash }, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/users/me/messages", query: { q: "{q}", maxResults: "{max_results}", pageToken: "{page_token}", includeSpamTrash: "{include_spam_trash}" } },
    response: {
      schema: { type: "object", properties: { messages: { type: "array", items: { type: "object" } } } },
      fields: { messages: "/messages", next_page_token: "/nextPageToken", result_size_estimate: "/resultSizeEstimate" },
    },
  },
  {
    name: "gmail.get_message",
    title: "Read a Gmail message",
    description: "Read one message: sender, recipients, subject, date, its text (the plain-text part, else the HTML part as text; at most 50,000 characters) and its attachments' names.",
    arguments_schema: { type: "object", properties: { message_id: messageId }, required: ["message_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/users/me/messages/{message_id}", query: { format: "full" } },
    response: { schema: messageBodyShape },
  },
  {
    name: "gmail.search_threads",
    title: "Search Gmail threads",
    description: "Search conversations with Gmail's query language. Returns thread ids and snippets; read a conversation with gmail.get_thread.",
    arguments_schema: { type: "object", properties: { q: query, max_results: maxResults, page_token: pageToken, include_spam_trash: includeSpamTrash }, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/users/me/threads", query: { q: "{q}", maxResults: "{max_results}", pageToken: "{page_token}", includeSpamTrash: "{include_spam_trash}" } },
    response: {
      schema: { type: "object", properties: { threads: { type: "array", items: { type: "object" } } } },
      fields: { threads: "/threads", next_page_token: "/nextPageToken", result_size_estimate: "/resultSizeEstimate" },
    },
  },
  {
    name: "gmail.get_thread",
    title: "Read a Gmail thread",
    description: "Read a whole conversation: each message's sender, recipients, subject, date and text (at most 10,000 characters per message).",
    arguments_schema: { type: "object", properties: { thread_id: threadId }, required: ["thread_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/users/me/threads/{thread_id}", query: { format: "full" } },
    response: { schema: { type: "object", properties: { id: { type: "string" }, messages: { type: "array", items: messageBodyShape } } } },
  },
  {
    name: "gmail.list_labels",
    title: "List Gmail labels",
    description: "List the mailbox's labels, system (INBOX, UNREAD, STARRED, …) and the user's own, with their ids for gmail.modify_labels.",
    arguments_schema: { type: "object", properties: {}, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: [LABELS],
    request: { method: "GET", path: "/users/me/labels" },
    response: { schema: { type: "object", properties: { labels: { type: "array", items: { type: "object" } } } }, fields: { labels: "/labels" } },
  },
  {
    name: "gmail.create_label",
    title: "Create a Gmail label",
    description: "Create a label of the user's own. Nested labels are named with slashes (\"Projects/Apollo\").",
    arguments_schema: {
      type: "object",
      properties: {
        name: { type: "string", minLength: 1, maxLength: 225, description: "Label name" },
        label_list_visibility: { type: "string", enum: ["labelShow", "labelShowIfUnread", "labelHide"], description: "Whether the label shows in Gmail's label list" },
        message_list_visibility: { type: "string", enum: ["show", "hide"], description: "Whether the label shows on messages in the message list" },
      },
      required: ["name"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    scopes: [LABELS],
    request: { method: "POST", path: "/users/me/labels", body: { name: "{name}", labelListVisibility: "{label_list_visibility}", messageListVisibility: "{message_list_visibility}" } },
    response: { schema: { type: "object" }, fields: sameNames(["id", "name", "type", "labelListVisibility", "messageListVisibility"]) },
  },
  {
    name: "gmail.send_message",
    title: "Send an email",
    description:
      "Send an email from the connected account. Sends immediately; a sent message cannot be recalled. To answer a message, give thread_id and in_reply_to. " +
      "Prefer gmail.create_draft when a person should read it first.",
    arguments_schema: { type: "object", properties: mailProperties, required: ["to", "subject", "body"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    scopes: [SEND],
    // `raw`, the message itself, is written by the request hook.
    request: { method: "POST", path: "/users/me/messages/send", body: { threadId: "{thread_id}" } },
    response: { schema: { type: "object", properties: { id: { type: "string" } } }, fields: { id: "/id", thread_id: "/threadId", label_ids: "/labelIds" } },
  },
  {
    name: "gmail.create_draft",
    title: "Create an email draft",
    description: "Save an email as a draft in the connected account, for a person to review and send (or gmail.send_draft). Nothing is sent.",
    arguments_schema: { type: "object", properties: mailProperties, additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: [COMPOSE],
    request: { method: "POST", path: "/users/me/drafts", body: { message: { threadId: "{thread_id}" } } },
    response: { schema: { type: "object", properties: { id: { type: "string" } } }, fields: { draft_id: "/id", message_id: "/message/id", thread_id: "/message/threadId" } },
  },
  {
    name: "gmail.list_drafts",
    title: "List Gmail drafts",
    description: "List drafts, optionally filtered by a Gmail search query. Returns draft and message ids.",
    arguments_schema: { type: "object", properties: { q: query, max_results: maxResults, page_token: pageToken }, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/users/me/drafts", query: { q: "{q}", maxResults: "{max_results}", pageToken: "{page_token}" } },
    response: { schema: { type: "object" }, fields: { drafts: "/drafts", next_page_token: "/nextPageToken", result_size_estimate: "/resultSizeEstimate" } },
  },
  {
    name: "gmail.send_draft",
    title: "Send a Gmail draft",
    description: "Send an existing draft to its recipients. Sends immediately; a sent message cannot be recalled.",
    arguments_schema: {
      type: "object",
      properties: { draft_id: { type: "string", minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9_-]+$", description: "Draft id (from gmail.create_draft or gmail.list_drafts)" } },
      required: ["draft_id"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    scopes: [COMPOSE],
    request: { method: "POST", path: "/users/me/drafts/send", body: { id: "{draft_id}" } },
    response: { schema: { type: "object", properties: { id: { type: "string" } } }, fields: { id: "/id", thread_id: "/threadId", label_ids: "/labelIds" } },
  },
  {
    name: "gmail.modify_labels",
    title: "Change a message's labels",
    description:
      "Add and remove labels on a message (label ids from gmail.list_labels). Archive: remove INBOX; mark read: remove UNREAD; star: add STARRED. " +
      "Undone by the opposite change.",
    arguments_schema: {
      type: "object",
      properties: {
        message_id: messageId,
        add_label_ids: { type: "array", maxItems: 100, items: { type: "string", minLength: 1, maxLength: 100, description: "Label id" }, description: "Label ids to add" },
        remove_label_ids: { type: "array", maxItems: 100, items: { type: "string", minLength: 1, maxLength: 100, description: "Label id" }, description: "Label ids to remove" },
      },
      required: ["message_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: [MODIFY],
    request: { method: "POST", path: "/users/me/messages/{message_id}/modify", body: { addLabelIds: "{add_label_ids}", removeLabelIds: "{remove_label_ids}" } },
    response: { schema: { type: "object" }, fields: { id: "/id", thread_id: "/threadId", label_ids: "/labelIds" } },
  },
  {
    name: "gmail.trash_message",
    title: "Move a message to the trash",
    description: "Move a message to the trash. Gmail deletes it for good after 30 days; until then it can be restored from the trash in Gmail.",
    arguments_schema: { type: "object", properties: { message_id: messageId }, required: ["message_id"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: [MODIFY],
    request: { method: "POST", path: "/users/me/messages/{message_id}/trash" },
    response: { schema: { type: "object" }, fields: { id: "/id", thread_id: "/threadId", label_ids: "/labelIds" } },
  },
];

const EXAMPLE_MESSAGE_ID = "18c2f0a1b2c3d4e5";

export const gmail: BuiltInProvider = {
  declaration: gmailDeclaration,
  tools: gmailTools,
  hooks: gmailHooks,
  vendorDescription: googleDescription("gmail", "/gmail/v1"),
  examples: {
    "gmail.get_profile": {},
    "gmail.search_messages": { q: "from:alice@example.com is:unread newer_than:7d", max_results: 10 },
    "gmail.get_message": { message_id: EXAMPLE_MESSAGE_ID },
    "gmail.search_threads": { q: "subject:invoice", max_results: 5 },
    "gmail.get_thread": { thread_id: "18c2f0a1b2c3d4e0" },
    "gmail.list_labels": {},
    "gmail.create_label": { name: "Projects/Apollo", label_list_visibility: "labelShow" },
    "gmail.send_message": { to: ["Alice <alice@example.com>"], cc: ["bob@example.com"], subject: "Quarterly report", body: "Hello Alice,\n\nThe report is attached to the shared folder.\n" },
    "gmail.create_draft": { to: ["alice@example.com"], subject: "Re: Lunch", body: "Thursday works for me.", thread_id: "18c2f0a1b2c3d4e0", in_reply_to: "<CAF=abc123@mail.gmail.com>" },
    "gmail.list_drafts": { max_results: 10 },
    "gmail.send_draft": { draft_id: "r-1234567890123456789" },
    "gmail.modify_labels": { message_id: EXAMPLE_MESSAGE_ID, add_label_ids: ["STARRED"], remove_label_ids: ["UNREAD"] },
    "gmail.trash_message": { message_id: EXAMPLE_MESSAGE_ID },
  },
};
