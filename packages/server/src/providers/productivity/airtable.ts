/**
 * `airtable`: Airtable's Web API v0, with a personal access token (Bearer) or through OAuth
 * (PKCE required, HTTP Basic client authentication, refresh tokens that are good for one use).
 * Records' fields are free-form, so tools take them as JSON text.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { anyObject, argumentsOf, boolean, choice, identifier, integer, jsonObjectText, listIn, monogramIcon, parseJsonObjectAt, requiredText, scopesOf, text } from "../crm/schema-parts.js";
import { bearer, type ProviderHooks } from "../provider-types.js";

const baseId = identifier("The base's id (app…)", "^app[A-Za-z0-9]{14}$");
const table = requiredText("The table's id (tbl…) or name", 255, { pattern: "^[^\\x00-\\x1f]+$" });
const recordId = identifier("The record's id (rec…)", "^rec[A-Za-z0-9]{14}$");
const typecast = boolean("Convert text values to the fields' types (e.g. create a select option that does not exist yet)");
const recordFields = jsonObjectText("The record's field values by field name or id, e.g. {\"Name\": \"Acme\", \"Seats\": 12}.", 50_000);

const recordShape = { type: "object", required: ["id"], properties: { id: { type: "string" }, fields: anyObject } };
const RECORD_FIELDS = { id: "/id", created_time: "/createdTime", fields: "/fields" };
const recordsResult = { schema: listIn("records", recordShape), fields: { records: "/records" } };

const tools: ToolDeclaration[] = [
  {
    name: "airtable.list_bases",
    title: "List bases",
    description: "List the bases the connection can reach, with each one's id, name and permission level.",
    arguments_schema: argumentsOf({ offset: text("Paging cursor: offset from the previous page", 500) }),
    risk: "low",
    side_effect: "read",
    scopes: ["schema.bases:read"],
    request: { method: "GET", path: "/meta/bases", query: { offset: "{offset}" } },
    response: { schema: listIn("bases"), fields: { bases: "/bases", offset: "/offset" } },
  },
  {
    name: "airtable.get_base_schema",
    title: "Get a base's tables and fields",
    description: "Get a base's tables: each table's id, name, fields (name, id, type, options) and views. Formulas and new records must use these field names.",
    arguments_schema: argumentsOf({ base_id: baseId }, ["base_id"]),
    risk: "low",
    side_effect: "read",
    scopes: ["schema.bases:read"],
    request: { method: "GET", path: "/meta/bases/{base_id}/tables" },
    response: { schema: listIn("tables"), fields: { tables: "/tables" } },
  },
  {
    name: "airtable.list_records",
    title: "List records",
    description:
      "List a table's records, optionally those a formula selects (filterByFormula, e.g. AND({Status} = 'Open', {Seats} > 10) or SEARCH('acme', LOWER({Name}))), " +
      "in a view's order or sorted by one field. At most 100 per page; offset gives the next page.",
    arguments_schema: argumentsOf(
      {
        base_id: baseId,
        table,
        filter_by_formula: text("An Airtable formula; records for which it is true (not 0, empty or an error) are returned", 10_000),
        view: text("A view's name or id: only its records, in its order", 255),
        sort_field: text("Field name to sort by", 255),
        sort_direction: choice("Sort direction (default asc)", ["asc", "desc"]),
        max_records: integer("At most this many records in all", 1, 100_000),
        page_size: integer("Records per page (at most 100)", 1, 100),
        offset: text("Paging cursor: offset from the previous page", 500),
      },
      ["base_id", "table"],
    ),
    risk: "low",
    side_effect: "read",
    scopes: ["data.records:read"],
    request: {
      method: "GET",
      path: "/{base_id}/{table}",
      query: {
        filterByFormula: "{filter_by_formula}",
        view: "{view}",
        "sort[0][field]": "{sort_field}",
        "sort[0][direction]": "{sort_direction}",
        maxRecords: "{max_records}",
        pageSize: "{page_size}",
        offset: "{offset}",
      },
    },
    response: { schema: listIn("records", recordShape), fields: { records: "/records", offset: "/offset" } },
  },
  {
    name: "airtable.get_record",
    title: "Get a record",
    description: "Get one record with all its non-empty fields.",
    arguments_schema: argumentsOf({ base_id: baseId, table, record_id: recordId }, ["base_id", "table", "record_id"]),
    risk: "low",
    side_effect: "read",
    scopes: ["data.records:read"],
    request: { method: "GET", path: "/{base_id}/{table}/{record_id}" },
    response: { schema: recordShape, fields: RECORD_FIELDS },
  },
  {
    name: "airtable.create_records",
    title: "Create records",
    description: "Create up to 10 records in a table, each from its field values. Automations triggered by new records run.",
    arguments_schema: argumentsOf(
      { base_id: baseId, table, records: { type: "array", minItems: 1, maxItems: 10, items: recordFields, description: "The new records' field values, one JSON text per record" }, typecast },
      ["base_id", "table", "records"],
    ),
    risk: "low",
    side_effect: "write",
    scopes: ["data.records:write"],
    request: { method: "POST", path: "/{base_id}/{table}", body: { records: "{records}", typecast: "{typecast}" } },
    response: recordsResult,
  },
  {
    name: "airtable.update_records",
    title: "Update records",
    description: "Change fields of up to 10 records; fields not named keep their values. The previous values are not returned.",
    arguments_schema: argumentsOf(
      {
        base_id: baseId,
        table,
        records: {
          type: "array",
          minItems: 1,
          maxItems: 10,
          description: "The records to change",
          items: { type: "object", description: "One record's changes", required: ["id", "fields"], additionalProperties: false, properties: { id: recordId, fields: recordFields } },
        },
        typecast,
      },
      ["base_id", "table", "records"],
    ),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: ["data.records:write"],
    request: { method: "PATCH", path: "/{base_id}/{table}", body: { records: "{records}", typecast: "{typecast}" } },
    response: recordsResult,
  },
  {
    name: "airtable.delete_record",
    title: "Delete a record",
    description: "Delete a record. It can be restored from the base's trash for a limited time (7 days on the free plan) by someone in Airtable; then it is gone.",
    arguments_schema: argumentsOf({ base_id: baseId, table, record_id: recordId }, ["base_id", "table", "record_id"]),
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: ["data.records:write"],
    request: { method: "DELETE", path: "/{base_id}/{table}/{record_id}" },
    response: { schema: { type: "object", properties: { id: { type: "string" }, deleted: { type: "boolean" } } }, fields: { id: "/id", deleted: "/deleted" } },
  },
];

/** Each record's fields from its JSON text; a fault names the record's place in the arguments. */
function parsedRecords(args: Record<string, unknown>, withIds: boolean) {
  return (args.records as unknown[]).map((record, index) => {
    if (!withIds) return { fields: parseJsonObjectAt(record, `/records/${index}`) };
    const { id, fields } = record as { id: unknown; fields: unknown };
    return { id, fields: parseJsonObjectAt(fields, `/records/${index}/fields`) };
  });
}

const hooks: ProviderHooks = {
  // A personal access token is a Bearer token like an OAuth one.
  presentApiKey: bearer,
  tools: {
    "airtable.create_records": { request: (built, args) => ({ ...built, body: { ...(built.body as object), records: parsedRecords(args, false) } }) },
    "airtable.update_records": { request: (built, args) => ({ ...built, body: { ...(built.body as object), records: parsedRecords(args, true) } }) },
  },
};

const declaration: ProviderDeclaration = {
  id: "airtable",
  display_name: "Airtable",
  description: "Airtable: list bases and their tables, find records with formulas, and create, update and delete records.",
  icon: monogramIcon("A", "#18BFFF"),
  docs_url: "https://airtable.com/developers/web/api/introduction",
  api_base_url: "https://api.airtable.com/v0",
  auth: {
    type: "oauth2",
    authorize_url: "https://airtable.com/oauth2/v1/authorize",
    token_url: "https://airtable.com/oauth2/v1/token",
    scopes: scopesOf(tools, ["user.email:read"]),
    scope_separator: " ",
    // Airtable requires PKCE; a confidential client authenticates with HTTP Basic. Each refresh
    // answers a new refresh token and the old one stops working.
    pkce: true,
    client_auth: "client_secret_basic",
  },
  identity: { path: "/meta/whoami", account_id: "/id", display_name: "/email" },
};

export const airtable: BuiltInProvider = {
  declaration,
  tools,
  hooks,
  examples: {
    "airtable.list_bases": {},
    "airtable.get_base_schema": { base_id: "appLkNDICXNqxSDhG" },
    "airtable.list_records": { base_id: "appLkNDICXNqxSDhG", table: "Customers", filter_by_formula: "AND({Status} = 'Open', {Seats} > 10)", sort_field: "Name", page_size: 20 },
    "airtable.get_record": { base_id: "appLkNDICXNqxSDhG", table: "Customers", record_id: "recHdTLTNmFJ0Bdpb" },
    "airtable.create_records": { base_id: "appLkNDICXNqxSDhG", table: "Customers", records: [JSON.stringify({ Name: "Acme", Seats: 12, Status: "Open" })], typecast: true },
    "airtable.update_records": { base_id: "appLkNDICXNqxSDhG", table: "Customers", records: [{ id: "recHdTLTNmFJ0Bdpb", fields: JSON.stringify({ Status: "Closed" }) }] },
    "airtable.delete_record": { base_id: "appLkNDICXNqxSDhG", table: "Customers", record_id: "recHdTLTNmFJ0Bdpb" },
  },
  vendorDescription: {
    none:
      "Airtable publishes no OpenAPI description (its per-base API docs are generated in the app). Checked against the Web API reference: GET /meta/bases, " +
      "/meta/bases/{baseId}/tables, /meta/whoami; /{baseId}/{tableIdOrName} GET (filterByFormula, view, sort[0][field], maxRecords, pageSize, offset), POST and PATCH " +
      "{records, typecast} with at most 10 records; /{baseId}/{tableIdOrName}/{recordId} GET and DELETE",
  },
};
