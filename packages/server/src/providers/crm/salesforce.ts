/**
 * `salesforce`: Salesforce's REST API v62.0 on the org's own instance. The token response names
 * the instance (`instance_url`), which becomes the API base of that connection; it must be a
 * Salesforce host, so a token is never sent anywhere else.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import type { ProviderHooks } from "../provider-types.js";
import { anyObject, argumentsOf, fieldsOf, identifier, jsonObjectText, monogramIcon, parseJsonObject, requiredText, text } from "./schema-parts.js";

const SALESFORCE_LOGIN = "https://login.salesforce.com/services/oauth2";

const sobject = identifier("The object's API name, e.g. Account, Contact, Opportunity, Case or a custom My_Object__c", "^[A-Za-z][A-Za-z0-9_]{0,79}$");
const recordId = identifier("The record's 15- or 18-character id", "^[A-Za-z0-9]{15}([A-Za-z0-9]{3})?$");
const recordFields = jsonObjectText("The field values by API name (e.g. Name, Industry, Phone; lookups take record ids).", 100_000);
const SCOPES = ["api"];

const declaration: ProviderDeclaration = {
  id: "salesforce",
  display_name: "Salesforce",
  description: "Salesforce CRM: query, search, read and change records of any object on the connected org.",
  icon: monogramIcon("SF", "#00A1E0"),
  docs_url: "https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/intro_rest.htm",
  api_base_url: "{instance_url}/services/data/v62.0",
  connection_values: {
    instance_url: { source: "token_response", pointer: "/instance_url", kind: "origin", allowed_hosts: ["*.my.salesforce.com", "*.salesforce.com"] },
  },
  auth: {
    type: "oauth2",
    // Sandboxes log in at test.salesforce.com: BROKER_PROVIDER_SALESFORCE_AUTHORIZE_URL and _TOKEN_URL point there.
    authorize_url: `${SALESFORCE_LOGIN}/authorize`,
    token_url: `${SALESFORCE_LOGIN}/token`,
    revocation_url: `${SALESFORCE_LOGIN}/revoke`,
    // `refresh_token` is what makes Salesforce issue one; `api` is every REST call.
    scopes: ["api", "refresh_token"],
    scope_separator: " ",
    client_auth: "client_secret_post",
  },
};

const saveResult = { type: "object", properties: { id: { type: "string" }, success: { type: "boolean" }, errors: { type: "array" } } };

const tools: ToolDeclaration[] = [
  {
    name: "salesforce.soql_query",
    title: "Run a SOQL query",
    description:
      "Run a SOQL query (e.g. SELECT Id, Name FROM Account WHERE Industry = 'Energy' LIMIT 20) and return the matching records with the fields it selects. " +
      "Up to 2,000 records per page; next_records_url is set when there are more.",
    arguments_schema: argumentsOf({ query: requiredText("The SOQL statement", 20_000) }, ["query"]),
    risk: "low",
    side_effect: "read",
    scopes: SCOPES,
    request: { method: "GET", path: "/query", query: { q: "{query}" } },
    response: {
      schema: { type: "object", required: ["records"], properties: { totalSize: { type: "integer" }, done: { type: "boolean" }, records: { type: "array", items: anyObject } } },
      fields: { total_size: "/totalSize", done: "/done", records: "/records", next_records_url: "/nextRecordsUrl" },
    },
  },
  {
    name: "salesforce.search",
    title: "Search with SOSL",
    description: "Search text across objects with a SOSL statement (e.g. FIND {Acme} IN NAME FIELDS RETURNING Account(Id, Name), Contact(Id, Email)).",
    arguments_schema: argumentsOf({ query: requiredText("The SOSL statement", 20_000) }, ["query"]),
    risk: "low",
    side_effect: "read",
    scopes: SCOPES,
    request: { method: "GET", path: "/search", query: { q: "{query}" } },
    response: { schema: { type: "object", properties: { searchRecords: { type: "array", items: anyObject } } }, fields: { records: "/searchRecords" } },
  },
  {
    name: "salesforce.get_record",
    title: "Get a record",
    description: "Get one record of an object by its id, with the fields asked for (all readable fields when none are named).",
    arguments_schema: argumentsOf({ sobject, record_id: recordId, fields: text("Comma-separated field API names, e.g. Id,Name,Industry", 5000) }, ["sobject", "record_id"]),
    risk: "low",
    side_effect: "read",
    scopes: SCOPES,
    request: { method: "GET", path: "/sobjects/{sobject}/{record_id}", query: { fields: "{fields}" } },
    response: { schema: anyObject },
  },
  {
    name: "salesforce.describe_sobject",
    title: "Describe an object",
    description: "Describe an object: its label and each field's API name, label, type, whether it is required and whether it can be created and updated; picklists list their values.",
    arguments_schema: argumentsOf({ sobject }, ["sobject"]),
    risk: "low",
    side_effect: "read",
    scopes: SCOPES,
    request: { method: "GET", path: "/sobjects/{sobject}/describe" },
    // The full describe is hundreds of kilobytes: the hook keeps what a model needs to write records.
    response: { schema: { type: "object", required: ["name", "fields"], properties: { name: { type: "string" }, fields: { type: "array", items: anyObject } } } },
  },
  {
    name: "salesforce.create_record",
    title: "Create a record",
    description: "Create a record of an object from field values; returns the new record's id. Triggers and flows on the org run as for any new record.",
    arguments_schema: argumentsOf({ sobject, fields: recordFields }, ["sobject", "fields"]),
    risk: "low",
    side_effect: "write",
    scopes: SCOPES,
    request: { method: "POST", path: "/sobjects/{sobject}", body: "{fields}" },
    response: { schema: saveResult, fields: fieldsOf(["id", "success", "errors"]) },
  },
  {
    name: "salesforce.update_record",
    title: "Update a record",
    description: "Change the given fields of a record; other fields keep their values. The previous values are not returned, so keep them if the change may need undoing.",
    arguments_schema: argumentsOf({ sobject, record_id: recordId, fields: recordFields }, ["sobject", "record_id", "fields"]),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: SCOPES,
    request: { method: "PATCH", path: "/sobjects/{sobject}/{record_id}", body: "{fields}" },
  },
  {
    name: "salesforce.delete_record",
    title: "Delete a record",
    description: "Delete a record. It goes to the org's Recycle Bin (kept about 15 days, restorable only in Salesforce itself); records that cascade with it are deleted too.",
    arguments_schema: argumentsOf({ sobject, record_id: recordId }, ["sobject", "record_id"]),
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: SCOPES,
    request: { method: "DELETE", path: "/sobjects/{sobject}/{record_id}" },
  },
];

type DescribeField = { name?: string; label?: string; type?: string; nillable?: boolean; defaultedOnCreate?: boolean; createable?: boolean; updateable?: boolean; picklistValues?: { value?: string; active?: boolean }[]; referenceTo?: string[] };

/** The token response's `id` is https://login.salesforce.com/id/<org id>/<user id>. */
const IDENTITY_URL = /\/id\/([A-Za-z0-9]{15,18})\/([A-Za-z0-9]{15,18})$/;

const hooks: ProviderHooks = {
  // The account is the org and user of the identity URL; the user's login name (an email-like
  // Username) is read from the org itself, on the instance the token belongs to.
  async fetchIdentity(api, tokenResponse) {
    const match = IDENTITY_URL.exec(typeof tokenResponse.id === "string" ? tokenResponse.id : "");
    if (!match) throw new Error("Salesforce's token response has no identity URL (id)");
    const [, orgId, userId] = match as unknown as [string, string, string];
    const user = await api({ method: "GET", path: `/sobjects/User/${userId}`, query: { fields: "Username" } });
    const username = user.status === 200 ? (user.body as { Username?: unknown } | null)?.Username : undefined;
    return { accountId: `${orgId}/${userId}`, displayName: typeof username === "string" && username ? username : userId };
  },
  tools: {
    // The record's fields arrive as JSON text (a model-safe argument) and are sent as the object they hold.
    "salesforce.create_record": { request: (built, args) => ({ ...built, body: parseJsonObject(args, "fields") }) },
    "salesforce.update_record": {
      request: (built, args) => ({ ...built, body: parseJsonObject(args, "fields") }),
      // Salesforce answers an update and a delete with 204 and no body: the result says what was done.
      mapResponse: (_response, args) => ({ updated: true, sobject: args.sobject, record_id: args.record_id }),
    },
    "salesforce.delete_record": { mapResponse: (_response, args) => ({ deleted: true, sobject: args.sobject, record_id: args.record_id }) },
    "salesforce.describe_sobject": {
      mapResponse: ({ body }) => {
        const described = body as { name: string; label?: string; fields: DescribeField[] };
        return {
          name: described.name,
          label: described.label,
          fields: described.fields.map((field) => ({
            name: field.name,
            label: field.label,
            type: field.type,
            required_on_create: field.createable === true && field.nillable === false && field.defaultedOnCreate !== true,
            createable: field.createable,
            updateable: field.updateable,
            ...(field.referenceTo?.length ? { reference_to: field.referenceTo } : {}),
            ...(field.picklistValues?.length ? { picklist_values: field.picklistValues.filter((value) => value.active !== false).map((value) => value.value) } : {}),
          })),
        };
      },
    },
  },
};

export const salesforce: BuiltInProvider = {
  declaration,
  tools,
  hooks,
  examples: {
    "salesforce.soql_query": { query: "SELECT Id, Name, Industry FROM Account WHERE Industry = 'Energy' ORDER BY Name LIMIT 20" },
    "salesforce.search": { query: "FIND {Acme} IN NAME FIELDS RETURNING Account(Id, Name), Contact(Id, Name, Email)" },
    "salesforce.get_record": { sobject: "Account", record_id: "001xx000003DGb2AAG", fields: "Id,Name,Industry" },
    "salesforce.describe_sobject": { sobject: "Account" },
    "salesforce.create_record": { sobject: "Account", fields: JSON.stringify({ Name: "Acme Energy", Industry: "Energy" }) },
    "salesforce.update_record": { sobject: "Account", record_id: "001xx000003DGb2AAG", fields: JSON.stringify({ Phone: "+1 415 555 0100" }) },
    "salesforce.delete_record": { sobject: "Account", record_id: "001xx000003DGb2AAG" },
  },
  vendorDescription: {
    none:
      "Salesforce publishes no OpenAPI description of its REST API in a package. Checked against its REST API Developer Guide (v62.0): the resources /query?q=, /search?q=, " +
      "/sobjects/{sObject}/{id} (GET with fields=, PATCH, DELETE), /sobjects/{sObject} (POST) and /sobjects/{sObject}/describe, the save result {id, success, errors}, " +
      "the query result {totalSize, done, records, nextRecordsUrl} and the token response's instance_url and id",
  },
};
