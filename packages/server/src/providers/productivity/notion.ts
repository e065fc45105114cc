/**
 * `notion`: Notion's API (version 2025-09-03, where databases hold data sources) through a
 * public integration's OAuth: HTTP Basic client authentication at the token endpoint, and
 * tokens that do not expire; or an internal integration's secret. An integration sees only the
 * pages a person shared with it.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import { BrokerError } from "../../errors.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { anyObject, argumentsOf, choice, identifier, integer, jsonObjectText, listIn, monogramIcon, parseJsonObject, requiredText, text, textList } from "../crm/schema-parts.js";
import { bearer, type ProviderHooks } from "../provider-types.js";

export const NOTION_VERSION = "2025-09-03";

const declaration: ProviderDeclaration = {
  id: "notion",
  display_name: "Notion",
  description: "Notion: search, read and write the pages and databases shared with the integration.",
  icon: monogramIcon("N", "#000000"),
  docs_url: "https://developers.notion.com/reference/intro",
  api_base_url: "https://api.notion.com",
  auth: {
    type: "oauth2",
    authorize_url: "https://api.notion.com/v1/oauth/authorize",
    token_url: "https://api.notion.com/v1/oauth/token",
    // Pages are shared page by page on Notion's consent screen; there are no OAuth scopes.
    scopes: [],
    // owner=user: the integration acts for the person who connects it.
    authorize_params: { owner: "user" },
    pkce: false,
    client_auth: "client_secret_basic",
    refresh: "none",
  },
  default_headers: { "Notion-Version": NOTION_VERSION },
};

const notionId = (what: string) => identifier(`The ${what}'s id (a UUID, with or without dashes)`, "^[0-9a-fA-F-]{32,36}$");
const pageSize = integer("Results per page (at most 100)", 1, 100);
const startCursor = text("Paging cursor: next_cursor from the previous page", 200);
/** Notion lists: `{object: "list", results, next_cursor, has_more}`. */
const listResponse = { schema: listIn("results"), fields: { results: "/results", next_cursor: "/next_cursor", has_more: "/has_more" } };
const PAGE_FIELDS = { id: "/id", url: "/url", parent: "/parent", properties: "/properties", created_time: "/created_time", last_edited_time: "/last_edited_time", in_trash: "/in_trash" };
const pageResponse = { schema: anyObject, fields: PAGE_FIELDS };

const blockText = textList("The blocks' text, one block per entry (plain text, at most 2,000 characters each)", 100, 2000);
const blockType = choice("The kind of block each entry becomes (default paragraph)", ["paragraph", "bulleted_list_item"]);

const tools: ToolDeclaration[] = [
  {
    name: "notion.search",
    title: "Search pages and data sources",
    description: "Search the titles of pages and data sources shared with the integration, most recently edited first. An empty query lists everything shared.",
    arguments_schema: argumentsOf({ query: text("Text matched against titles", 1000), object_type: choice("Only pages or only data sources", ["page", "data_source"]), page_size: pageSize, start_cursor: startCursor }),
    risk: "low",
    side_effect: "read",
    request: { method: "POST", path: "/v1/search", body: { query: "{query}", filter: { property: "object", value: "{object_type}" }, page_size: "{page_size}", start_cursor: "{start_cursor}" } },
    response: listResponse,
  },
  {
    name: "notion.get_page",
    title: "Get a page",
    description: "Get a page's properties (title, and a database row's values), parent and URL. Its content is read with get_block_children on the page id.",
    arguments_schema: argumentsOf({ page_id: notionId("page") }, ["page_id"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/pages/{page_id}" },
    response: pageResponse,
  },
  {
    name: "notion.get_block_children",
    title: "Read a page's or block's content",
    description: "List the blocks inside a page or block (paragraphs, headings, list items, …), one level deep; blocks with has_children have more inside.",
    arguments_schema: argumentsOf({ block_id: notionId("page or block"), page_size: pageSize, start_cursor: startCursor }, ["block_id"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/blocks/{block_id}/children", query: { page_size: "{page_size}", start_cursor: "{start_cursor}" } },
    response: listResponse,
  },
  {
    name: "notion.get_database",
    title: "Get a database",
    description: "Get a database: its title, parent and the data sources it holds (query_data_source takes their ids).",
    arguments_schema: argumentsOf({ database_id: notionId("database") }, ["database_id"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/databases/{database_id}" },
    response: { schema: anyObject, fields: { id: "/id", title: "/title", url: "/url", parent: "/parent", data_sources: "/data_sources" } },
  },
  {
    name: "notion.get_data_source",
    title: "Get a data source's schema",
    description: "Get a data source: its title and properties (each column's name, id, type and options), which is what query filters and new rows must use.",
    arguments_schema: argumentsOf({ data_source_id: notionId("data source") }, ["data_source_id"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/v1/data_sources/{data_source_id}" },
    response: { schema: anyObject, fields: { id: "/id", title: "/title", properties: "/properties", parent: "/parent" } },
  },
  {
    name: "notion.query_data_source",
    title: "Query a data source",
    description:
      "Query a data source's rows (pages) with Notion's filter and sorts, e.g. filter {\"property\": \"Status\", \"status\": {\"equals\": \"Done\"}} or " +
      "{\"and\": [{\"property\": \"Due\", \"date\": {\"before\": \"2026-12-01\"}}, …]}.",
    arguments_schema: argumentsOf(
      {
        data_source_id: notionId("data source"),
        filter: jsonObjectText("The filter object, as Notion's filter reference describes it.", 20_000),
        sorts: {
          type: "array",
          maxItems: 10,
          description: "Sort by properties, first key first",
          items: { type: "object", description: "One sort key", required: ["property", "direction"], additionalProperties: false, properties: { property: requiredText("Property name", 200), direction: choice("Direction", ["ascending", "descending"]) } },
        },
        page_size: pageSize,
        start_cursor: startCursor,
      },
      ["data_source_id"],
    ),
    risk: "low",
    side_effect: "read",
    // The hook adds the filter the JSON text holds.
    request: { method: "POST", path: "/v1/data_sources/{data_source_id}/query", body: { sorts: "{sorts}", page_size: "{page_size}", start_cursor: "{start_cursor}" } },
    response: listResponse,
  },
  {
    name: "notion.create_page",
    title: "Create a page",
    description: "Create a page under a page, or a row in a data source, with a title and other property values; add its content with append_block_children.",
    arguments_schema: argumentsOf(
      {
        parent_type: choice("What the parent is: a page (a sub-page) or a data source (a new row)", ["page_id", "data_source_id"]),
        parent_id: notionId("parent page or data source"),
        title: requiredText("The page's title", 2000),
        properties: jsonObjectText("Other property values by property name, as Notion's page property values, e.g. {\"Status\": {\"status\": {\"name\": \"In progress\"}}} (rows only).", 50_000),
      },
      ["parent_type", "parent_id", "title"],
    ),
    risk: "low",
    side_effect: "write",
    // The hook names the parent by its kind and sends the properties (title included) as objects.
    request: { method: "POST", path: "/v1/pages", body: { parent: { page_id: "{parent_id}" } } },
    response: pageResponse,
  },
  {
    name: "notion.update_page",
    title: "Update a page's properties",
    description: "Change property values of a page or data source row; properties not named keep their values. Notion keeps the page's history.",
    arguments_schema: argumentsOf(
      { page_id: notionId("page"), properties: jsonObjectText("The property values to set, e.g. {\"Status\": {\"status\": {\"name\": \"Done\"}}}.", 50_000) },
      ["page_id", "properties"],
    ),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    // The hook sends the properties the JSON text holds.
    request: { method: "PATCH", path: "/v1/pages/{page_id}" },
    response: pageResponse,
  },
  {
    name: "notion.append_block_children",
    title: "Add content to a page",
    description: "Append text blocks (paragraphs or bulleted list items) to the end of a page or block, or after one of its blocks.",
    arguments_schema: argumentsOf({ block_id: notionId("page or block"), content: { ...blockText, minItems: 1 }, content_type: blockType, after: notionId("block to insert after (default: at the end)") }, [
      "block_id",
      "content",
    ]),
    risk: "low",
    side_effect: "write",
    // The hook makes each text entry a block.
    request: { method: "PATCH", path: "/v1/blocks/{block_id}/children", body: { after: "{after}" } },
    response: listResponse,
  },
  {
    name: "notion.create_comment",
    title: "Comment on a page",
    description: "Add a comment to a page's discussion, visible to everyone who can see the page; it cannot be edited afterwards through the API.",
    arguments_schema: argumentsOf({ page_id: notionId("page"), text: requiredText("The comment", 2000) }, ["page_id", "text"]),
    risk: "low",
    side_effect: "write",
    request: { method: "POST", path: "/v1/comments", body: { parent: { page_id: "{page_id}" }, rich_text: [{ text: { content: "{text}" } }] } },
    response: { schema: anyObject, fields: { id: "/id", discussion_id: "/discussion_id", created_time: "/created_time" } },
  },
  {
    name: "notion.archive_page",
    title: "Move a page to the trash",
    description: "Move a page (with its sub-pages and content) to the trash: it disappears for everyone at once; only someone in Notion can restore it, within 30 days.",
    arguments_schema: argumentsOf({ page_id: notionId("page") }, ["page_id"]),
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    request: { method: "PATCH", path: "/v1/pages/{page_id}", body: { in_trash: true } },
    response: { schema: anyObject, fields: { id: "/id", in_trash: "/in_trash" } },
  },
];

/** Plain text as Notion blocks of one kind. */
function textBlocks(entries: unknown, kind: unknown) {
  const type = kind === "bulleted_list_item" ? "bulleted_list_item" : "paragraph";
  return (entries as string[]).map((content) => ({ type, [type]: { rich_text: [{ type: "text", text: { content } }] } }));
}

type Body = Record<string, unknown>;
const titleValue = (title: unknown) => ({ title: [{ type: "text", text: { content: String(title) } }] });

const hooks: ProviderHooks = {
  // An internal integration's secret (ntn_…) is a Bearer token like an OAuth one.
  presentApiKey: bearer,
  // The token response says who connected which workspace; the bot user /v1/users/me names only the integration.
  async fetchIdentity(api, tokenResponse) {
    const owner = (tokenResponse.owner as { user?: { id?: string; name?: string; person?: { email?: string } } } | undefined)?.user;
    const workspace = typeof tokenResponse.workspace_id === "string" ? tokenResponse.workspace_id : undefined;
    if (workspace && owner?.id) {
      const who = owner.person?.email ?? owner.name ?? owner.id;
      const name = typeof tokenResponse.workspace_name === "string" ? tokenResponse.workspace_name : workspace;
      return { accountId: `${workspace}/${owner.id}`, displayName: `${who} (${name})` };
    }
    const me = await api({ method: "GET", path: "/v1/users/me" });
    const id = (me.body as { id?: unknown } | null)?.id;
    if (me.status !== 200 || typeof id !== "string") throw new Error(`Notion /v1/users/me answered ${me.status} without an id`);
    const name = (me.body as { name?: unknown }).name;
    return { accountId: id, displayName: typeof name === "string" && name ? name : id };
  },
  tools: {
    // Notion filters by object type only with both keys; without a type the search is over everything.
    "notion.search": {
      request: (built, args) => {
        if (args.object_type !== undefined) return built;
        const { filter: _filter, ...body } = built.body as Body;
        return { ...built, body };
      },
    },
    "notion.query_data_source": {
      request: (built, args) => (args.filter === undefined ? built : { ...built, body: { ...(built.body as Body), filter: parseJsonObject(args, "filter") } }),
    },
    // The parent by its kind, and the title (the title property's id is always "title") beside the other properties.
    "notion.create_page": {
      request: (built, args) => {
        const properties = args.properties === undefined ? {} : parseJsonObject(args, "properties");
        return { ...built, body: { parent: { [String(args.parent_type)]: args.parent_id }, properties: { ...properties, title: titleValue(args.title) } } };
      },
    },
    "notion.update_page": { request: (built, args) => ({ ...built, body: { properties: parseJsonObject(args, "properties") } }) },
    "notion.append_block_children": {
      request: (built, args) => {
        if (!Array.isArray(args.content) || !args.content.length) {
          throw new BrokerError("invalid_tool_args", "argument content needs at least one block", { fields: [{ field: "/content", message: "is empty" }] });
        }
        return { ...built, body: { ...(built.body as Body), children: textBlocks(args.content, args.content_type) } };
      },
    },
  },
};

const PAGE_ID = "59833787-2cf9-4fdf-8782-e53db20768a5";
const DATA_SOURCE_ID = "248104cd-477e-80af-bc30-000bd28de8f9";

export const notion: BuiltInProvider = {
  declaration,
  tools,
  hooks,
  examples: {
    "notion.search": { query: "Roadmap", object_type: "page", page_size: 10 },
    "notion.get_page": { page_id: PAGE_ID },
    "notion.get_block_children": { block_id: PAGE_ID, page_size: 50 },
    "notion.get_database": { database_id: "668d797c-76fa-4934-9b05-ad288df2d136" },
    "notion.get_data_source": { data_source_id: DATA_SOURCE_ID },
    "notion.query_data_source": {
      data_source_id: DATA_SOURCE_ID,
      filter: JSON.stringify({ property: "Status", status: { equals: "In progress" } }),
      sorts: [{ property: "Due", direction: "ascending" }],
      page_size: 20,
    },
    "notion.create_page": { parent_type: "page_id", parent_id: PAGE_ID, title: "Meeting notes" },
    "notion.update_page": { page_id: PAGE_ID, properties: JSON.stringify({ Status: { status: { name: "Done" } } }) },
    "notion.append_block_children": { block_id: PAGE_ID, content: ["Follow-up: send the summary"], content_type: "bulleted_list_item" },
    "notion.create_comment": { page_id: PAGE_ID, text: "Looks good to me." },
    "notion.archive_page": { page_id: PAGE_ID },
  },
  vendorDescription: {
    package: "@notionhq/notion-mcp-server",
    version: "2.5.2",
    file: "scripts/notion-openapi.json",
    licence: "MIT (Notion's own description of its API, version 2025-09-03)",
  },
};
