/**
 * The vendor-description check itself (scripts/vendor-openapi/): a tool that calls its vendor's
 * operation correctly passes, and each kind of mistake is named precisely.
 */
import { describe, expect, it } from "vitest";
import type { ToolDeclaration } from "../src/providers/declaration-schema.js";
import { componentDrift, extractOperations } from "../scripts/vendor-openapi/extract.js";
import { findOperation } from "../scripts/vendor-openapi/operations.js";
import type { OpenApiDocument } from "../scripts/vendor-openapi/schema-views.js";
import { checkTool } from "../scripts/vendor-openapi/tool-check.js";

/** A small vendor: users, their messages (send with a JSON body, list with paging), a form endpoint. */
const description: OpenApiDocument = {
  openapi: "3.0.3",
  info: { title: "Mail", version: "1" },
  paths: {
    "/mail/v1/users/{userId}/messages": {
      parameters: [{ $ref: "#/components/parameters/userId" }],
      get: {
        parameters: [
          { name: "maxResults", in: "query", schema: { type: "integer" } },
          { name: "q", in: "query", schema: { type: "string" } },
          { name: "format", in: "query", required: true, schema: { type: "string", enum: ["full", "minimal"] } },
        ],
        responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/MessageList" } } } } },
      },
      post: {
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Draft" } } } },
        responses: { "200": { description: "ok", content: { "application/json": { schema: { $ref: "#/components/schemas/Message" } } } } },
      },
    },
    "/mail/v1/users/{userId}/messages/{id}": {
      delete: { parameters: [{ $ref: "#/components/parameters/userId" }, { name: "id", in: "path", required: true, schema: { type: "string" } }], responses: { "204": { description: "gone" } } },
    },
    "/mail/v1/labels.create": {
      post: {
        requestBody: { content: { "application/x-www-form-urlencoded": { schema: { type: "object", required: ["name"], properties: { name: { type: "string" }, hidden: { type: "boolean" } } } } } },
        responses: { "200": { description: "ok", content: { "application/json": { schema: { type: "object", properties: { ok: { type: "boolean" } } } } } } },
      },
    },
  },
  components: {
    parameters: { userId: { name: "userId", in: "path", required: true, schema: { type: "string" } } },
    schemas: {
      MessageList: { type: "object", properties: { messages: { type: "array", items: { $ref: "#/components/schemas/Message" } }, nextPageToken: { type: "string" } } },
      Message: {
        allOf: [{ $ref: "#/components/schemas/Entity" }, { type: "object", properties: { subject: { type: "string" }, from: { oneOf: [{ type: "string" }, { type: "object", properties: { address: { type: "string" } } }] } } }],
      },
      Entity: { type: "object", properties: { id: { type: "string" } } },
      Draft: {
        type: "object",
        required: ["to", "subject"],
        properties: { to: { type: "array", items: { type: "string" } }, subject: { type: "string" }, priority: { type: "integer" }, labels: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } } },
      },
      Unused: { type: "string" },
    },
  },
};

const tool = (overrides: Partial<ToolDeclaration>): ToolDeclaration => ({
  name: "mail.op",
  description: "test",
  arguments_schema: { type: "object", properties: {}, additionalProperties: false },
  risk: "low",
  side_effect: "read",
  request: { method: "GET", path: "/" },
  ...overrides,
});

const listMessages = tool({
  name: "mail.list_messages",
  arguments_schema: {
    type: "object",
    properties: { query: { type: "string", description: "q" }, max_results: { type: "integer", description: "page size" } },
    additionalProperties: false,
  },
  request: { method: "GET", path: "/users/me/messages", query: { q: "{query}", maxResults: "{max_results}", format: "minimal" } },
  response: { root: "/messages", fields: { id: "/id", subject: "/subject", from: "/from/address" } },
});

const sendMessage = tool({
  name: "mail.send_message",
  arguments_schema: {
    type: "object",
    properties: { to: { type: "array", items: { type: "string" } }, subject: { type: "string" }, priority: { type: "integer" } },
    required: ["to", "subject"],
    additionalProperties: false,
  },
  side_effect: "write",
  request: { method: "POST", path: "/users/me/messages", body: { to: "{to}", subject: "{subject}", priority: "{priority}", labels: [{ name: "sent-by-agent" }] } },
  response: { schema: { type: "object", properties: { id: { type: "string" } } }, fields: { id: "/id" } },
});

const check = (candidate: ToolDeclaration, extra: { example?: Record<string, unknown>; hooks?: Parameters<typeof checkTool>[1]["hooks"] } = {}) =>
  checkTool(description, { tool: candidate, pathPrefix: "/mail/v1", ...extra }).problems;

describe("the vendor-description check", () => {
  it("passes tools that call their operations as described (a literal `me` for {userId}, allOf, oneOf, arrays, fixed values)", () => {
    expect(check(listMessages)).toEqual([]);
    expect(check(sendMessage)).toEqual([]);
    expect(check(tool({ name: "mail.delete", arguments_schema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] }, request: { method: "DELETE", path: "/users/me/messages/{id}" } }))).toEqual([]);
  });

  it("names an unknown path with the nearest ones, and a known path with the wrong method with the methods it has", () => {
    expect(check(tool({ request: { method: "GET", path: "/users/me/mesages" } }))).toEqual([
      "no operation of the description matches GET /mail/v1/users/me/mesages (pathPrefix /mail/v1 + /users/me/mesages); nearest paths: /mail/v1/users/{userId}/messages, /mail/v1/users/{userId}/messages/{id}",
    ]);
    expect(check(tool({ request: { method: "PUT", path: "/users/me/messages" } }))).toEqual([
      "the description has no PUT operation on /mail/v1/users/me/messages (pathPrefix /mail/v1 + /users/me/messages); it has GET /mail/v1/users/{userId}/messages, POST /mail/v1/users/{userId}/messages",
    ]);
  });

  it("names a query parameter the operation does not have, a type that disagrees, a value outside its enum and a required one not sent", () => {
    const bad = tool({
      arguments_schema: { type: "object", properties: { page: { type: "string" }, size: { type: "string" } }, additionalProperties: false },
      request: { method: "GET", path: "/users/me/messages", query: { page: "{page}", maxResults: "{size}", format: "everything" } },
    });
    expect(check(bad)).toEqual([
      "query parameter page is not a parameter of GET /mail/v1/users/{userId}/messages (it has: format, maxResults, q)",
      "query parameter maxResults (argument size): the argument is string, the description's is integer",
      'query parameter format: "everything" not among the description\'s values ("full", "minimal")',
    ]);
    const optionalFormat = tool({ arguments_schema: { type: "object", properties: { format: { type: "string", enum: ["full"] } } }, request: { method: "GET", path: "/users/me/messages", query: { format: "{format}" } } });
    expect(check(optionalFormat)).toEqual(['required query parameter format of GET /mail/v1/users/{userId}/messages is sent only when its optional argument is given ("{format}")']);
  });

  it("names body fields that are not the operation's, required ones not always sent, and disagreeing types inside arrays and objects", () => {
    const bad = tool({
      arguments_schema: { type: "object", properties: { to: { type: "string" }, subject: { type: "string" }, priority: { type: "number" } }, required: ["to"] },
      request: { method: "POST", path: "/users/me/messages", body: { to: "{to}", subject: "{subject}", priority: "{priority}", cc: "{to}", labels: [{ title: "x" }] } },
    });
    const owner = "the request body (application/json) of POST /mail/v1/users/{userId}/messages";
    expect(check(bad)).toEqual([
      "/to (argument to): the argument is string, the description's is array",
      "/priority (argument priority): the argument is number, the description's is integer",
      `/cc is not a property of ${owner} (it has: labels, priority, subject, to)`,
      `/labels/items/title is not a property of ${owner} (it has: name)`,
      `required /subject of ${owner} is sent only when its optional argument is given ("{subject}")`,
    ]);
  });

  it("sees what a request hook adds, from the tool's example arguments", () => {
    const hooked = tool({ request: { method: "GET", path: "/users/me/messages", query: { q: "{query}" } }, arguments_schema: { type: "object", properties: { query: { type: "string" } } } });
    const addFormat = { request: (built: any) => ({ ...built, query: { ...built.query, format: "full" } }) };
    expect(check(hooked, { example: { query: "is:unread" }, hooks: addFormat })).toEqual([]);
    const addNonsense = { request: (built: any) => ({ ...built, query: { ...built.query, format: "full", colour: "red" } }) };
    expect(check(hooked, { example: {}, hooks: addNonsense })).toEqual(["query parameter colour is not a parameter of GET /mail/v1/users/{userId}/messages (it has: format, maxResults, q)"]);
  });

  it("takes a string of digits only as an integer in a path or query, and bracketed names as a deepObject parameter's members", () => {
    const doc: OpenApiDocument = {
      openapi: "3.0.3",
      info: { title: "t", version: "1" },
      paths: {
        "/tickets/{id}": {
          get: {
            parameters: [
              { name: "id", in: "path", required: true, schema: { type: "integer" } },
              { name: "page", in: "query", style: "deepObject", schema: { type: "object", properties: { size: { type: "integer" } } } },
            ],
            responses: { "200": { description: "ok" } },
          },
        },
      },
    };
    const ticket = (pattern: string) =>
      tool({ arguments_schema: { type: "object", properties: { id: { type: "string", pattern } }, required: ["id"] }, request: { method: "GET", path: "/tickets/{id}", query: { "page[size]": "25" } } });
    expect(checkTool(doc, { tool: ticket("^[1-9][0-9]{0,15}$") }).problems).toEqual([]);
    expect(checkTool(doc, { tool: ticket("^[A-Z]+-[0-9]+$") }).problems).toEqual(["path placeholder {id} (argument id): the argument is string, the description's is integer"]);
  });

  it("checks form bodies as text fields", () => {
    const form = (body: Record<string, unknown>) => tool({ arguments_schema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] }, request: { method: "POST", path: "/labels.create", body, body_encoding: "form" } });
    expect(check(form({ name: "{name}", hidden: "true" }))).toEqual([]);
    expect(check(form({ hidden: "maybe" }))).toEqual([
      '/hidden: the fixed value "maybe" is string, the description\'s is boolean',
      "required /name of the request body (application/x-www-form-urlencoded) of POST /mail/v1/labels.create is not sent",
    ]);
  });

  it("names response pointers and declared response properties that the 2xx response schema does not have", () => {
    const bad = tool({
      ...listMessages,
      response: { schema: { type: "object", properties: { messages: { type: "array", items: { type: "object", properties: { snippet: { type: "string" } } } } } }, root: "/messages", fields: { id: "/id", to: "/to" } },
    });
    expect(check(bad)).toEqual([
      "response.schema names /messages/items/snippet, which is not in the description's response (it has: from, id, subject) (GET /mail/v1/users/{userId}/messages's 200 response)",
      "field to (/to): /to is not in the schema (it has: from, id, subject) of GET /mail/v1/users/{userId}/messages's 200 response at root /messages",
    ]);
    expect(check(tool({ ...listMessages, response: { root: "/items" } }))).toEqual(["root /items: /items is not in the schema (it has: messages, nextPageToken) of GET /mail/v1/users/{userId}/messages's 200 response"]);
  });

  it("extracts the used operations with exactly the components they reach", () => {
    const found = findOperation(description, "GET", "/users/me/messages", "/mail/v1");
    if (!("found" in found)) throw new Error(found.problem);
    const source = { package: "p", version: "1", file: "f", licence: "MIT", package_licence: "MIT", description_licence: null, terms_of_service: null, origin: [], extracted_at: "2026-11-29T00:00:00Z" };
    const vendored = extractOperations(description, [{ path: found.found.path, method: "get" }], source);
    expect(Object.keys(vendored.paths)).toEqual(["/mail/v1/users/{userId}/messages"]);
    expect(Object.keys(vendored.paths["/mail/v1/users/{userId}/messages"]!)).toEqual(["parameters", "get"]);
    expect(Object.keys(vendored.components!.schemas!).sort()).toEqual(["Entity", "Message", "MessageList"]);
    expect(vendored.info["x-toolbroker-source"]).toEqual(source);
    expect(componentDrift(vendored)).toEqual({ missing: [], unused: [] });
    expect(componentDrift({ ...vendored, components: { ...vendored.components, schemas: { ...vendored.components!.schemas, Unused: { type: "string" } } } })).toEqual({ missing: [], unused: ["#/components/schemas/Unused"] });
  });
});
