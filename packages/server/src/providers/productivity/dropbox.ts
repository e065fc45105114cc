/**
 * `dropbox`: Dropbox's API v2. Every call is an RPC: a POST of a JSON argument to
 * https://api.dropboxapi.com/2/<namespace>/<route>; a route without arguments takes the JSON
 * `null`. Offline access (`token_access_type=offline`) is what gives a refresh token.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { anyObject, argumentsOf, boolean, choice, integer, monogramIcon, requiredText, scopesOf, text } from "../crm/schema-parts.js";
import type { ProviderHooks } from "../provider-types.js";

/** "" is the root; otherwise an absolute path ("/Reports/q3.pdf") or an id ("id:a4ayc_80_OEAAAAAAAAAYa"). */
const PATH_PATTERN = "^$|^/.*[^/]$|^(id|ns|rev):[A-Za-z0-9_./-]+$";
const path = (what: string, allowRoot = false) =>
  text(`The ${what}: a path like /Reports/2026 (no trailing slash)${allowRoot ? ", \"\" for the root" : ""}, or an id like id:a4ayc_80_OEAAAAAAAAAYa`, 4096, {
    pattern: allowRoot ? PATH_PATTERN : PATH_PATTERN.replace("^$|", ""),
    ...(allowRoot ? {} : { minLength: 1 }),
  });

/** A file or folder's metadata; `.tag` says which. */
const METADATA_FIELDS = {
  tag: "/.tag",
  id: "/id",
  name: "/name",
  path_display: "/path_display",
  size: "/size",
  client_modified: "/client_modified",
  server_modified: "/server_modified",
  rev: "/rev",
  content_hash: "/content_hash",
};
const wrappedMetadata = (fields: Record<string, string>) => Object.fromEntries(Object.entries(fields).map(([name, pointer]) => [name, `/metadata${pointer}`]));
const entriesResult = { schema: { type: "object", required: ["entries"], properties: { entries: { type: "array", items: anyObject } } }, fields: { entries: "/entries", cursor: "/cursor", has_more: "/has_more" } };
const metadataResult = { schema: { type: "object", required: ["metadata"], properties: { metadata: anyObject } }, fields: wrappedMetadata(METADATA_FIELDS) };

const tools: ToolDeclaration[] = [
  {
    name: "dropbox.list_folder",
    title: "List a folder",
    description: "List the files and folders in a folder (or its whole tree with recursive). When has_more is true, list_folder_continue with the cursor gives the rest.",
    arguments_schema: argumentsOf({ path: path("folder", true), recursive: boolean("Include everything below, not just the folder's own entries"), limit: integer("Entries per call (at most 2,000; Dropbox may return fewer)", 1, 2000) }, ["path"]),
    risk: "low",
    side_effect: "read",
    scopes: ["files.metadata.read"],
    request: { method: "POST", path: "/files/list_folder", body: { path: "{path}", recursive: "{recursive}", limit: "{limit}" } },
    response: entriesResult,
  },
  {
    name: "dropbox.list_folder_continue",
    title: "List more of a folder",
    description: "Get the next entries of a folder listing from the cursor list_folder (or a previous call) returned.",
    arguments_schema: argumentsOf({ cursor: requiredText("The cursor from list_folder", 4000) }, ["cursor"]),
    risk: "low",
    side_effect: "read",
    scopes: ["files.metadata.read"],
    request: { method: "POST", path: "/files/list_folder/continue", body: { cursor: "{cursor}" } },
    response: entriesResult,
  },
  {
    name: "dropbox.search",
    title: "Search files",
    description: "Search file and folder names and, for files Dropbox has indexed, their content; optionally below one folder or only file names.",
    arguments_schema: argumentsOf(
      {
        query: requiredText("What to search for", 1000),
        path: path("folder to search in (default: everywhere)", true),
        max_results: integer("At most this many matches (at most 1,000)", 1, 1000),
        filename_only: boolean("Match file names only, not content"),
        file_status: choice("active (default) or deleted files", ["active", "deleted"]),
      },
      ["query"],
    ),
    risk: "low",
    side_effect: "read",
    scopes: ["files.metadata.read"],
    request: {
      method: "POST",
      path: "/files/search_v2",
      body: { query: "{query}", options: { path: "{path}", max_results: "{max_results}", filename_only: "{filename_only}", file_status: "{file_status}" } },
    },
    response: { schema: { type: "object", required: ["matches"], properties: { matches: { type: "array", items: anyObject } } }, fields: { matches: "/matches", has_more: "/has_more", cursor: "/cursor" } },
  },
  {
    name: "dropbox.get_metadata",
    title: "Get file or folder details",
    description: "Get a file's or folder's metadata: kind (file or folder), id, name, path, size, modification times, revision and content hash.",
    arguments_schema: argumentsOf({ path: path("file or folder") }, ["path"]),
    risk: "low",
    side_effect: "read",
    scopes: ["files.metadata.read"],
    request: { method: "POST", path: "/files/get_metadata", body: { path: "{path}" } },
    response: { schema: anyObject, fields: METADATA_FIELDS },
  },
  {
    name: "dropbox.create_folder",
    title: "Create a folder",
    description: "Create a folder (and any missing parents). With autorename, a name already taken gets a number added instead of failing.",
    arguments_schema: argumentsOf({ path: path("new folder"), autorename: boolean("Rename instead of failing when the name is taken") }, ["path"]),
    risk: "low",
    side_effect: "write",
    scopes: ["files.content.write"],
    request: { method: "POST", path: "/files/create_folder_v2", body: { path: "{path}", autorename: "{autorename}" } },
    response: metadataResult,
  },
  {
    name: "dropbox.copy",
    title: "Copy a file or folder",
    description: "Copy a file or folder (with everything in it) to a new path.",
    arguments_schema: argumentsOf({ from_path: path("file or folder to copy"), to_path: path("destination path, including the name"), autorename: boolean("Rename instead of failing when the destination is taken") }, [
      "from_path",
      "to_path",
    ]),
    risk: "low",
    side_effect: "write",
    scopes: ["files.content.write"],
    request: { method: "POST", path: "/files/copy_v2", body: { from_path: "{from_path}", to_path: "{to_path}", autorename: "{autorename}" } },
    response: metadataResult,
  },
  {
    name: "dropbox.move",
    title: "Move or rename",
    description: "Move or rename a file or folder. Shared links to it keep working; people it was shared with through a folder may lose access if it leaves that folder.",
    arguments_schema: argumentsOf({ from_path: path("file or folder to move"), to_path: path("new path, including the name"), autorename: boolean("Rename instead of failing when the destination is taken") }, [
      "from_path",
      "to_path",
    ]),
    risk: "low",
    side_effect: "write",
    scopes: ["files.content.write"],
    request: { method: "POST", path: "/files/move_v2", body: { from_path: "{from_path}", to_path: "{to_path}", autorename: "{autorename}" } },
    response: metadataResult,
  },
  {
    name: "dropbox.create_shared_link",
    title: "Share a link",
    description:
      "Create a shared link to a file or folder. A public link lets anyone who has it open the content, outside the team too, until the link is revoked in Dropbox.",
    arguments_schema: argumentsOf(
      {
        path: path("file or folder to share"),
        audience: choice("Who can open the link: public (anyone), team (members of the team) or no_one (only people already given access)", ["public", "team", "no_one"]),
        expires: text("When the link stops working, e.g. 2026-12-31T23:59:59Z (paid plans)", 20, { pattern: "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$" }),
        allow_download: boolean("Whether the content can be downloaded, not only viewed"),
      },
      ["path"],
    ),
    risk: "high",
    side_effect: "write",
    scopes: ["sharing.write"],
    request: { method: "POST", path: "/sharing/create_shared_link_with_settings", body: { path: "{path}", settings: { audience: "{audience}", expires: "{expires}", allow_download: "{allow_download}" } } },
    response: { schema: anyObject, fields: { url: "/url", name: "/name", path_lower: "/path_lower", expires: "/expires", visibility: "/link_permissions/resolved_visibility/.tag" } },
  },
  {
    name: "dropbox.delete",
    title: "Delete a file or folder",
    description: "Delete a file or folder with everything in it. Deleted files can be restored from Dropbox's deleted files for 30 days (longer on some plans), then they are gone.",
    arguments_schema: argumentsOf({ path: path("file or folder to delete") }, ["path"]),
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: ["files.content.write"],
    request: { method: "POST", path: "/files/delete_v2", body: { path: "{path}" } },
    response: metadataResult,
  },
];

const hooks: ProviderHooks = {
  // The account is read with an RPC (POST, argument null), which a declared identity cannot say.
  async fetchIdentity(api) {
    const response = await api({ method: "POST", path: "/users/get_current_account", body: null });
    const account = response.body as { account_id?: unknown; email?: unknown; name?: { display_name?: unknown } } | null;
    if (response.status !== 200 || typeof account?.account_id !== "string") throw new Error(`Dropbox users/get_current_account answered ${response.status} without an account id`);
    const displayName = typeof account.email === "string" ? account.email : account.name?.display_name;
    return { accountId: account.account_id, displayName: typeof displayName === "string" && displayName ? displayName : account.account_id };
  },
  oauth: {
    // auth/token/revoke is an RPC without arguments: the token as Bearer and the JSON null.
    revocation: ({ token, revokeUrl }) => ({ url: revokeUrl, request: { method: "POST", path: "", headers: { authorization: `Bearer ${token}` }, body: null } }),
  },
};

const declaration: ProviderDeclaration = {
  id: "dropbox",
  display_name: "Dropbox",
  description: "Dropbox: list, search, organise, share and delete files and folders.",
  icon: monogramIcon("D", "#0061FF"),
  docs_url: "https://www.dropbox.com/developers/documentation/http/documentation",
  api_base_url: "https://api.dropboxapi.com/2",
  auth: {
    type: "oauth2",
    authorize_url: "https://www.dropbox.com/oauth2/authorize",
    token_url: "https://api.dropboxapi.com/oauth2/token",
    revocation_url: "https://api.dropboxapi.com/2/auth/token/revoke",
    scopes: scopesOf(tools, ["account_info.read"]),
    scope_separator: " ",
    // Without offline access Dropbox issues only a four-hour access token and no refresh token.
    authorize_params: { token_access_type: "offline" },
    client_auth: "client_secret_post",
  },
};

export const dropbox: BuiltInProvider = {
  declaration,
  tools,
  hooks,
  examples: {
    "dropbox.list_folder": { path: "/Reports", limit: 100 },
    "dropbox.list_folder_continue": { cursor: "ZtkX9_EHj3x7PMkVuFIhwKYXEpwpLwyxp9vMKomUhllil9q7eWiAu" },
    "dropbox.search": { query: "quarterly report", path: "/Reports", max_results: 20 },
    "dropbox.get_metadata": { path: "/Reports/q3.pdf" },
    "dropbox.create_folder": { path: "/Reports/2026", autorename: true },
    "dropbox.copy": { from_path: "/Reports/q3.pdf", to_path: "/Archive/q3.pdf", autorename: true },
    "dropbox.move": { from_path: "/Reports/q3-draft.pdf", to_path: "/Reports/q3.pdf" },
    "dropbox.create_shared_link": { path: "/Reports/q3.pdf", audience: "team", allow_download: false },
    "dropbox.delete": { path: "/Reports/old-draft.pdf" },
  },
  vendorDescription: {
    none:
      "Dropbox publishes its API as Stone specifications, not OpenAPI. Checked against the `dropbox` SDK 10.34.0 (MIT), generated from them: each tool's route and " +
      "its OAuth scope in lib/routes.js (files/list_folder, files/list_folder/continue, files/search_v2, files/get_metadata, files/create_folder_v2, files/copy_v2, " +
      "files/move_v2, files/delete_v2, sharing/create_shared_link_with_settings, users/get_current_account, auth/token/revoke) and the argument fields in types/dropbox_types.d.ts",
  },
};
