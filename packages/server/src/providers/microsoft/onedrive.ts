/**
 * `microsoft_onedrive`: OneDrive (and SharePoint document libraries) through Microsoft Graph v1.0.
 * Graph's description reaches items only under /drives/{drive-id}, so tools take the drive id
 * (get_drive gives the user's own) and `root` for a drive's top folder, which Graph takes as an item id.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import type { ProviderHooks } from "../provider-types.js";
import { GRAPH_BASE_URL, GRAPH_DESCRIPTION, GRAPH_IDENTITY, TENANT_NOTE, collectionOf, graphAuth, scopesOf, graphId, top } from "./graph.js";
import { ONEDRIVE_ICON } from "./icons.js";


const ITEM_FIELDS = {
  id: "/id",
  name: "/name",
  size: "/size",
  web_url: "/webUrl",
  created_at: "/createdDateTime",
  modified_at: "/lastModifiedDateTime",
  modified_by: "/lastModifiedBy/user/displayName",
  mime_type: "/file/mimeType",
  child_count: "/folder/childCount",
  parent_id: "/parentReference/id",
  parent_path: "/parentReference/path",
};
const ITEM_SELECT = "id,name,size,webUrl,createdDateTime,lastModifiedDateTime,lastModifiedBy,file,folder,parentReference";

const driveId = graphId("The drive id: get_drive gives the user's own OneDrive");
const itemId = graphId("The item id, or root for the drive's top folder");
const driveItem = { drive_id: driveId, item_id: itemId };

const tools: ToolDeclaration[] = [
  {
    name: "microsoft_onedrive.get_drive",
    title: "Get my OneDrive",
    description: "Get the connected user's OneDrive: its id (which the other tools take), owner, type and storage quota.",
    arguments_schema: { type: "object", properties: {}, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["Files.Read.All"],
    request: { method: "GET", path: "/me/drive" },
    response: {
      schema: { type: "object" },
      fields: { id: "/id", name: "/name", drive_type: "/driveType", owner: "/owner/user/displayName", web_url: "/webUrl", quota_used: "/quota/used", quota_total: "/quota/total" },
    },
  },
  {
    name: "microsoft_onedrive.list_drives",
    title: "List drives",
    description: "List the drives the user can reach directly (their OneDrive; for work accounts also document libraries).",
    arguments_schema: { type: "object", properties: { top: top(200, "drives") }, additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["Files.Read.All"],
    request: { method: "GET", path: "/me/drives", query: { $top: "{top}" } },
    response: { schema: collectionOf(), root: "/value", fields: { id: "/id", name: "/name", drive_type: "/driveType", web_url: "/webUrl" } },
  },
  {
    name: "microsoft_onedrive.list_children",
    title: "List a folder",
    description: "List the files and folders in a folder (item_id root for the top of the drive). Folders have child_count, files mime_type.",
    arguments_schema: { type: "object", properties: { ...driveItem, top: top(999, "items") }, required: ["drive_id", "item_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["Files.Read.All"],
    request: { method: "GET", path: "/drives/{drive_id}/items/{item_id}/children", query: { $top: "{top}", $select: ITEM_SELECT } },
    response: { schema: collectionOf(), root: "/value", fields: ITEM_FIELDS },
  },
  {
    name: "microsoft_onedrive.get_item",
    title: "Get a file or folder",
    description: "Get one file's or folder's metadata: name, size, dates, who changed it last, where it is.",
    arguments_schema: { type: "object", properties: driveItem, required: ["drive_id", "item_id"], additionalProperties: false },
    risk: "low",
    side_effect: "read",
    scopes: ["Files.Read.All"],
    request: { method: "GET", path: "/drives/{drive_id}/items/{item_id}", query: { $select: ITEM_SELECT } },
    response: { schema: { type: "object" }, fields: ITEM_FIELDS },
  },
  {
    name: "microsoft_onedrive.search",
    title: "Search files",
    description: "Search a drive for files and folders whose name, metadata or content match the words given.",
    arguments_schema: {
      type: "object",
      properties: { drive_id: driveId, q: { type: "string", minLength: 1, maxLength: 500, description: "Words to look for, e.g. budget 2026" }, top: top(200, "results") },
      required: ["drive_id", "q"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "read",
    scopes: ["Files.Read.All"],
    // The hook writes q as an OData string literal: a quote inside it is doubled.
    request: { method: "GET", path: "/drives/{drive_id}/microsoft.graph.search(q='{q}')", query: { $top: "{top}", $select: ITEM_SELECT } },
    response: { schema: collectionOf(), root: "/value", fields: ITEM_FIELDS },
  },
  {
    name: "microsoft_onedrive.create_folder",
    title: "Create a folder",
    description: "Create a folder inside another (parent_id root for the top of the drive). Fails if the parent already has an item of that name.",
    arguments_schema: {
      type: "object",
      properties: { drive_id: driveId, parent_id: graphId("The parent folder's id, or root"), name: { type: "string", minLength: 1, maxLength: 255, pattern: '^[^"*:<>?/\\\\|]+$', description: "The new folder's name" } },
      required: ["drive_id", "parent_id", "name"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    scopes: ["Files.ReadWrite.All"],
    request: { method: "POST", path: "/drives/{drive_id}/items/{parent_id}/children", body: { name: "{name}", folder: {} } },
    response: { schema: { type: "object" }, fields: ITEM_FIELDS },
  },
  {
    name: "microsoft_onedrive.update_item",
    title: "Rename or move",
    description: "Rename a file or folder, move it to another folder of the same drive, or both. Links to it keep working.",
    arguments_schema: {
      type: "object",
      properties: {
        ...driveItem,
        name: { type: "string", minLength: 1, maxLength: 255, pattern: '^[^"*:<>?/\\\\|]+$', description: "The new name" },
        parent_id: graphId("Id of the folder to move it into"),
        description: { type: "string", maxLength: 1000, description: "The item's description" },
      },
      required: ["drive_id", "item_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: ["Files.ReadWrite.All"],
    request: { method: "PATCH", path: "/drives/{drive_id}/items/{item_id}", body: { name: "{name}", description: "{description}", parentReference: { id: "{parent_id}" } } },
    response: { schema: { type: "object" }, fields: ITEM_FIELDS },
  },
  {
    name: "microsoft_onedrive.copy_item",
    title: "Copy a file or folder",
    description: "Copy a file or folder into a folder, optionally under a new name. OneDrive copies in the background: the copy appears shortly after the call returns.",
    arguments_schema: {
      type: "object",
      properties: {
        ...driveItem,
        parent_id: graphId("Id of the folder to copy into"),
        name: { type: "string", minLength: 1, maxLength: 255, pattern: '^[^"*:<>?/\\\\|]+$', description: "Name of the copy (default the same name)" },
      },
      required: ["drive_id", "item_id", "parent_id"],
      additionalProperties: false,
    },
    risk: "low",
    side_effect: "write",
    scopes: ["Files.ReadWrite.All"],
    request: { method: "POST", path: "/drives/{drive_id}/items/{item_id}/microsoft.graph.copy", body: { name: "{name}", parentReference: { driveId: "{drive_id}", id: "{parent_id}" } } },
  },
  {
    name: "microsoft_onedrive.create_sharing_link",
    title: "Create a sharing link",
    description:
      "Create a link to a file or folder. scope anonymous makes it open to anyone who has the link, inside or outside the organisation; organization to signed-in colleagues. A link stays valid until it expires or is removed in OneDrive.",
    arguments_schema: {
      type: "object",
      properties: {
        ...driveItem,
        type: { type: "string", enum: ["view", "edit", "embed"], description: "What the link allows" },
        scope: { type: "string", enum: ["anonymous", "organization", "users"], description: "Who the link works for (default: the organisation's policy)" },
        expiration: { type: "string", format: "date-time", description: "When the link stops working (anonymous links only)" },
        password: { type: "string", minLength: 1, maxLength: 256, description: "A password the link asks for (personal OneDrive only)" },
      },
      required: ["drive_id", "item_id", "type"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    scopes: ["Files.ReadWrite.All"],
    request: {
      method: "POST",
      path: "/drives/{drive_id}/items/{item_id}/microsoft.graph.createLink",
      body: { type: "{type}", scope: "{scope}", expirationDateTime: "{expiration}", password: "{password}" },
    },
    response: {
      schema: { type: "object" },
      fields: { permission_id: "/id", url: "/link/webUrl", type: "/link/type", scope: "/link/scope", roles: "/roles", expires_at: "/expirationDateTime", has_password: "/hasPassword" },
    },
  },
  {
    name: "microsoft_onedrive.invite",
    title: "Share with people",
    description:
      "Give people access to a file or folder (read or write) and, unless send_invitation is false, email them a link. Anyone named, inside or outside the organisation, gets access at once; remove it in OneDrive's Manage access.",
    arguments_schema: {
      type: "object",
      properties: {
        ...driveItem,
        emails: { type: "array", minItems: 1, maxItems: 50, items: { type: "string", format: "email", maxLength: 320, description: "An email address" }, description: "Who to share with" },
        role: { type: "string", enum: ["read", "write"], description: "What they may do" },
        message: { type: "string", maxLength: 2000, description: "A note in the invitation email" },
        send_invitation: { type: "boolean", description: "Email them (default true)" },
      },
      required: ["drive_id", "item_id", "emails", "role"],
      additionalProperties: false,
    },
    risk: "high",
    side_effect: "write",
    scopes: ["Files.ReadWrite.All"],
    request: {
      method: "POST",
      path: "/drives/{drive_id}/items/{item_id}/microsoft.graph.invite",
      body: { recipients: "{emails}", roles: ["{role}"], message: "{message}", sendInvitation: "{send_invitation}", requireSignIn: true },
    },
    response: { schema: collectionOf(), root: "/value", fields: { permission_id: "/id", roles: "/roles", url: "/link/webUrl" } },
  },
  {
    name: "microsoft_onedrive.delete_item",
    title: "Delete a file or folder",
    description: "Delete a file or a folder with everything in it. It goes to the recycle bin, from which only a person can restore it (for 30 to 93 days).",
    arguments_schema: { type: "object", properties: driveItem, required: ["drive_id", "item_id"], additionalProperties: false },
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: ["Files.ReadWrite.All"],
    request: { method: "DELETE", path: "/drives/{drive_id}/items/{item_id}" },
  },
];

const declaration: ProviderDeclaration = {
  id: "microsoft_onedrive",
  display_name: "Microsoft OneDrive",
  description: `Files in OneDrive and SharePoint document libraries, through Microsoft Graph. ${TENANT_NOTE}`,
  icon: ONEDRIVE_ICON,
  docs_url: "https://learn.microsoft.com/en-us/graph/api/resources/onedrive?view=graph-rest-1.0",
  api_base_url: GRAPH_BASE_URL,
  auth: graphAuth(scopesOf(tools)),
  identity: GRAPH_IDENTITY,
};

type Json = Record<string, any>;

const hooks: ProviderHooks = {
  tools: {
    "microsoft_onedrive.search": {
      // The path placeholder is percent-encoded as one segment; OData also wants ' doubled inside '…'.
      request: (built, args) => ({
        ...built,
        path: `/drives/${encodeURIComponent(String(args.drive_id))}/microsoft.graph.search(q='${encodeURIComponent(String(args.q).replace(/'/g, "''"))}')`,
      }),
    },
    "microsoft_onedrive.update_item": {
      // An empty parentReference would be a move to nowhere: only sent with a parent.
      request: (built, args) => {
        const body = { ...(built.body as Json) };
        if (args.parent_id === undefined) delete body.parentReference;
        return { ...built, body };
      },
    },
    "microsoft_onedrive.invite": {
      request: (built) => {
        const body = { ...(built.body as Json) };
        body.recipients = (body.recipients as string[]).map((email) => ({ email }));
        return { ...built, body };
      },
    },
    // 202 Accepted, no body: the copy runs in the background.
    "microsoft_onedrive.copy_item": { mapResponse: (_response, args) => ({ accepted: true, item_id: args.item_id, parent_id: args.parent_id, name: args.name ?? null }) },
    "microsoft_onedrive.delete_item": { mapResponse: (_response, args) => ({ deleted: true, item_id: args.item_id }) },
  },
};

const DRIVE = "b!t18F8ybsHUq1z3LTz8xvZqP8zaSWjkFNhsME-Fepo75dTf9vQKfeRblBZjoSQrd7";
const ITEM = "01BYE5RZ6QN3ZWBTUFOFD3GSPGOHDJD36K";

export const microsoftOnedrive: BuiltInProvider = {
  declaration,
  tools,
  hooks,
  vendorDescription: GRAPH_DESCRIPTION,
  examples: {
    "microsoft_onedrive.get_drive": {},
    "microsoft_onedrive.list_drives": { top: 10 },
    "microsoft_onedrive.list_children": { drive_id: DRIVE, item_id: "root", top: 100 },
    "microsoft_onedrive.get_item": { drive_id: DRIVE, item_id: ITEM },
    "microsoft_onedrive.search": { drive_id: DRIVE, q: "O'Brien budget", top: 20 },
    "microsoft_onedrive.create_folder": { drive_id: DRIVE, parent_id: "root", name: "Reports 2026" },
    "microsoft_onedrive.update_item": { drive_id: DRIVE, item_id: ITEM, name: "Budget (final).xlsx" },
    "microsoft_onedrive.copy_item": { drive_id: DRIVE, item_id: ITEM, parent_id: "root", name: "Budget copy.xlsx" },
    "microsoft_onedrive.create_sharing_link": { drive_id: DRIVE, item_id: ITEM, type: "view", scope: "organization" },
    "microsoft_onedrive.invite": { drive_id: DRIVE, item_id: ITEM, emails: ["ana@contoso.com"], role: "read", message: "Here is the budget" },
    "microsoft_onedrive.delete_item": { drive_id: DRIVE, item_id: ITEM },
  },
};
