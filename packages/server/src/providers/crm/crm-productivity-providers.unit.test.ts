import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { providerFromDeclaration } from "../declared-provider.js";
import type { BuiltInProvider } from "../built-in-provider.js";
import { airtable } from "../productivity/airtable.js";
import { dropbox } from "../productivity/dropbox.js";
import { notion } from "../productivity/notion.js";
import type { ApiCaller } from "../provider-types.js";
import { hubspot } from "./hubspot.js";
import { salesforce } from "./salesforce.js";
import { stripe } from "./stripe.js";
import { zendesk } from "./zendesk.js";

const PROVIDERS: BuiltInProvider[] = [salesforce, hubspot, zendesk, stripe, notion, dropbox, airtable];
const built = (provider: BuiltInProvider) => providerFromDeclaration(provider.declaration, provider.tools, provider.hooks);
const toolOf = (provider: BuiltInProvider, name: string) => built(provider).tools.find((tool) => tool.name === name)!;
const requestOf = (provider: BuiltInProvider, name: string, args: Record<string, unknown> = provider.examples![name]!) => toolOf(provider, name).buildRequest(args);
const noContent = { status: 204, headers: {}, body: null, latencyMs: 1 };

describe("Salesforce, HubSpot, Zendesk, Stripe, Notion, Dropbox and Airtable", () => {
  it("have at least 42 tools", () => {
    expect(PROVIDERS.flatMap((provider) => provider.tools).length).toBeGreaterThanOrEqual(42);
  });

  it.each(PROVIDERS.map((provider) => [provider.declaration.id, provider] as const))(
    "%s: every tool has a title, a description that ends a sentence, the scopes its provider asks for, and an example its schema accepts that builds a request",
    (_id, provider) => {
      const ajv = new Ajv({ strict: false });
      const auth = provider.declaration.auth;
      const asked = new Set(auth.type === "oauth2" ? auth.scopes : []);
      expect(Object.keys(provider.examples ?? {}).sort()).toEqual(provider.tools.map((tool) => tool.name).sort());
      expect(provider.vendorDescription).toBeDefined();
      for (const tool of provider.tools) {
        expect(tool.title, tool.name).toBeTruthy();
        expect(tool.description, tool.name).toMatch(/[.)]$/);
        for (const needed of tool.scopes ?? []) expect(asked.has(needed), `${tool.name} needs ${needed}`).toBe(true);
      }
      for (const tool of built(provider).tools) {
        const example = provider.examples![tool.name]!;
        const validate = ajv.compile(tool.argumentsSchema);
        expect(validate(example), `${tool.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        expect(() => tool.buildRequest(example), tool.name).not.toThrow();
      }
    },
  );

  it("marks deleting, refunds, cancellations, public replies and public links high risk, and deletes destructive and idempotent", () => {
    const tools = PROVIDERS.flatMap((provider) => provider.tools);
    const high = tools.filter((tool) => tool.risk === "high").map((tool) => tool.name);
    expect(high.sort()).toEqual(
      [
        "salesforce.delete_record",
        "hubspot.delete_contact",
        "zendesk.add_public_reply",
        "stripe.cancel_subscription",
        "stripe.create_refund",
        "notion.archive_page",
        "dropbox.create_shared_link",
        "dropbox.delete",
        "airtable.delete_record",
      ].sort(),
    );
    for (const tool of tools.filter((candidate) => candidate.destructive)) expect(tool.idempotent, tool.name).toBe(true);
    for (const tool of tools.filter((candidate) => candidate.side_effect === "read")) expect(tool.risk, tool.name).toBe("low");
  });
});

describe("JSON-text arguments", () => {
  it("send the object they hold (Salesforce fields, Notion properties and filter, Airtable records)", () => {
    expect(requestOf(salesforce, "salesforce.create_record").body).toEqual({ Name: "Acme Energy", Industry: "Energy" });
    expect(requestOf(notion, "notion.update_page")).toMatchObject({ method: "PATCH", path: "/v1/pages/59833787-2cf9-4fdf-8782-e53db20768a5", body: { properties: { Status: { status: { name: "Done" } } } } });
    expect(requestOf(notion, "notion.query_data_source").body).toEqual({
      filter: { property: "Status", status: { equals: "In progress" } },
      sorts: [{ property: "Due", direction: "ascending" }],
      page_size: 20,
    });
    expect(requestOf(airtable, "airtable.create_records").body).toEqual({ records: [{ fields: { Name: "Acme", Seats: 12, Status: "Open" } }], typecast: true });
    expect(requestOf(airtable, "airtable.update_records").body).toEqual({ records: [{ id: "recHdTLTNmFJ0Bdpb", fields: { Status: "Closed" } }] });
  });

  it("refuse text that is not a JSON object with invalid_tool_args naming the argument", () => {
    const refused = (call: () => unknown) => {
      try {
        call();
      } catch (error) {
        return { code: (error as { code?: string }).code, fields: (error as { details?: { fields?: unknown } }).details?.fields };
      }
      return undefined;
    };
    expect(refused(() => requestOf(salesforce, "salesforce.create_record", { sobject: "Account", fields: "[1, 2]" }))).toEqual({
      code: "invalid_tool_args",
      fields: [{ field: "/fields", message: "is not the JSON text of an object" }],
    });
    expect(refused(() => requestOf(notion, "notion.update_page", { page_id: "59833787-2cf9-4fdf-8782-e53db20768a5", properties: "{not json" }))).toEqual({
      code: "invalid_tool_args",
      fields: [{ field: "/properties", message: "is not JSON text" }],
    });
    expect(
      refused(() => requestOf(airtable, "airtable.update_records", { base_id: "appLkNDICXNqxSDhG", table: "T", records: [{ id: "recHdTLTNmFJ0Bdpb", fields: "{}" }, { id: "recHdTLTNmFJ0Bdpc", fields: "null" }] })),
    ).toEqual({ code: "invalid_tool_args", fields: [{ field: "/records/1/fields", message: "is not the JSON text of an object" }] });
  });
});

describe("requests data cannot say", () => {
  it("Notion: a page under a page or a row in a data source, its title as the title property; search filters only when a type is given", () => {
    expect(requestOf(notion, "notion.create_page", { parent_type: "data_source_id", parent_id: "248104cd-477e-80af-bc30-000bd28de8f9", title: "Q3", properties: '{"Status": {"status": {"name": "Open"}}}' }).body).toEqual({
      parent: { data_source_id: "248104cd-477e-80af-bc30-000bd28de8f9" },
      properties: { Status: { status: { name: "Open" } }, title: { title: [{ type: "text", text: { content: "Q3" } }] } },
    });
    expect(requestOf(notion, "notion.search", { query: "x" }).body).toEqual({ query: "x" });
    expect(requestOf(notion, "notion.search").body).toMatchObject({ filter: { property: "object", value: "page" } });
    expect(requestOf(notion, "notion.append_block_children").body).toEqual({
      children: [{ type: "bulleted_list_item", bulleted_list_item: { rich_text: [{ type: "text", text: { content: "Follow-up: send the summary" } }] } }],
    });
  });

  it("HubSpot: a note is associated with HubSpot's type id for its record and stamped now unless a time is given", () => {
    const body = requestOf(hubspot, "hubspot.create_note", { attach_to: "deal", record_id: "7", body: "Hi", timestamp: "2026-11-01T10:00:00Z" }).body;
    expect(body).toEqual({
      properties: { hs_note_body: "Hi", hs_timestamp: "2026-11-01T10:00:00Z" },
      associations: [{ to: { id: "7" }, types: [{ associationCategory: "HUBSPOT_DEFINED", associationTypeId: 214 }] }],
    });
    const stamped = requestOf(hubspot, "hubspot.create_note").body as { properties: { hs_timestamp: string } };
    expect(Date.parse(stamped.properties.hs_timestamp)).not.toBeNaN();
  });

  it("Stripe sends form fields; Zendesk marks replies public and notes private", () => {
    expect(requestOf(stripe, "stripe.create_refund")).toEqual({ method: "POST", path: "/v1/refunds", form: { payment_intent: "pi_3MtwBwLkdIwHu7ix28a3tqPa", amount: "1000", reason: "requested_by_customer" } });
    expect(requestOf(zendesk, "zendesk.add_public_reply").body).toMatchObject({ ticket: { comment: { public: true } } });
    expect(requestOf(zendesk, "zendesk.add_internal_note").body).toMatchObject({ ticket: { comment: { public: false } } });
  });

  it("answers deletes and updates the vendor acknowledges without a body with what was done", () => {
    expect(toolOf(salesforce, "salesforce.delete_record").mapResponse(noContent, { sobject: "Account", record_id: "001xx000003DGb2AAG" })).toEqual({ deleted: true, sobject: "Account", record_id: "001xx000003DGb2AAG" });
    expect(toolOf(hubspot, "hubspot.delete_contact").mapResponse(noContent, { contact_id: "51" })).toEqual({ deleted: true, contact_id: "51" });
  });

  it("Salesforce describe keeps what a model needs to write records", () => {
    const described = {
      name: "Account",
      label: "Account",
      fields: [
        { name: "Name", label: "Account Name", type: "string", nillable: false, createable: true, updateable: true, defaultedOnCreate: false, picklistValues: [] },
        { name: "Industry", label: "Industry", type: "picklist", nillable: true, createable: true, updateable: true, picklistValues: [{ value: "Energy", active: true }, { value: "Old", active: false }] },
      ],
    };
    expect(toolOf(salesforce, "salesforce.describe_sobject").mapResponse({ status: 200, headers: {}, body: described, latencyMs: 1 }, { sobject: "Account" })).toEqual({
      name: "Account",
      label: "Account",
      fields: [
        { name: "Name", label: "Account Name", type: "string", required_on_create: true, createable: true, updateable: true },
        { name: "Industry", label: "Industry", type: "picklist", required_on_create: false, createable: true, updateable: true, picklist_values: ["Energy"] },
      ],
    });
  });
});

describe("identity and revocation", () => {
  const answering = (body: unknown, status = 200) => {
    const calls: unknown[] = [];
    const api: ApiCaller = async (req) => {
      calls.push(req);
      return { status, headers: {}, body, latencyMs: 1 };
    };
    return { api, calls };
  };

  it("Salesforce: the org and user of the token response's identity URL, named by the user's Username", async () => {
    const { api, calls } = answering({ Username: "ada@acme.example" });
    const identity = await built(salesforce).fetchIdentity(api, { id: "https://login.salesforce.com/id/00D5e000000AbcdEAC/0055e000001AbcdAAC", instance_url: "https://acme.my.salesforce.com" });
    expect(identity).toEqual({ accountId: "00D5e000000AbcdEAC/0055e000001AbcdAAC", displayName: "ada@acme.example" });
    expect(calls).toEqual([{ method: "GET", path: "/sobjects/User/0055e000001AbcdAAC", query: { fields: "Username" } }]);
    await expect(built(salesforce).fetchIdentity(api, {})).rejects.toThrow(/identity URL/);
  });

  it("Notion: the person and workspace of the token response", async () => {
    const { api, calls } = answering({});
    const identity = await built(notion).fetchIdentity(api, { workspace_id: "w1", workspace_name: "Engines", owner: { type: "user", user: { id: "u1", person: { email: "ada@example.com" } } } });
    expect(identity).toEqual({ accountId: "w1/u1", displayName: "ada@example.com (Engines)" });
    expect(calls).toEqual([]);
  });

  it("Dropbox: the account from an RPC with a null argument, and revocation as one", async () => {
    const { api, calls } = answering({ account_id: "dbid:AAH4", email: "ada@example.com", name: { display_name: "Ada" } });
    expect(await built(dropbox).fetchIdentity(api, {})).toEqual({ accountId: "dbid:AAH4", displayName: "ada@example.com" });
    expect(calls).toEqual([{ method: "POST", path: "/users/get_current_account", body: null }]);
    const revocation = built(dropbox).oauth!.revocation!({ token: "sl.t", clientId: "c", clientSecret: "s", revokeUrl: "https://api.dropboxapi.com/2/auth/token/revoke", apiBaseUrl: "https://api.dropboxapi.com/2" });
    expect(revocation.request).toEqual({ method: "POST", path: "", headers: { authorization: "Bearer sl.t" }, body: null });
  });

  it("HubSpot, Stripe, Notion and Airtable also take API keys (private app tokens, secret keys, integration secrets, personal access tokens) as Bearer; Zendesk's key is HTTP Basic on the connection's subdomain", () => {
    for (const provider of [hubspot, stripe, notion, airtable]) {
      expect(built(provider).authModes).toEqual(["oauth2", "api_key"]);
      expect(built(provider).presentCredential({ kind: "api_key", secret: "k" })).toEqual({ headers: { authorization: "Bearer k" } });
    }
    expect(zendesk.declaration.auth).toMatchObject({ type: "api_key", name: "Authorization", prefix: "Basic ", format: "basic" });
    expect(zendesk.declaration.connection_values?.subdomain).toMatchObject({ source: "connect_input" });
  });
});
