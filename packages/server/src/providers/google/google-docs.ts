/**
 * `google_docs`: Google Docs API v1. A document comes back as a tree of structural elements with
 * styles; the read tool gives its text instead (google-docs-text.ts). Edits are batchUpdate
 * requests; positions are UTF-16 indexes in the body, which starts at index 1.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import type { ProviderHooks } from "../provider-types.js";
import { googleDescription, googleIcon, googleOAuth, identityFromIdToken, OPENID_SCOPES, scope } from "./google-auth.js";
import { documentText, type DocsDocument } from "./google-docs-text.js";

const READONLY = scope("documents.readonly");
const DOCUMENTS = scope("documents");

const PAGE = '<path d="M14 9h14l8 8v22H14z" fill="#fff"/><path d="M19 22h12M19 27h12M19 32h8" stroke="#4285f4" stroke-width="2.5"/>';

export const googleDocsDeclaration: ProviderDeclaration = {
  id: "google_docs",
  display_name: "Google Docs",
  description: "Read documents as text, create documents, and insert or replace text in them.",
  icon: googleIcon("#4285f4", PAGE),
  docs_url: "https://developers.google.com/docs/api/reference/rest",
  api_base_url: "https://docs.googleapis.com/v1",
  // Docs has no call that names the user: the ID token of `openid email` does (identityFromIdToken).
  auth: googleOAuth([READONLY, DOCUMENTS, ...OPENID_SCOPES]),
};

const documentId = { type: "string", minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9_-]+$", description: "Document id: the long id in its URL (docs.google.com/document/d/<id>/edit)" };
const text = { type: "string", minLength: 1, maxLength: 100_000, description: 'Text to insert; "\\n" starts a new paragraph' };
const editResult = { schema: { type: "object", properties: { documentId: { type: "string" } } }, fields: { documentId: "/documentId", revisionId: "/writeControl/requiredRevisionId" } };

export const googleDocsTools: ToolDeclaration[] = [
  {
    name: "google_docs.get_document",
    title: "Read a Google Doc",
    description: "Read a document's title and its text (paragraphs, lists and tables as plain text; at most 200,000 characters), with its revision id.",
    arguments_schema: { type: "object", properties: { document_id: documentId }, required: ["document_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/documents/{document_id}" },
    response: { schema: { type: "object", properties: { documentId: { type: "string" }, body: { type: "object" } } } },
  },
  {
    name: "google_docs.create_document",
    title: "Create a Google Doc",
    description: "Create an empty document with a title in the user's My Drive (add text with google_docs.append_text). Only its owner can see it until it is shared.",
    arguments_schema: { type: "object", properties: { title: { type: "string", minLength: 1, maxLength: 500, description: "Document title" } }, required: ["title"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: [DOCUMENTS],
    request: { method: "POST", path: "/documents", body: { title: "{title}" } },
    response: { schema: { type: "object", properties: { documentId: { type: "string" } } }, fields: { documentId: "/documentId", title: "/title", revisionId: "/revisionId" } },
  },
  {
    name: "google_docs.append_text",
    title: "Append text to a Google Doc",
    description: "Add text at the end of a document's body. Repeating the call adds it again.",
    arguments_schema: { type: "object", properties: { document_id: documentId, text }, required: ["document_id", "text"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: [DOCUMENTS],
    request: { method: "POST", path: "/documents/{document_id}:batchUpdate", body: { requests: [{ insertText: { text: "{text}", endOfSegmentLocation: {} } }] } },
    response: editResult,
  },
  {
    name: "google_docs.insert_text",
    title: "Insert text into a Google Doc",
    description: "Insert text at a position of the body: index 1 is the very start; the index must fall inside an existing paragraph. Repeating the call inserts it again.",
    arguments_schema: {
      type: "object",
      properties: { document_id: documentId, text, index: { type: "integer", minimum: 1, maximum: 10_000_000, description: "UTF-16 position in the body, from 1" } },
      required: ["document_id", "text", "index"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    scopes: [DOCUMENTS],
    request: { method: "POST", path: "/documents/{document_id}:batchUpdate", body: { requests: [{ insertText: { text: "{text}", location: { index: "{index}" } } }] } },
    response: editResult,
  },
  {
    name: "google_docs.replace_text",
    title: "Replace text in a Google Doc",
    description: "Replace every occurrence of a text in a document (body, headers, footers). The replaced text is not kept; the document's version history in Google Docs still has it.",
    arguments_schema: {
      type: "object",
      properties: {
        document_id: documentId,
        find: { type: "string", minLength: 1, maxLength: 10_000, description: "Text to find" },
        replace_with: { type: "string", maxLength: 100_000, description: "Its replacement (empty deletes it)" },
        match_case: { type: "boolean", description: "Match case exactly (default false)" },
      },
      required: ["document_id", "find", "replace_with"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    destructive: true,
    scopes: [DOCUMENTS],
    request: {
      method: "POST",
      path: "/documents/{document_id}:batchUpdate",
      body: { requests: [{ replaceAllText: { containsText: { text: "{find}", matchCase: "{match_case}" }, replaceText: "{replace_with}" } }] },
    },
    response: { schema: { type: "object", properties: { replies: { type: "array" } } }, fields: { documentId: "/documentId", occurrencesChanged: "/replies/0/replaceAllText/occurrencesChanged" } },
  },
];

const googleDocsHooks: ProviderHooks = {
  fetchIdentity: identityFromIdToken,
  tools: { "google_docs.get_document": { mapResponse: ({ body }) => documentText(body as DocsDocument) } },
};

const EXAMPLE_DOCUMENT_ID = "195j9eDD3ccgjQRttHhJPymLJUCOUjs-jmwTrekvdjFE";

export const googleDocs: BuiltInProvider = {
  declaration: googleDocsDeclaration,
  tools: googleDocsTools,
  hooks: googleDocsHooks,
  vendorDescription: googleDescription("docs", "/v1"),
  examples: {
    "google_docs.get_document": { document_id: EXAMPLE_DOCUMENT_ID },
    "google_docs.create_document": { title: "Meeting notes 2026-12-01" },
    "google_docs.append_text": { document_id: EXAMPLE_DOCUMENT_ID, text: "\nAction items:\n- Ana: send the budget\n" },
    "google_docs.insert_text": { document_id: EXAMPLE_DOCUMENT_ID, text: "DRAFT\n", index: 1 },
    "google_docs.replace_text": { document_id: EXAMPLE_DOCUMENT_ID, find: "{{customer}}", replace_with: "Acme Ltd", match_case: true },
  },
};
