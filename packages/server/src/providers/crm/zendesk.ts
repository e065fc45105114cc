/**
 * `zendesk`: Zendesk Support's REST API v2 on the account's own subdomain, with an API token.
 * The person connecting types the subdomain (one DNS label, so it can only ever name a host
 * under zendesk.com) and the key `email/token:api_token`, sent as HTTP Basic.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { anyObject, argumentsOf, choice, identifier, integer, monogramIcon, requiredText, text, textList } from "./schema-parts.js";

const declaration: ProviderDeclaration = {
  id: "zendesk",
  display_name: "Zendesk",
  description: "Zendesk Support: search, read, open and update tickets, comment on them, and list users.",
  icon: monogramIcon("Z", "#03363D"),
  docs_url: "https://developer.zendesk.com/api-reference/ticketing/introduction/",
  api_base_url: "https://{subdomain}.zendesk.com/api/v2",
  connection_values: {
    subdomain: {
      source: "connect_input",
      label: "Zendesk subdomain",
      description: "The first part of your Zendesk address: acme for https://acme.zendesk.com",
      pattern: "^[a-z0-9][a-z0-9-]{0,62}$",
    },
  },
  auth: {
    type: "api_key",
    in: "header",
    name: "Authorization",
    prefix: "Basic ",
    // The key is `agent@example.com/token:<API token>` (Admin Center → Apps and integrations → Zendesk API).
    format: "basic",
  },
  identity: { path: "/users/me.json", account_id: "/user/id", display_name: "/user/email" },
};

const ticketId = identifier("The ticket's number", "^[1-9][0-9]{0,15}$");
const ticketShape = { type: "object", required: ["ticket"], properties: { ticket: anyObject } };
const TICKET_FIELDS = {
  id: "/ticket/id",
  subject: "/ticket/subject",
  description: "/ticket/description",
  status: "/ticket/status",
  priority: "/ticket/priority",
  type: "/ticket/type",
  requester_id: "/ticket/requester_id",
  assignee_id: "/ticket/assignee_id",
  group_id: "/ticket/group_id",
  tags: "/ticket/tags",
  created_at: "/ticket/created_at",
  updated_at: "/ticket/updated_at",
};
const STATUSES = ["new", "open", "pending", "hold", "solved", "closed"];
const PRIORITIES = ["urgent", "high", "normal", "low"];
const TYPES = ["problem", "incident", "question", "task"];

function commentTool(visibility: "public" | "internal"): ToolDeclaration {
  const isPublic = visibility === "public";
  return {
    name: isPublic ? "zendesk.add_public_reply" : "zendesk.add_internal_note",
    title: isPublic ? "Reply to the requester" : "Add an internal note",
    description: isPublic
      ? "Add a public reply to a ticket: Zendesk emails it to the requester and CCs at once, and a sent reply cannot be recalled (it can only be redacted afterwards)."
      : "Add an internal note to a ticket: visible to agents only, never sent to the requester.",
    arguments_schema: argumentsOf(
      { ticket_id: ticketId, body: requiredText("The comment text", 65_000), status: choice("Also set the ticket's status", STATUSES) },
      ["ticket_id", "body"],
    ),
    risk: isPublic ? "high" : "low",
    side_effect: "write",
    request: { method: "PUT", path: "/tickets/{ticket_id}.json", body: { ticket: { comment: { body: "{body}", public: isPublic }, status: "{status}" } } },
    response: { schema: ticketShape, fields: TICKET_FIELDS },
  };
}

const tools: ToolDeclaration[] = [
  {
    name: "zendesk.search",
    title: "Search tickets, users and organizations",
    description:
      "Search with Zendesk's query language, e.g. type:ticket status:open priority:urgent, type:user email:ada@example.com, or type:ticket requester:ada@example.com created>2026-01-01. " +
      "At most 100 results per page and 1,000 in all.",
    arguments_schema: argumentsOf(
      {
        query: requiredText("The search query", 2000),
        sort_by: choice("Sort by", ["updated_at", "created_at", "priority", "status", "ticket_type"]),
        sort_order: choice("Sort order", ["asc", "desc"]),
        per_page: integer("Results per page (at most 100)", 1, 100),
        page: integer("Page number, from 1", 1, 10),
      },
      ["query"],
    ),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/search.json", query: { query: "{query}", sort_by: "{sort_by}", sort_order: "{sort_order}", per_page: "{per_page}", page: "{page}" } },
    response: {
      schema: { type: "object", required: ["results"], properties: { results: { type: "array", items: anyObject }, count: { type: "integer" } } },
      fields: { results: "/results", count: "/count", next_page: "/next_page" },
    },
  },
  {
    name: "zendesk.get_ticket",
    title: "Get a ticket",
    description: "Get one ticket: subject, first comment (description), status, priority, requester, assignee and tags.",
    arguments_schema: argumentsOf({ ticket_id: ticketId }, ["ticket_id"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/tickets/{ticket_id}.json" },
    response: { schema: ticketShape, fields: TICKET_FIELDS },
  },
  {
    name: "zendesk.list_ticket_comments",
    title: "List a ticket's comments",
    description: "List a ticket's conversation: public replies and internal notes, oldest first.",
    arguments_schema: argumentsOf({ ticket_id: ticketId, page_size: integer("Comments per page (at most 100)", 1, 100), page_after: text("Cursor for the next page: after_cursor from the previous page", 500) }, ["ticket_id"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/tickets/{ticket_id}/comments.json", query: { "page[size]": "{page_size}", "page[after]": "{page_after}" } },
    response: {
      schema: { type: "object", required: ["comments"], properties: { comments: { type: "array", items: anyObject } } },
      fields: { comments: "/comments", has_more: "/meta/has_more", after_cursor: "/meta/after_cursor" },
    },
  },
  {
    name: "zendesk.create_ticket",
    title: "Create a ticket",
    description:
      "Open a ticket with the connected agent as requester; the first comment is its description. Nobody outside the account is emailed (no other requester can be named here), " +
      "but triggers on new tickets run.",
    arguments_schema: argumentsOf(
      {
        subject: requiredText("Subject line", 250),
        body: requiredText("The first comment: what the ticket is about", 65_000),
        priority: choice("Priority", PRIORITIES),
        type: choice("Ticket type", TYPES),
        tags: textList("Tags", 20, 80),
        assignee_id: integer("Agent to assign it to (user id)", 1, Number.MAX_SAFE_INTEGER),
        group_id: integer("Group to assign it to", 1, Number.MAX_SAFE_INTEGER),
      },
      ["subject", "body"],
    ),
    risk: "low",
    side_effect: "write",
    request: {
      method: "POST",
      path: "/tickets.json",
      body: { ticket: { subject: "{subject}", comment: { body: "{body}", public: false }, priority: "{priority}", type: "{type}", tags: "{tags}", assignee_id: "{assignee_id}", group_id: "{group_id}" } },
    },
    response: { schema: ticketShape, fields: TICKET_FIELDS },
  },
  {
    name: "zendesk.update_ticket",
    title: "Update a ticket",
    description: "Change a ticket's status, priority, type, subject, assignee, group or tags (tags given replace the ticket's tags). Triggers on updates run; no comment is added.",
    arguments_schema: argumentsOf(
      {
        ticket_id: ticketId,
        status: choice("Status", STATUSES),
        priority: choice("Priority", PRIORITIES),
        type: choice("Ticket type", TYPES),
        subject: text("Subject line", 250),
        assignee_id: integer("Agent to assign it to (user id)", 1, Number.MAX_SAFE_INTEGER),
        group_id: integer("Group to assign it to", 1, Number.MAX_SAFE_INTEGER),
        tags: textList("Tags, replacing the ticket's tags", 20, 80),
      },
      ["ticket_id"],
    ),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    request: {
      method: "PUT",
      path: "/tickets/{ticket_id}.json",
      body: { ticket: { status: "{status}", priority: "{priority}", type: "{type}", subject: "{subject}", assignee_id: "{assignee_id}", group_id: "{group_id}", tags: "{tags}" } },
    },
    response: { schema: ticketShape, fields: TICKET_FIELDS },
  },
  commentTool("public"),
  commentTool("internal"),
  {
    name: "zendesk.list_users",
    title: "List users",
    description: "List the account's users, optionally only end users, agents or admins.",
    arguments_schema: argumentsOf({
      role: choice("Only users of this role", ["end-user", "agent", "admin"]),
      page_size: integer("Users per page (at most 100)", 1, 100),
      page_after: text("Cursor for the next page: after_cursor from the previous page", 500),
    }),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/users.json", query: { role: "{role}", "page[size]": "{page_size}", "page[after]": "{page_after}" } },
    response: {
      schema: { type: "object", required: ["users"], properties: { users: { type: "array", items: anyObject } } },
      fields: { users: "/users", has_more: "/meta/has_more", after_cursor: "/meta/after_cursor" },
    },
  },
];

export const zendesk: BuiltInProvider = {
  declaration,
  tools,
  hooks: {},
  examples: {
    "zendesk.search": { query: "type:ticket status:open priority:urgent", sort_by: "updated_at", sort_order: "desc", per_page: 25 },
    "zendesk.get_ticket": { ticket_id: "35436" },
    "zendesk.list_ticket_comments": { ticket_id: "35436", page_size: 50 },
    "zendesk.create_ticket": { subject: "Printer on floor 3 is jammed", body: "Paper jam in tray 2 since this morning.", priority: "normal", type: "incident", tags: ["hardware"] },
    "zendesk.update_ticket": { ticket_id: "35436", status: "pending", priority: "high" },
    "zendesk.add_public_reply": { ticket_id: "35436", body: "Thanks, we are on it and will update you within the hour.", status: "pending" },
    "zendesk.add_internal_note": { ticket_id: "35436", body: "Customer is on the enterprise plan; escalate if not fixed today." },
    "zendesk.list_users": { role: "agent", page_size: 50 },
  },
  vendorDescription: {
    none:
      "Zendesk publishes its OpenAPI description on its developer site, not in a package. Checked against the Ticketing API reference: GET /search.json (query, sort_by, " +
      "sort_order, per_page, page), /tickets/{id}.json GET and PUT {ticket}, POST /tickets.json {ticket: {subject, comment}}, GET /tickets/{id}/comments.json and " +
      "/users.json with cursor pagination (page[size], page[after], meta.has_more, meta.after_cursor), GET /users/me.json; API tokens as Basic `email/token:token`",
  },
};
