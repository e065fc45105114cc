/**
 * OpenAPI import: every imported tool is a valid declaration whose argument schema Ajv compiles,
 * operations that cannot be called faithfully are skipped with a reason, and nothing outside the
 * document is fetched.
 */
import net from "node:net";
import { TypeRegistry, type TSchema } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ToolDeclaration } from "../providers/declaration-schema.js";
import { OpenApiImportError, toolsFromOpenApi, type OpenApiImportResult } from "./openapi-import.js";

const TASKS_YAML = `
openapi: 3.0.3
info: { title: Tasks, version: "1.0" }
paths:
  /tasks:
    get:
      operationId: listTasks
      summary: List tasks
      description: Newest first.
      parameters:
        - { name: limit, in: query, description: Page size, schema: { type: integer, minimum: 1, maximum: 100 } }
        - { name: status, in: query, schema: { type: string, enum: [open, done] } }
        - { name: X-Request-Id, in: header, schema: { type: string } }
        - { name: Authorization, in: header, required: true, schema: { type: string } }
        - { name: theme, in: cookie, schema: { type: string } }
      responses: { "200": { description: ok } }
    post:
      operationId: createTask
      summary: Create a task
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: "#/components/schemas/NewTask" }
      responses: { "201": { description: created } }
  /tasks/{id}:
    parameters:
      - { name: id, in: path, required: true, description: Task id, schema: { type: string } }
    get:
      operationId: getTask
      summary: Get a task
      responses: { "200": { description: ok } }
    head:
      operationId: taskExists
      responses: { "200": { description: ok } }
    patch:
      operationId: updateTask
      requestBody:
        content:
          application/merge-patch+json:
            schema: { $ref: "#/components/schemas/NewTask" }
      responses: { "200": { description: ok } }
    delete:
      operationId: deleteTask
      description: Deletes the task for good.
      responses: { "204": { description: gone } }
  /tasks/{id}/archive:
    post:
      operationId: archiveTask
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
        - { name: session, in: cookie, required: true, schema: { type: string } }
      responses: { "200": { description: ok } }
components:
  schemas:
    NewTask:
      type: object
      required: [id, title]
      properties:
        id: { type: string, readOnly: true }
        title: { type: string, maxLength: 200, xml: { name: t } }
        due: { type: string, format: date }
`;

// The declaration's StringEnum is Type.Unsafe (kind "Unsafe"), which Value.Check refuses as an
// unknown type; teach it the one shape StringEnum produces so Value.Check can judge declarations.
if (!TypeRegistry.Has("Unsafe")) {
  TypeRegistry.Set<TSchema & { type?: unknown; enum?: unknown[] }>("Unsafe", (schema, value) => schema.type === "string" && Array.isArray(schema.enum) && schema.enum.includes(value));
}

const info = { title: "t", version: "1" };
const ok = { "200": { description: "ok" } };

function ajv(): Ajv {
  const instance = new Ajv({ strict: false, allErrors: true });
  (addFormats as unknown as (a: Ajv) => void)(instance);
  return instance;
}

function expectUsable(result: OpenApiImportResult): void {
  const compiler = ajv();
  const declaration = ajv().compile(ToolDeclaration);
  for (const tool of result.tools) {
    expect(Value.Check(ToolDeclaration, tool), `${tool.name}: ${JSON.stringify([...Value.Errors(ToolDeclaration, tool)][0])}`).toBe(true);
    expect(declaration(tool), `${tool.name}: ${JSON.stringify(declaration.errors)}`).toBe(true);
    expect(() => compiler.compile(tool.arguments_schema), tool.name).not.toThrow();
    expect(JSON.parse(JSON.stringify(tool))).toEqual(tool);
  }
}

type ArgumentsSchema = { properties?: Record<string, unknown>; required?: string[] };
const argumentsOf = (tool: ToolDeclaration | undefined) => tool!.arguments_schema as ArgumentsSchema;

const byName = (result: OpenApiImportResult, name: string) => {
  const tool = result.tools.find((candidate) => candidate.name === name);
  if (!tool) throw new Error(`no tool ${name} among ${result.tools.map((t) => t.name).join(", ")}`);
  return tool;
};

afterEach(() => vi.restoreAllMocks());

describe("importing a YAML tasks API", () => {
  it("turns a GET with query and header parameters into a low-risk read tool without the credential header or cookies", async () => {
    const result = await toolsFromOpenApi(TASKS_YAML, { providerId: "tasks" });
    expectUsable(result);
    expect(byName(result, "tasks.list_tasks")).toEqual({
      name: "tasks.list_tasks",
      description: "List tasks\n\nNewest first.",
      arguments_schema: {
        type: "object",
        properties: {
          limit: { type: "integer", minimum: 1, maximum: 100, description: "Page size" },
          status: { type: "string", enum: ["open", "done"] },
          "X-Request-Id": { type: "string" },
        },
        required: [],
        additionalProperties: false,
      },
      risk: "low",
      side_effect: "read",
      request: { method: "GET", path: "/tasks", query: { limit: "{limit}", status: "{status}" }, headers: { "X-Request-Id": "{X-Request-Id}" } },
    });
  });

  it("applies path-level parameters to each operation and always requires path parameters", async () => {
    const tool = byName(await toolsFromOpenApi(TASKS_YAML, { providerId: "tasks" }), "tasks.get_task");
    expect(tool.request).toEqual({ method: "GET", path: "/tasks/{id}" });
    expect(tool.arguments_schema).toEqual({ type: "object", properties: { id: { type: "string", description: "Task id" } }, required: ["id"], additionalProperties: false });
  });

  it("sends a $ref'd JSON body as the body argument, without readOnly properties or xml hints", async () => {
    const result = await toolsFromOpenApi(TASKS_YAML, { providerId: "tasks" });
    const create = byName(result, "tasks.create_task");
    expect(create).toMatchObject({ risk: "high", side_effect: "write", request: { method: "POST", path: "/tasks", body: "{body}" } });
    expect(create.destructive).toBeUndefined();
    expect(create.arguments_schema).toEqual({
      type: "object",
      properties: { body: { type: "object", required: ["title"], properties: { title: { type: "string", maxLength: 200 }, due: { type: "string", format: "date" } } } },
      required: ["body"],
      additionalProperties: false,
    });
    const update = byName(result, "tasks.update_task");
    expect(update.request).toEqual({ method: "PATCH", path: "/tasks/{id}", body: "{body}" });
    expect(argumentsOf(update).required).toEqual(["id"]);
  });

  it("marks DELETE destructive and falls back to the description alone", async () => {
    const tool = byName(await toolsFromOpenApi(TASKS_YAML, { providerId: "tasks" }), "tasks.delete_task");
    expect(tool).toMatchObject({ description: "Deletes the task for good.", risk: "high", side_effect: "write", destructive: true, request: { method: "DELETE", path: "/tasks/{id}" } });
  });

  it("skips HEAD operations and operations needing a cookie, saying why", async () => {
    const result = await toolsFromOpenApi(TASKS_YAML, { providerId: "tasks" });
    expect(result.skipped).toEqual([
      { operation: "taskExists", reason: "HEAD is not supported" },
      { operation: "archiveTask", reason: 'required cookie parameter "session" is not supported' },
    ]);
    expect(result.tools.map((tool) => tool.name)).toEqual(["tasks.list_tasks", "tasks.create_task", "tasks.get_task", "tasks.delete_task", "tasks.update_task"]);
  });
});

describe("input forms", () => {
  const jsonDocument = {
    openapi: "3.0.0",
    info,
    paths: { "/ping": { get: { operationId: "ping", responses: ok } } },
  };

  it("accept JSON text and parsed objects alike, leaving the caller's object untouched", async () => {
    const withRef = { ...jsonDocument, paths: { "/p": { post: { operationId: "p", requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/P" } } } }, responses: ok } } }, components: { schemas: { P: { type: "object" } } } };
    const snapshot = structuredClone(withRef);
    const fromText = await toolsFromOpenApi(JSON.stringify(withRef), { providerId: "demo" });
    const fromObject = await toolsFromOpenApi(withRef, { providerId: "demo" });
    expect(fromObject).toEqual(fromText);
    expect(withRef).toEqual(snapshot);
    expect(argumentsOf(fromText.tools[0]).properties).toEqual({ body: { type: "object" } });
  });

  it("refuse Swagger 2.0 by name", async () => {
    await expect(toolsFromOpenApi('swagger: "2.0"\ninfo: { title: t, version: "1" }\npaths: {}\n', { providerId: "demo" })).rejects.toThrow(/Swagger 2\.0 is not supported/);
  });

  it("refuse text that is not an OpenAPI 3.0/3.1 document", async () => {
    for (const garbage of ["{not json: [", "just words", "- a\n- list", "", '{"openapi": "4.0.0", "info": {}}', '{"info": {}}', "key: [unclosed"]) {
      await expect(toolsFromOpenApi(garbage, { providerId: "demo" }), garbage).rejects.toBeInstanceOf(OpenApiImportError);
    }
  });

  it("refuse YAML whose aliases make a cycle, which JSON cannot carry", async () => {
    await expect(toolsFromOpenApi('openapi: 3.0.3\ninfo: { title: t, version: "1" }\npaths: {}\nx: &loop\n  again: *loop\n', { providerId: "demo" })).rejects.toThrow(/not plain JSON/);
  });

  it("refuse a document whose internal references point nowhere", async () => {
    const broken = { ...jsonDocument, paths: { "/x": { get: { parameters: [{ $ref: "#/components/parameters/Missing" }], responses: ok } } } };
    await expect(toolsFromOpenApi(broken, { providerId: "demo" })).rejects.toThrow(OpenApiImportError);
  });

  it("refuse a provider id that tool names could not carry", async () => {
    await expect(toolsFromOpenApi(jsonDocument, { providerId: "Bad Id" })).rejects.toThrow(/provider id/);
  });
});

describe("schema conversion", () => {
  it("turns OpenAPI 3.0 nullable into JSON Schema null types that Ajv accepts", async () => {
    const document = {
      openapi: "3.0.3",
      info,
      paths: {
        "/n": {
          get: {
            operationId: "n",
            parameters: [
              { name: "label", in: "query", schema: { type: "string", nullable: true, enum: ["a", "b"] } },
              { name: "size", in: "query", schema: { type: "number", minimum: 0, exclusiveMinimum: true } },
              { name: "owner", in: "query", schema: { nullable: true, allOf: [{ type: "object", discriminator: { propertyName: "kind" } }] } },
            ],
            responses: ok,
          },
        },
      },
    };
    const result = await toolsFromOpenApi(document, { providerId: "demo" });
    expectUsable(result);
    const schema = result.tools[0]!.arguments_schema;
    expect(argumentsOf(result.tools[0]).properties).toEqual({
      label: { type: ["string", "null"], enum: ["a", "b", null] },
      size: { type: "number", exclusiveMinimum: 0 },
      owner: { anyOf: [{ allOf: [{ type: "object" }] }, { type: "null" }] },
    });
    const validate = ajv().compile(schema);
    expect(validate({ label: null, owner: null })).toBe(true);
    expect(validate({ size: 0 })).toBe(false);
  });

  it("keeps OpenAPI 3.1 schemas, which are already JSON Schema", async () => {
    const document = {
      openapi: "3.1.0",
      info,
      webhooks: { ping: { post: { operationId: "webhookPing", responses: ok } } },
      paths: {
        "/items": {
          post: {
            operationId: "createItem",
            requestBody: { content: { "application/json; charset=utf-8": { schema: { $ref: "#/components/schemas/Item", description: "The item" } } } },
            responses: ok,
          },
        },
      },
      components: { schemas: { Item: { $id: "https://example.com/item", type: "object", properties: { tag: { type: ["string", "null"], examples: ["x"] } } } } },
    };
    const result = await toolsFromOpenApi(document, { providerId: "demo" });
    expectUsable(result);
    expect(result.tools.map((tool) => tool.name)).toEqual(["demo.create_item"]);
    expect(argumentsOf(result.tools[0]).properties).toEqual({ body: { type: "object", description: "The item", properties: { tag: { type: ["string", "null"], examples: ["x"] } } } });
  });

  it("uses form-encoded object bodies and skips bodies it cannot send", async () => {
    const body = (content: Record<string, unknown>) => ({ requestBody: { content }, responses: ok });
    const document = {
      openapi: "3.0.3",
      info,
      paths: {
        "/form": { post: { operationId: "form", ...body({ "application/x-www-form-urlencoded": { schema: { type: "object", properties: { a: { type: "string" } } } } }) } },
        "/upload": { put: { operationId: "upload", ...body({ "application/octet-stream": { schema: { type: "string", format: "binary" } } }) } },
      },
    };
    const result = await toolsFromOpenApi(document, { providerId: "demo" });
    expect(result.tools[0]!.request).toEqual({ method: "POST", path: "/form", body: "{body}", body_encoding: "form" });
    expect(result.skipped).toEqual([{ operation: "upload", reason: "request body application/octet-stream is not supported (only JSON and form-encoded objects are)" }]);
  });

  it("skips operations whose schemas are recursive, leaving plain JSON", async () => {
    const document = {
      openapi: "3.0.3",
      info,
      paths: {
        "/tree": { post: { operationId: "plantTree", requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Node" } } } }, responses: ok } },
        "/leaf": { get: { operationId: "getLeaf", responses: ok } },
      },
      components: { schemas: { Node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/components/schemas/Node" } } } } } },
    };
    const result = await toolsFromOpenApi(document, { providerId: "demo" });
    expect(result.tools.map((tool) => tool.name)).toEqual(["demo.get_leaf"]);
    expect(result.skipped).toEqual([{ operation: "plantTree", reason: expect.stringContaining('"#/components/schemas/Node"') }]);
    expect(() => JSON.stringify(result)).not.toThrow();
  });
});

describe("names and arguments", () => {
  it("sanitise operation ids to snake case, derive names from method and path, and stay unique", async () => {
    const get = (operationId?: string) => ({ get: { ...(operationId ? { operationId } : {}), responses: ok } });
    const document = {
      openapi: "3.0.3",
      info,
      paths: {
        "/a": get("getHTTPResponse"),
        "/b": get("get-http-response"),
        "/c": get("Get HTTP Response!!"),
        "/d": get("2fa.Check"),
        "/e": get(`very${"Long".repeat(30)}`),
        "/f": get(`very${"Long".repeat(30)}`),
        "/tasks/{id}/comments": { parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], ...get() },
        "/$$$": get("___"),
      },
    };
    const result = await toolsFromOpenApi(document, { providerId: "demo" });
    expectUsable(result);
    const long = `very${"_long".repeat(30)}`.slice(0, 64);
    expect(result.tools.map((tool) => tool.name)).toEqual([
      "demo.get_http_response",
      "demo.get_http_response_2",
      "demo.get_http_response_3",
      "demo.op_2fa_check",
      `demo.${long}`,
      `demo.${long.slice(0, 62)}_2`,
      "demo.get_tasks_by_id_comments",
      "demo.op",
    ]);
  });

  it("give clashing parameter names their location as a prefix and keep `body` for the request body", async () => {
    const document = {
      openapi: "3.0.3",
      info,
      paths: {
        "/things/{id}": {
          post: {
            operationId: "touch",
            parameters: [
              { name: "id", in: "path", required: true, schema: { type: "string" } },
              { name: "id", in: "query", schema: { type: "string" } },
              { name: "body", in: "query", required: true, schema: { type: "string" } },
              { name: "page[size]", in: "query", schema: { type: "integer" } },
            ],
            requestBody: { content: { "application/json": { schema: { type: "object" } } } },
            responses: ok,
          },
        },
      },
    };
    const result = await toolsFromOpenApi(document, { providerId: "demo" });
    expectUsable(result);
    const tool = result.tools[0]!;
    expect(Object.keys(argumentsOf(tool).properties!)).toEqual(["id", "query_id", "query_body", "page_size", "body"]);
    expect(argumentsOf(tool).required).toEqual(["id", "query_body"]);
    expect(tool.request.query).toEqual({ id: "{query_id}", body: "{query_body}", "page[size]": "{page_size}" });
  });

  it("let operation-level parameters override path-level ones of the same name and location", async () => {
    const document = {
      openapi: "3.0.3",
      info,
      paths: {
        "/x": {
          parameters: [{ name: "q", in: "query", schema: { type: "string" } }],
          get: { operationId: "x", parameters: [{ name: "q", in: "query", required: true, schema: { type: "integer" } }], responses: ok },
        },
      },
    };
    const tool = (await toolsFromOpenApi(document, { providerId: "demo" })).tools[0]!;
    expect(tool.arguments_schema).toMatchObject({ properties: { q: { type: "integer" } }, required: ["q"] });
  });
});

describe("choosing operations", () => {
  it("imports only the requested operation ids", async () => {
    const result = await toolsFromOpenApi(TASKS_YAML, { providerId: "tasks", operationIds: ["getTask", "taskExists"] });
    expect(result.tools.map((tool) => tool.name)).toEqual(["tasks.get_task"]);
    expect(result.skipped).toEqual([{ operation: "taskExists", reason: "HEAD is not supported" }]);
  });

  it("names requested operation ids the document does not have", async () => {
    await expect(toolsFromOpenApi(TASKS_YAML, { providerId: "tasks", operationIds: ["getTask", "nope", "alsoNope"] })).rejects.toThrow(/nope, alsoNope/);
  });
});

describe("scale and isolation", () => {
  it("imports 50 operations quickly, each a valid declaration with a compiling schema", async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 25; i++) {
      paths[`/r${i}/{id}`] = {
        parameters: [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }],
        get: { operationId: `getR${i}`, parameters: [{ name: "expand", in: "query", schema: { type: "array", items: { type: "string" } } }], responses: ok },
        put: { operationId: `putR${i}`, requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Resource" } } } }, responses: ok },
      };
    }
    const document = {
      openapi: "3.0.3",
      info,
      paths,
      components: { schemas: { Resource: { type: "object", properties: { id: { type: "string", readOnly: true }, name: { type: "string", nullable: true }, at: { type: "string", format: "date-time" } } } } },
    };
    const started = performance.now();
    const result = await toolsFromOpenApi(document, { providerId: "bulk" });
    // Timed for the record, not asserted (timings belong to the benchmark): about 0.1–0.6 s here.
    console.log(`[openapi-import] 50 operations in ${(performance.now() - started).toFixed(0)} ms`);
    expect(result.tools).toHaveLength(50);
    expect(result.skipped).toEqual([]);
    expect(new Set(result.tools.map((tool) => tool.name)).size).toBe(50);
    expectUsable(result);
  });

  it("never fetches an external $ref, skipping the operations that need one", async () => {
    const connect = vi.spyOn(net.Socket.prototype, "connect").mockImplementation(() => {
      throw new Error("network access attempted");
    });
    const fetchSpy = vi.spyOn(globalThis, "fetch").mockRejectedValue(new Error("network access attempted"));
    const document = {
      openapi: "3.0.3",
      info,
      paths: {
        "/remote": { get: { operationId: "remote", parameters: [{ name: "f", in: "query", schema: { $ref: "https://example.com/x.json#/Foo" } }], responses: ok } },
        "/file": { post: { operationId: "file", requestBody: { content: { "application/json": { schema: { $ref: "./other.yaml#/Foo" } } } }, responses: ok } },
        "/local": { get: { operationId: "local", responses: ok } },
      },
    };
    const result = await toolsFromOpenApi(document, { providerId: "demo" });
    expect(result.tools.map((tool) => tool.name)).toEqual(["demo.local"]);
    expect(result.skipped).toEqual([
      { operation: "remote", reason: 'unresolved $ref "https://example.com/x.json#/Foo" (external and circular references are not followed)' },
      { operation: "file", reason: 'unresolved $ref "./other.yaml#/Foo" (external and circular references are not followed)' },
    ]);
    expect(connect).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
