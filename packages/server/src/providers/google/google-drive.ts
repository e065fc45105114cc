/**
 * `google_drive`: Google Drive API v3. Search uses Drive's query language (`q`). Drive v3 answers
 * only a file's id, name and type unless `fields` asks for more, so every read names its fields;
 * every call says it supports shared drives, or files there are invisible to it.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { googleDriveHooks } from "./google-drive-hooks.js";
import { googleDescription, googleIcon, googleOAuth, scope } from "./google-auth.js";

const READONLY = scope("drive.readonly");
const DRIVE = scope("drive");

const TRIANGLE = '<path d="M19 11h10l11 19-5 8H13l-5-8z" fill="#fff"/><path d="M19 11l-11 19 5 8 11-19z" fill="#0f9d58"/><path d="M29 11h-10l11 19h10z" fill="#f4b400"/>';

export const googleDriveDeclaration: ProviderDeclaration = {
  id: "google_drive",
  display_name: "Google Drive",
  description: "Search, read and export files; create folders, copy, rename, move, share, trash and delete them.",
  icon: googleIcon("#1a73e8", TRIANGLE),
  docs_url: "https://developers.google.com/drive/api/reference/rest/v3",
  api_base_url: "https://www.googleapis.com/drive/v3",
  auth: googleOAuth([READONLY, DRIVE]),
  // Drive's about resource requires a field mask; its user is the account.
  identity: { path: "/about?fields=user", account_id: "/user/emailAddress", display_name: "/user/emailAddress" },
};

/** The file fields a model needs to find, open and reason about a file. */
const FILE_FIELDS = "id,name,mimeType,description,parents,modifiedTime,createdTime,size,webViewLink,owners(displayName,emailAddress),shared,starred,trashed,driveId";
const ALL_DRIVES = { supportsAllDrives: "true" };

const fileId = { type: "string", minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9_-]+$", description: "Drive file or folder id (from google_drive.search_files)" };
const folderId = (what: string) => ({ type: "string", minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9_-]+$", description: what });
const name = { type: "string", minLength: 1, maxLength: 1000, description: "File name" };
const parents = { type: "array", maxItems: 1, items: folderId("Folder id"), description: "The folder to put it in (one; default: the user's My Drive)" };
const fileShape = { type: "object", properties: { id: { type: "string" } } };
const FILE_RESULT = { schema: fileShape, fields: { id: "/id", name: "/name", mimeType: "/mimeType", parents: "/parents", webViewLink: "/webViewLink", modifiedTime: "/modifiedTime" } };

export const googleDriveTools: ToolDeclaration[] = [
  {
    name: "google_drive.search_files",
    title: "Search Drive files",
    description:
      "Search files and folders with Drive's query language, e.g. \"name contains 'budget' and mimeType = 'application/vnd.google-apps.spreadsheet' and trashed = false\", " +
      "\"fullText contains 'quarterly'\", \"'FOLDER_ID' in parents\", \"modifiedTime > '2026-01-01T00:00:00'\". Covers My Drive and shared drives.",
    arguments_schema: {
      type: "object",
      properties: {
        q: { type: "string", maxLength: 2000, description: "Drive search query (string values in single quotes)" },
        order_by: { type: "string", maxLength: 200, pattern: "^[a-zA-Z_]+( desc)?(,[a-zA-Z_]+( desc)?)*$", description: "Sort keys, e.g. \"modifiedTime desc\" or \"folder,name\"" },
        page_size: { type: "integer", minimum: 1, maximum: 1000, description: "Files per page (Google's default 100)" },
        page_token: { type: "string", maxLength: 1000, description: "next_page_token of the previous page" },
      },
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: {
      method: "GET",
      path: "/files",
      query: { q: "{q}", orderBy: "{order_by}", pageSize: "{page_size}", pageToken: "{page_token}", fields: `nextPageToken,incompleteSearch,files(${FILE_FIELDS})`, includeItemsFromAllDrives: "true", ...ALL_DRIVES },
    },
    response: { schema: { type: "object", properties: { files: { type: "array", items: fileShape } } }, fields: { files: "/files", next_page_token: "/nextPageToken", incomplete_search: "/incompleteSearch" } },
  },
  {
    name: "google_drive.get_file",
    title: "Get Drive file details",
    description: "Get a file's or folder's details: name, type, folder, size, owners, times and its link.",
    arguments_schema: { type: "object", properties: { file_id: fileId }, required: ["file_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/files/{file_id}", query: { fields: FILE_FIELDS, ...ALL_DRIVES } },
    response: { schema: fileShape },
  },
  {
    name: "google_drive.export_file",
    title: "Read a Google Doc, Sheet or Slides as text",
    description:
      "Export a Google Docs, Sheets or Slides file as text to read it: text/plain or text/markdown for documents and slides, text/csv for a spreadsheet's first sheet. " +
      "At most 10 MB is exported; the text returned is cut at 200,000 characters. Files that are not Google editors' files cannot be exported.",
    arguments_schema: {
      type: "object",
      properties: {
        file_id: fileId,
        mime_type: { type: "string", enum: ["text/plain", "text/markdown", "text/csv", "text/tab-separated-values", "text/html"], description: "Format to export to" },
      },
      required: ["file_id", "mime_type"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: { method: "GET", path: "/files/{file_id}/export", query: { mimeType: "{mime_type}" } },
  },
  {
    name: "google_drive.list_permissions",
    title: "List who a file is shared with",
    description: "List who can access a file or folder: each permission's id, role (owner, organizer, writer, commenter, reader) and grantee (user, group, domain or anyone).",
    arguments_schema: {
      type: "object",
      properties: { file_id: fileId, page_size: { type: "integer", minimum: 1, maximum: 100, description: "Permissions per page" }, page_token: { type: "string", maxLength: 1000, description: "next_page_token of the previous page" } },
      required: ["file_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    request: {
      method: "GET",
      path: "/files/{file_id}/permissions",
      query: { pageSize: "{page_size}", pageToken: "{page_token}", fields: "nextPageToken,permissions(id,type,role,emailAddress,domain,displayName,expirationTime,deleted)", ...ALL_DRIVES },
    },
    response: { schema: { type: "object", properties: { permissions: { type: "array" } } }, fields: { permissions: "/permissions", next_page_token: "/nextPageToken" } },
  },
  {
    name: "google_drive.create_folder",
    title: "Create a Drive folder",
    description: "Create a folder.",
    arguments_schema: { type: "object", properties: { name, parents, description: { type: "string", maxLength: 4000, description: "Folder description" } }, required: ["name"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: [DRIVE],
    request: {
      method: "POST",
      path: "/files",
      query: { fields: FILE_FIELDS, ...ALL_DRIVES },
      body: { name: "{name}", mimeType: "application/vnd.google-apps.folder", parents: "{parents}", description: "{description}" },
    },
    response: FILE_RESULT,
  },
  {
    name: "google_drive.copy_file",
    title: "Copy a Drive file",
    description: "Copy a file (not a folder), optionally under a new name or into another folder. The copy is shared only with its owner.",
    arguments_schema: { type: "object", properties: { file_id: fileId, name: { ...name, description: "Name of the copy (default: \"Copy of …\")" }, parents }, required: ["file_id"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: [DRIVE],
    request: { method: "POST", path: "/files/{file_id}/copy", query: { fields: FILE_FIELDS, ...ALL_DRIVES }, body: { name: "{name}", parents: "{parents}" } },
    response: FILE_RESULT,
  },
  {
    name: "google_drive.rename_file",
    title: "Rename a Drive file",
    description: "Rename a file or folder, or change its description. Undone by renaming it back.",
    arguments_schema: {
      type: "object",
      properties: { file_id: fileId, name, description: { type: "string", maxLength: 4000, description: "New description" } },
      required: ["file_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: [DRIVE],
    request: { method: "PATCH", path: "/files/{file_id}", query: { fields: FILE_FIELDS, ...ALL_DRIVES }, body: { name: "{name}", description: "{description}" } },
    response: FILE_RESULT,
  },
  {
    name: "google_drive.move_file",
    title: "Move a Drive file",
    description: "Move a file or folder from one folder to another (its sharing follows the new folder's). Undone by moving it back.",
    arguments_schema: {
      type: "object",
      properties: { file_id: fileId, to_folder_id: folderId("Folder to move it into"), from_folder_id: folderId("Folder it is in now (parents of google_drive.get_file)") },
      required: ["file_id", "to_folder_id", "from_folder_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: [DRIVE],
    request: { method: "PATCH", path: "/files/{file_id}", query: { addParents: "{to_folder_id}", removeParents: "{from_folder_id}", fields: FILE_FIELDS, ...ALL_DRIVES }, body: {} },
    response: FILE_RESULT,
  },
  {
    name: "google_drive.share_file",
    title: "Share a Drive file",
    description:
      "Give a person, a group, a whole domain or anyone with the link access to a file or folder. This can share outside the organisation; " +
      "people notified by email keep the message even if the access is removed later (google_drive.unshare_file).",
    arguments_schema: {
      type: "object",
      properties: {
        file_id: fileId,
        type: { type: "string", enum: ["user", "group", "domain", "anyone"], description: "Who: a user or group (email_address), a domain, or anyone with the link" },
        role: { type: "string", enum: ["reader", "commenter", "writer"], description: "What they may do" },
        email_address: { type: "string", minLength: 3, maxLength: 320, description: "The user's or group's address (type user or group)" },
        domain: { type: "string", minLength: 1, maxLength: 253, pattern: "^[A-Za-z0-9.-]+$", description: "The domain (type domain)" },
        send_notification_email: { type: "boolean", description: "Email the user or group about it (Google's default true)" },
        email_message: { type: "string", maxLength: 4000, description: "Text of that email" },
      },
      required: ["file_id", "type", "role"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    scopes: [DRIVE],
    request: {
      method: "POST",
      path: "/files/{file_id}/permissions",
      query: { sendNotificationEmail: "{send_notification_email}", emailMessage: "{email_message}", ...ALL_DRIVES },
      body: { type: "{type}", role: "{role}", emailAddress: "{email_address}", domain: "{domain}" },
    },
    response: { schema: { type: "object", properties: { id: { type: "string" } } }, fields: { id: "/id", type: "/type", role: "/role", emailAddress: "/emailAddress", domain: "/domain" } },
  },
  {
    name: "google_drive.unshare_file",
    title: "Remove access to a Drive file",
    description: "Remove one permission (its id from google_drive.list_permissions) from a file or folder: that grantee loses access. Undone only by sharing again.",
    arguments_schema: {
      type: "object",
      properties: { file_id: fileId, permission_id: { type: "string", minLength: 1, maxLength: 200, pattern: "^[A-Za-z0-9_-]+$", description: "Permission id" } },
      required: ["file_id", "permission_id"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: [DRIVE],
    request: { method: "DELETE", path: "/files/{file_id}/permissions/{permission_id}", query: ALL_DRIVES },
  },
  {
    name: "google_drive.trash_file",
    title: "Move a Drive file to the trash",
    description: "Move a file or folder (with its contents) to the trash. Drive deletes it for good after 30 days; until then it can be restored from the trash.",
    arguments_schema: { type: "object", properties: { file_id: fileId }, required: ["file_id"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: [DRIVE],
    request: { method: "PATCH", path: "/files/{file_id}", query: { fields: FILE_FIELDS, ...ALL_DRIVES }, body: { trashed: true } },
    response: { schema: fileShape, fields: { id: "/id", name: "/name", trashed: "/trashed" } },
  },
  {
    name: "google_drive.delete_file",
    title: "Delete a Drive file for good",
    description: "Delete a file or folder permanently, skipping the trash; a folder's contents go with it. Irreversible.",
    arguments_schema: { type: "object", properties: { file_id: fileId }, required: ["file_id"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: [DRIVE],
    request: { method: "DELETE", path: "/files/{file_id}", query: ALL_DRIVES },
  },
  {
    name: "google_drive.list_comments",
    title: "List comments on a Drive file",
    description: "List the comments on a file, with their authors, quoted text, replies and whether they are resolved.",
    arguments_schema: {
      type: "object",
      properties: { file_id: fileId, page_size: { type: "integer", minimum: 1, maximum: 100, description: "Comments per page" }, page_token: { type: "string", maxLength: 1000, description: "next_page_token of the previous page" } },
      required: ["file_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: [READONLY],
    // Drive refuses comment calls without a field mask.
    request: {
      method: "GET",
      path: "/files/{file_id}/comments",
      query: {
        pageSize: "{page_size}",
        pageToken: "{page_token}",
        fields: "nextPageToken,comments(id,content,author(displayName,emailAddress),createdTime,resolved,quotedFileContent,replies(id,content,author(displayName),createdTime))",
      },
    },
    response: { schema: { type: "object", properties: { comments: { type: "array" } } }, fields: { comments: "/comments", next_page_token: "/nextPageToken" } },
  },
  {
    name: "google_drive.create_comment",
    title: "Comment on a Drive file",
    description: "Add a comment to a file. Collaborators may be notified.",
    arguments_schema: { type: "object", properties: { file_id: fileId, content: { type: "string", minLength: 1, maxLength: 30_000, description: "Comment text" } }, required: ["file_id", "content"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: [DRIVE],
    request: { method: "POST", path: "/files/{file_id}/comments", query: { fields: "id,content,createdTime,author(displayName)" }, body: { content: "{content}" } },
    response: { schema: { type: "object", properties: { id: { type: "string" } } }, fields: { id: "/id", content: "/content", createdTime: "/createdTime" } },
  },
];

const EXAMPLE_FILE_ID = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789";
const EXAMPLE_FOLDER_ID = "0BxFolderAbCdEfGhIjKlMn";

export const googleDrive: BuiltInProvider = {
  declaration: googleDriveDeclaration,
  tools: googleDriveTools,
  hooks: googleDriveHooks,
  vendorDescription: googleDescription("drive"),
  examples: {
    "google_drive.search_files": { q: "name contains 'budget' and trashed = false", order_by: "modifiedTime desc", page_size: 10 },
    "google_drive.get_file": { file_id: EXAMPLE_FILE_ID },
    "google_drive.export_file": { file_id: EXAMPLE_FILE_ID, mime_type: "text/plain" },
    "google_drive.list_permissions": { file_id: EXAMPLE_FILE_ID },
    "google_drive.create_folder": { name: "Reports 2026", parents: [EXAMPLE_FOLDER_ID] },
    "google_drive.copy_file": { file_id: EXAMPLE_FILE_ID, name: "Budget 2027 (draft)" },
    "google_drive.rename_file": { file_id: EXAMPLE_FILE_ID, name: "Budget 2026 (final)" },
    "google_drive.move_file": { file_id: EXAMPLE_FILE_ID, to_folder_id: EXAMPLE_FOLDER_ID, from_folder_id: "0BxOldFolderAbCdEfGh" },
    "google_drive.share_file": { file_id: EXAMPLE_FILE_ID, type: "user", role: "commenter", email_address: "alice@example.com", send_notification_email: false },
    "google_drive.unshare_file": { file_id: EXAMPLE_FILE_ID, permission_id: "01234567890123456789" },
    "google_drive.trash_file": { file_id: EXAMPLE_FILE_ID },
    "google_drive.delete_file": { file_id: EXAMPLE_FILE_ID },
    "google_drive.list_comments": { file_id: EXAMPLE_FILE_ID, page_size: 20 },
    "google_drive.create_comment": { file_id: EXAMPLE_FILE_ID, content: "Figures in row 12 need a source." },
  },
};
