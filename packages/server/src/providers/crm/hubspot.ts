/**
 * `hubspot`: HubSpot's CRM API v3 (contacts, companies, deals, notes) and v4 associations,
 * through a public app's OAuth or a private app's access token. Searches use HubSpot's CRM
 * search: filter groups (OR) of filters (AND) on property values.
 */
import type { ProviderDeclaration, ToolDeclaration } from "../declaration-schema.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { bearer, type ProviderHooks } from "../provider-types.js";
import { anyObject, argumentsOf, choice, identifier, integer, monogramIcon, requiredText, scopesOf, text, textList, type JsonSchema } from "./schema-parts.js";

const OPERATORS = ["EQ", "NEQ", "LT", "LTE", "GT", "GTE", "BETWEEN", "IN", "NOT_IN", "HAS_PROPERTY", "NOT_HAS_PROPERTY", "CONTAINS_TOKEN", "NOT_CONTAINS_TOKEN"];

const filterGroups: JsonSchema = {
  type: "array",
  maxItems: 5,
  description: "Filter groups: a record matches when it matches every filter of at least one group (at most 5 groups of 6 filters)",
  items: {
    type: "object",
    description: "Filters that must all hold",
    required: ["filters"],
    additionalProperties: false,
    properties: {
      filters: {
        type: "array",
        maxItems: 6,
        description: "Conditions on property values",
        items: {
          type: "object",
          description: "One condition",
          required: ["propertyName", "operator"],
          additionalProperties: false,
          properties: {
            propertyName: requiredText("Internal property name, e.g. email, lifecyclestage, createdate", 100),
            operator: choice("How the property is compared", OPERATORS),
            value: text("The value compared with (dates as epoch milliseconds or ISO 8601)", 1000),
            highValue: text("The upper bound, with BETWEEN", 1000),
            values: textList("The values, with IN and NOT_IN", 100, 1000),
          },
        },
      },
    },
  },
};
const sorts: JsonSchema = {
  type: "array",
  maxItems: 2,
  description: "Sort order, e.g. [{\"propertyName\": \"createdate\", \"direction\": \"DESCENDING\"}]",
  items: {
    type: "object",
    description: "One sort key",
    required: ["propertyName", "direction"],
    additionalProperties: false,
    properties: { propertyName: requiredText("Property to sort by", 100), direction: choice("Sort direction", ["ASCENDING", "DESCENDING"]) },
  },
};
const objectId = (what: string) => identifier(`The ${what}'s record id`, "^[0-9]{1,20}$");
const after = text("Paging cursor: paging_after from the previous page", 200);

const recordShape = { type: "object", required: ["id"], properties: { id: { type: "string" }, properties: anyObject } };
const RECORD_FIELDS = { id: "/id", properties: "/properties", created_at: "/createdAt", updated_at: "/updatedAt", archived: "/archived" };
const searchResult = { type: "object", required: ["results"], properties: { total: { type: "integer" }, results: { type: "array", items: recordShape } } };

function searchTool(object: "contacts" | "companies" | "deals", what: string, example: string): ToolDeclaration {
  return {
    name: `hubspot.search_${object}`,
    title: `Search ${object}`,
    description:
      `Search ${object} with HubSpot's CRM search: free text over the default searchable properties and/or filter groups on any property (${example}). ` +
      "Returns each record's id and the properties asked for, at most 200 per page.",
    arguments_schema: argumentsOf({
      query: text("Text searched in the default searchable properties", 3000),
      filter_groups: filterGroups,
      properties: textList("Properties to return (default: HubSpot's default set)", 100, 100),
      sorts,
      limit: integer("Records per page (at most 200)", 1, 200),
      after,
    }),
    risk: "low",
    side_effect: "read",
    scopes: [`crm.objects.${object}.read`],
    request: {
      method: "POST",
      path: `/crm/v3/objects/${object}/search`,
      body: { query: "{query}", filterGroups: "{filter_groups}", properties: "{properties}", sorts: "{sorts}", limit: "{limit}", after: "{after}" },
    },
    response: { schema: searchResult, fields: { total: "/total", results: "/results", paging_after: "/paging/next/after" } },
  };
}

const contactProperties = {
  email: text("Email address", 254),
  firstname: text("First name", 200),
  lastname: text("Last name", 200),
  phone: text("Phone number", 50),
  company: text("Company name (text; associate a company record with associate_records)", 200),
  jobtitle: text("Job title", 200),
  lifecyclestage: text("Lifecycle stage, e.g. lead, marketingqualifiedlead, customer", 100),
};
const contactPropertiesBody = Object.fromEntries(Object.keys(contactProperties).map((name) => [name, `{${name}}`]));

/** HubSpot-defined association type ids from a note to each object (v4 associations reference). */
const NOTE_ASSOCIATION_TYPE: Record<string, number> = { contact: 202, company: 190, deal: 214 };

const tools: ToolDeclaration[] = [
  searchTool("contacts", "contacts", 'e.g. email CONTAINS_TOKEN "*@acme.com", lifecyclestage EQ customer'),
  {
    name: "hubspot.get_contact",
    title: "Get a contact",
    description: "Get one contact by its record id, with the properties asked for.",
    arguments_schema: argumentsOf({ contact_id: objectId("contact"), properties: text("Comma-separated property names, e.g. email,firstname,lastname,phone", 2000) }, ["contact_id"]),
    risk: "low",
    side_effect: "read",
    scopes: ["crm.objects.contacts.read"],
    request: { method: "GET", path: "/crm/v3/objects/contacts/{contact_id}", query: { properties: "{properties}" } },
    response: { schema: recordShape, fields: RECORD_FIELDS },
  },
  {
    name: "hubspot.create_contact",
    title: "Create a contact",
    description: "Create a contact. HubSpot refuses a second contact with an email address it already has (409); workflows enrolling new contacts run for it.",
    arguments_schema: argumentsOf(contactProperties),
    risk: "low",
    side_effect: "write",
    scopes: ["crm.objects.contacts.write"],
    request: { method: "POST", path: "/crm/v3/objects/contacts", body: { properties: contactPropertiesBody } },
    response: { schema: recordShape, fields: RECORD_FIELDS },
  },
  {
    name: "hubspot.update_contact",
    title: "Update a contact",
    description: "Change the given properties of a contact; the others keep their values (HubSpot keeps each property's history).",
    arguments_schema: argumentsOf({ contact_id: objectId("contact"), ...contactProperties }, ["contact_id"]),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: ["crm.objects.contacts.write"],
    request: { method: "PATCH", path: "/crm/v3/objects/contacts/{contact_id}", body: { properties: contactPropertiesBody } },
    response: { schema: recordShape, fields: RECORD_FIELDS },
  },
  {
    name: "hubspot.delete_contact",
    title: "Delete a contact",
    description: "Archive a contact: it leaves every list, view and association, and can be restored from HubSpot's recycle bin for 90 days only; after that it is gone.",
    arguments_schema: argumentsOf({ contact_id: objectId("contact") }, ["contact_id"]),
    risk: "high",
    side_effect: "write",
    destructive: true,
    idempotent: true,
    scopes: ["crm.objects.contacts.write"],
    request: { method: "DELETE", path: "/crm/v3/objects/contacts/{contact_id}" },
  },
  searchTool("companies", "companies", 'e.g. domain EQ "acme.com", industry EQ COMPUTER_SOFTWARE'),
  searchTool("deals", "deals", "e.g. dealstage EQ closedwon, amount GT 10000"),
  {
    name: "hubspot.create_deal",
    title: "Create a deal",
    description: "Create a deal in a pipeline stage. Associate it with contacts or companies with associate_records.",
    arguments_schema: argumentsOf(
      {
        dealname: requiredText("The deal's name", 300),
        amount: text("Amount, as a decimal number in the account's currency, e.g. 12500.00", 50, { pattern: "^-?[0-9]{1,15}(\\.[0-9]{1,6})?$" }),
        dealstage: text("Stage id, e.g. appointmentscheduled (the default pipeline's first stage)", 100),
        pipeline: text("Pipeline id (default: default)", 100),
        closedate: text("Expected close date, ISO 8601", 40),
        hubspot_owner_id: text("Owner's HubSpot user id", 40),
      },
      ["dealname"],
    ),
    risk: "low",
    side_effect: "write",
    scopes: ["crm.objects.deals.write"],
    request: {
      method: "POST",
      path: "/crm/v3/objects/deals",
      body: { properties: { dealname: "{dealname}", amount: "{amount}", dealstage: "{dealstage}", pipeline: "{pipeline}", closedate: "{closedate}", hubspot_owner_id: "{hubspot_owner_id}" } },
    },
    response: { schema: recordShape, fields: RECORD_FIELDS },
  },
  {
    name: "hubspot.create_note",
    title: "Add a note to a record",
    description: "Add a note to a contact's, company's or deal's timeline. Notes are internal to the HubSpot account; nothing is sent to the contact.",
    arguments_schema: argumentsOf(
      {
        attach_to: choice("What the note is about", Object.keys(NOTE_ASSOCIATION_TYPE)),
        record_id: objectId("contact, company or deal"),
        body: requiredText("The note (HubSpot keeps simple HTML)", 65_000),
        timestamp: text("When the activity happened, ISO 8601 (default: now)", 40),
      },
      ["attach_to", "record_id", "body"],
    ),
    risk: "low",
    side_effect: "write",
    scopes: ["crm.objects.contacts.write"],
    request: {
      method: "POST",
      path: "/crm/v3/objects/notes",
      body: {
        properties: { hs_note_body: "{body}", hs_timestamp: "{timestamp}" },
        associations: [{ to: { id: "{record_id}" }, types: [{ associationCategory: "HUBSPOT_DEFINED", associationTypeId: 202 }] }],
      },
    },
    response: { schema: recordShape, fields: RECORD_FIELDS },
  },
  {
    name: "hubspot.associate_records",
    title: "Associate two records",
    description: "Associate two records with HubSpot's default association (e.g. a contact with its company, a deal with a contact). Associating them again changes nothing.",
    arguments_schema: argumentsOf(
      {
        from_object: choice("The first record's object", ["contacts", "companies", "deals"]),
        from_id: objectId("first record"),
        to_object: choice("The second record's object", ["contacts", "companies", "deals"]),
        to_id: objectId("second record"),
      },
      ["from_object", "from_id", "to_object", "to_id"],
    ),
    risk: "low",
    side_effect: "write",
    idempotent: true,
    scopes: ["crm.objects.contacts.write", "crm.objects.companies.write", "crm.objects.deals.write"],
    request: { method: "PUT", path: "/crm/v4/objects/{from_object}/{from_id}/associations/default/{to_object}/{to_id}" },
  },
];

const hooks: ProviderHooks = {
  // A private app's access token (pat-…) is a Bearer token like an OAuth one.
  presentApiKey: bearer,
  tools: {
    // HubSpot answers an archive with 204 and no body: the result says what was archived.
    "hubspot.delete_contact": { mapResponse: (_response, args) => ({ deleted: true, contact_id: args.contact_id }) },
    // The answer lists association labels HubSpot created; what a caller needs is which records are now linked.
    "hubspot.associate_records": {
      mapResponse: (_response, args) => ({ associated: true, from_object: args.from_object, from_id: args.from_id, to_object: args.to_object, to_id: args.to_id }),
    },
    // The association type is HubSpot's id for "note to <object>", and a note needs its timestamp.
    "hubspot.create_note": {
      request: (built, args) => {
        const body = built.body as { properties: Record<string, unknown>; associations: [{ to: { id: unknown }; types: [Record<string, unknown>] }] };
        const [association] = body.associations;
        return {
          ...built,
          body: {
            properties: { ...body.properties, hs_timestamp: body.properties.hs_timestamp ?? new Date().toISOString() },
            associations: [{ ...association, types: [{ ...association.types[0], associationTypeId: NOTE_ASSOCIATION_TYPE[String(args.attach_to)] }] }],
          },
        };
      },
    },
  },
};

const declaration: ProviderDeclaration = {
  id: "hubspot",
  display_name: "HubSpot",
  description: "HubSpot CRM: search, read and change contacts, companies and deals, add notes and associations.",
  icon: monogramIcon("H", "#FF7A59"),
  docs_url: "https://developers.hubspot.com/docs/api/crm/understanding-the-crm",
  api_base_url: "https://api.hubapi.com",
  auth: {
    type: "oauth2",
    authorize_url: "https://app.hubspot.com/oauth/authorize",
    token_url: "https://api.hubapi.com/oauth/v1/token",
    // Every app needs `oauth`; access tokens last 30 minutes and the refresh token stays the same.
    scopes: scopesOf(tools, ["oauth"]),
    scope_separator: " ",
    // HubSpot's authorization code flow takes the client secret at the token endpoint, without PKCE.
    pkce: false,
    client_auth: "client_secret_post",
  },
  // The connected account is the HubSpot account (portal) the user installed the app in.
  identity: { path: "/account-info/v3/details", account_id: "/portalId" },
};

export const hubspot: BuiltInProvider = {
  declaration,
  tools,
  hooks,
  examples: {
    "hubspot.search_contacts": {
      query: "acme",
      filter_groups: [{ filters: [{ propertyName: "lifecyclestage", operator: "EQ", value: "customer" }] }],
      properties: ["email", "firstname", "lastname"],
      limit: 10,
    },
    "hubspot.get_contact": { contact_id: "51", properties: "email,firstname,lastname" },
    "hubspot.create_contact": { email: "ada@example.com", firstname: "Ada", lastname: "Lovelace" },
    "hubspot.update_contact": { contact_id: "51", phone: "+44 20 7946 0000" },
    "hubspot.delete_contact": { contact_id: "51" },
    "hubspot.search_companies": { filter_groups: [{ filters: [{ propertyName: "domain", operator: "EQ", value: "example.com" }] }], limit: 5 },
    "hubspot.search_deals": { filter_groups: [{ filters: [{ propertyName: "amount", operator: "GT", value: "10000" }] }], sorts: [{ propertyName: "amount", direction: "DESCENDING" }] },
    "hubspot.create_deal": { dealname: "Acme renewal", amount: "12500.00", dealstage: "appointmentscheduled", pipeline: "default" },
    "hubspot.create_note": { attach_to: "contact", record_id: "51", body: "Called about the renewal; follow up next week." },
    "hubspot.associate_records": { from_object: "deals", from_id: "1001", to_object: "contacts", to_id: "51" },
  },
  vendorDescription: {
    none:
      "HubSpot publishes its OpenAPI descriptions on its developer site, not in a package (@hubspot/api-client ships code generated from them). Checked against " +
      "@hubspot/api-client 13.5.0's generated CRM clients and HubSpot's CRM reference: POST /crm/v3/objects/{object}/search with filterGroups, properties, sorts, " +
      "limit, after; /crm/v3/objects/{object}[/{id}] GET, POST, PATCH, DELETE with {properties}; PUT /crm/v4/objects/{from}/{id}/associations/default/{to}/{id}; " +
      "note association type ids 202 (contact), 190 (company), 214 (deal)",
  },
};
