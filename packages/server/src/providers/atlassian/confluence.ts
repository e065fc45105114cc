/**
 * `confluence`: Confluence Cloud (Atlassian OAuth 2.0 3LO; REST API v2 for pages, spaces and
 * comments, v1 for CQL search, through api.atlassian.com with the site's cloud id).
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import type { ProviderHooks } from "../provider-types.js";
import { ATLASSIAN_CLOUD_ID, atlassianOAuth } from "./atlassian-cloud.js";
import { badgeIcon } from "./icons.js";

// Granular scopes for the v2 API; CQL search (v1) takes the classic search:confluence.
const READ_PAGE = "read:page:confluence";
const WRITE_PAGE = "write:page:confluence";

export const confluenceDeclaration: ProviderDeclaration = {
  id: "confluence",
  display_name: "Confluence",
  description: "Atlassian Confluence Cloud: search with CQL, read, create and update pages, list spaces.",
  icon: badgeIcon("C", "#1868DB"),
  docs_url: "https://developer.atlassian.com/cloud/confluence/rest/v2/intro/",
  api_base_url: "https://api.atlassian.com/ex/confluence/{cloud_id}",
  connection_values: ATLASSIAN_CLOUD_ID,
  auth: atlassianOAuth([READ_PAGE, WRITE_PAGE, "delete:page:confluence", "read:space:confluence", "write:comment:confluence", "search:confluence", "read:confluence-user"]),
  default_headers: { Accept: "application/json" },
  // The display name, not the email: Atlassian hides emails by the user's privacy settings.
  identity: { path: "/wiki/rest/api/user/current", account_id: "/accountId", display_name: "/displayName" },
};

const pageId = { type: "string", pattern: "^[0-9]{1,20}$", description: "Page id (the number in the page's URL)" };
const storageBody = { type: "string", minLength: 1, maxLength: 1000000, description: "Page content in Confluence storage format (XHTML), e.g. <p>Hello</p>" };
const cursor = { type: "string", maxLength: 2000, description: "Cursor from the previous page's next_cursor" };
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false });
const pageFields = { id: "/id", title: "/title", status: "/status", space_id: "/spaceId", parent_id: "/parentId", version: "/version/number", web_url: "/_links/webui" };
const resultsOf = { type: "object", required: ["results"], properties: { results: { type: "array", items: { type: "object" } } } };

export const confluenceTools: ToolDeclaration[] = [
  {
    name: "confluence.search",
    title: "Search Confluence (CQL)",
    description: 'Search Confluence content with a CQL query, e.g. `type = page AND space = ENG AND text ~ "release notes" ORDER BY lastmodified DESC`. Answers titles, excerpts, links and a cursor for the next page.',
    arguments_schema: object({ cql: { type: "string", minLength: 1, maxLength: 5000, description: "CQL query" }, limit: { type: "integer", minimum: 1, maximum: 100, description: "Results per page (default 25)" }, cursor }, ["cql"]),
    risk: "low",
    side_effect: "read",
    scopes: ["search:confluence"],
    request: { method: "GET", path: "/wiki/rest/api/search", query: { cql: "{cql}", limit: "{limit}", cursor: "{cursor}" } },
    response: { schema: resultsOf },
  },
  {
    name: "confluence.get_page",
    title: "Get a Confluence page",
    description: "Get one Confluence page by id: title, space, version and its content in storage format (XHTML).",
    arguments_schema: object({ id: pageId }, ["id"]),
    risk: "low",
    side_effect: "read",
    scopes: [READ_PAGE],
    request: { method: "GET", path: "/wiki/api/v2/pages/{id}", query: { "body-format": "storage" } },
    response: { schema: { type: "object", required: ["id"] }, fields: { ...pageFields, body: "/body/storage/value" } },
  },
  {
    name: "confluence.create_page",
    title: "Create a Confluence page",
    description: "Create and publish a Confluence page in a space, optionally under a parent page. Everyone who can see the space can read it; watchers of the space are notified.",
    arguments_schema: object(
      {
        space_id: { type: "string", pattern: "^[0-9]{1,20}$", description: "Space id (from confluence.list_spaces)" },
        title: { type: "string", minLength: 1, maxLength: 255, description: "Page title, unique in the space" },
        body: storageBody,
        parent_id: { ...pageId, description: "Parent page id (default: the space's home page)" },
      },
      ["space_id", "title", "body"],
    ),
    risk: "low",
    side_effect: "write",
    scopes: [WRITE_PAGE],
    request: { method: "POST", path: "/wiki/api/v2/pages", body: { spaceId: "{space_id}", status: "current", title: "{title}", parentId: "{parent_id}", body: { representation: "storage", value: "{body}" } } },
    response: { schema: { type: "object", required: ["id"] }, fields: pageFields },
  },
  {
    name: "confluence.update_page",
    title: "Update a Confluence page",
    description:
      "Replace a Confluence page's title and content with a new version. version_number must be the page's current version plus one (see confluence.get_page); " +
      "Confluence refuses a stale one. Earlier versions stay in the page history.",
    arguments_schema: object(
      {
        id: pageId,
        title: { type: "string", minLength: 1, maxLength: 255, description: "Page title" },
        body: storageBody,
        version_number: { type: "integer", minimum: 2, maximum: 1000000, description: "The new version: the current version number plus one" },
        version_message: { type: "string", maxLength: 500, description: "Note shown in the page history" },
      },
      ["id", "title", "body", "version_number"],
    ),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: [WRITE_PAGE],
    request: {
      method: "PUT",
      path: "/wiki/api/v2/pages/{id}",
      body: { id: "{id}", status: "current", title: "{title}", body: { representation: "storage", value: "{body}" }, version: { number: "{version_number}", message: "{version_message}" } },
    },
    response: { schema: { type: "object", required: ["id"] }, fields: pageFields },
  },
  {
    name: "confluence.list_spaces",
    title: "List Confluence spaces",
    description: "List Confluence spaces the user can see (id, key, name, type), optionally only some keys.",
    arguments_schema: object({
      keys: { type: "string", pattern: "^[A-Za-z0-9~_]{1,255}(,[A-Za-z0-9~_]{1,255}){0,49}$", description: "Only these space keys, comma-separated, e.g. ENG,OPS" },
      limit: { type: "integer", minimum: 1, maximum: 250, description: "Spaces per page (default 25)" },
      cursor,
    }),
    risk: "low",
    side_effect: "read",
    scopes: ["read:space:confluence"],
    request: { method: "GET", path: "/wiki/api/v2/spaces", query: { keys: "{keys}", limit: "{limit}", cursor: "{cursor}" } },
    response: { schema: resultsOf },
  },
  {
    name: "confluence.add_comment",
    title: "Comment on a Confluence page",
    description: "Add a footer comment to a Confluence page, visible to everyone who can see the page. The page's watchers are notified.",
    arguments_schema: object({ page_id: pageId, body: { ...storageBody, description: "Comment in storage format (XHTML), e.g. <p>Looks good</p>" } }, ["page_id", "body"]),
    risk: "low",
    side_effect: "write",
    scopes: ["write:comment:confluence"],
    request: { method: "POST", path: "/wiki/api/v2/footer-comments", body: { pageId: "{page_id}", body: { representation: "storage", value: "{body}" } } },
    response: { schema: { type: "object", required: ["id"] }, fields: { id: "/id", page_id: "/pageId", version: "/version/number" } },
  },
  {
    name: "confluence.delete_page",
    title: "Delete a Confluence page",
    description: "Delete a Confluence page: it moves to the space's trash, where a space admin can restore it until the trash is purged; its child pages move up to its parent.",
    arguments_schema: object({ id: pageId }, ["id"]),
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: ["delete:page:confluence"],
    request: { method: "DELETE", path: "/wiki/api/v2/pages/{id}" },
  },
];

type Json = Record<string, any>;

/** A link in Confluence's `_links` is relative to the site; `next` carries the cursor as a query parameter. */
const nextCursor = (body: Json) => {
  const next = body._links?.next;
  return typeof next === "string" ? (new URL(next, "https://confluence.invalid").searchParams.get("cursor") ?? null) : null;
};

export const confluenceHooks: ProviderHooks = {
  tools: {
    "confluence.search": {
      mapResponse: ({ body }) => ({
        results: ((body as Json).results as Json[]).map((result) => ({
          id: result.content?.id ?? null,
          type: result.content?.type ?? result.entityType ?? null,
          title: result.title ?? result.content?.title ?? null,
          excerpt: result.excerpt ?? null,
          url: result.url ?? null,
          space: result.resultGlobalContainer?.title ?? null,
          last_modified: result.lastModified ?? null,
        })),
        total: (body as Json).totalSize ?? null,
        next_cursor: nextCursor(body as Json),
      }),
    },
    "confluence.list_spaces": {
      mapResponse: ({ body }) => ({
        spaces: ((body as Json).results as Json[]).map((space) => ({ id: space.id, key: space.key, name: space.name, type: space.type ?? null, status: space.status ?? null })),
        next_cursor: nextCursor(body as Json),
      }),
    },
    // Confluence answers 204 with no body.
    "confluence.delete_page": { mapResponse: (_response, args) => ({ deleted: true, id: args.id }) },
  },
};

export const confluence: BuiltInProvider = {
  declaration: confluenceDeclaration,
  tools: confluenceTools,
  hooks: confluenceHooks,
  examples: {
    "confluence.search": { cql: 'type = page AND text ~ "release notes"', limit: 10 },
    "confluence.get_page": { id: "123456" },
    "confluence.create_page": { space_id: "98765", title: "Release notes 2.4", body: "<p>What changed in 2.4.</p>" },
    "confluence.update_page": { id: "123456", title: "Release notes 2.4", body: "<p>What changed in 2.4, with fixes.</p>", version_number: 2, version_message: "Added fixes" },
    "confluence.list_spaces": { limit: 25 },
    "confluence.add_comment": { page_id: "123456", body: "<p>Reviewed.</p>" },
    "confluence.delete_page": { id: "123456" },
  },
  vendorDescription: {
    none:
      "Atlassian publishes Confluence's OpenAPI only on its developer site; no npm package ships it (confluence.js ships typed code, not the description). " +
      "Checked instead: every request against vendor/sandbox/confluence.json, written from Confluence's v2 and v1 references, which the sandbox serves and validates with; the API host is api.atlassian.com with the cloud id, the OAuth endpoints auth.atlassian.com's",
  },
};
