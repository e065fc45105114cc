/**
 * Issue 36: local `$ref`s are followed only where an operation needs them, and what they expand to
 * is counted, so a small document cannot make the import copy an exponential tree.
 */
import { describe, expect, it } from "vitest";
import { toolsFromOpenApi } from "./openapi-import.js";
import { IMPORT_LIMITS, OpenApiImportError } from "./openapi-schemas.js";

const info = { title: "t", version: "1" };
const ok = { 200: { description: "ok" } };

function refDag(depth: number) {
  const schemas: Record<string, unknown> = { [`L${depth}`]: { type: "string" } };
  for (let level = 0; level < depth; level += 1) {
    const next = { $ref: `#/components/schemas/L${level + 1}` };
    schemas[`L${level}`] = { type: "object", properties: { a: next, b: next } };
  }
  return { openapi: "3.0.3", info, paths: { "/n": { post: { operationId: "n", requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/L0" } } } }, responses: ok } } }, components: { schemas } };
}

async function refusal(document: unknown): Promise<OpenApiImportError> {
  const error = await toolsFromOpenApi(document as Record<string, unknown>, { providerId: "demo" }).then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(OpenApiImportError);
  return error as OpenApiImportError;
}

describe("local $refs", () => {
  it("refuse a DAG of $refs at the per-tool budget, long before it is expanded", async () => {
    const started = performance.now();
    const error = await refusal(refDag(40));
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error.limit).toEqual({ name: "schemaNodesPerTool", max: IMPORT_LIMITS.schemaNodesPerTool });
    expect(error.path).toBe("/paths/~1n/post");
  });

  it("inline a small DAG in full", async () => {
    const { tools } = await toolsFromOpenApi(refDag(2), { providerId: "demo" });
    const leaf = { type: "string" };
    const middle = { type: "object", properties: { a: leaf, b: leaf } };
    expect((tools[0]!.arguments_schema as { properties: unknown }).properties).toEqual({ body: { type: "object", properties: { a: middle, b: middle } } });
  });

  it("follow $refs to shared parameters, request bodies and path items, and skip one that never ends", async () => {
    const document = {
      openapi: "3.1.0",
      info,
      paths: {
        "/items/{id}": { $ref: "#/components/pathItems/Item" },
        "/loop": { post: { operationId: "loop", requestBody: { $ref: "#/components/requestBodies/A" }, responses: ok } },
      },
      components: {
        pathItems: { Item: { put: { operationId: "putItem", parameters: [{ $ref: "#/components/parameters/Id" }], requestBody: { $ref: "#/components/requestBodies/Item" }, responses: ok } } },
        parameters: { Id: { name: "id", in: "path", required: true, schema: { type: "string" } } },
        requestBodies: { Item: { content: { "application/json": { schema: { type: "object" } } } }, A: { $ref: "#/components/requestBodies/B" }, B: { $ref: "#/components/requestBodies/A" } },
      },
    };
    const { tools, skipped } = await toolsFromOpenApi(document, { providerId: "demo" });
    expect(tools.map((tool) => tool.name)).toEqual(["demo.put_item"]);
    expect(tools[0]!.arguments_schema).toMatchObject({ properties: { id: { type: "string" }, body: { type: "object" } }, required: ["id"] });
    expect(skipped).toEqual([{ operation: "loop", reason: expect.stringContaining("#/components/requestBodies/") }]);
  });

  it("refuse a schema nested past the depth limit", async () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < IMPORT_LIMITS.schemaDepth + 5; i += 1) schema = { type: "array", items: schema };
    const document = { openapi: "3.0.3", info, paths: { "/d": { post: { operationId: "d", requestBody: { content: { "application/json": { schema } } }, responses: ok } } } };
    expect((await refusal(document)).limit).toEqual({ name: "schemaDepth", max: IMPORT_LIMITS.schemaDepth });
  });

  it("refuse a document with more operations than one import may create", async () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i <= IMPORT_LIMITS.toolsPerImport; i += 1) paths[`/p${i}`] = { get: { operationId: `p${i}`, responses: ok } };
    expect((await refusal({ openapi: "3.0.3", info, paths })).limit).toEqual({ name: "toolsPerImport", max: IMPORT_LIMITS.toolsPerImport });
  });
});

describe("text a $ref names", () => {
  it("counts each time it is inlined, up to the import's byte budget", async () => {
    // One 60 kB description, named by a $ref from 300 operations: 18 MB of schemas from a 70 kB document.
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 300; i += 1) paths[`/p${i}`] = { get: { operationId: `p${i}`, parameters: [{ name: "q", in: "query", schema: { $ref: "#/components/schemas/Q" } }], responses: ok } };
    const document = { openapi: "3.0.3", info, paths, components: { schemas: { Q: { type: "string", description: "d".repeat(60_000) } } } };
    expect((await refusal(document)).limit).toEqual({ name: "schemaBytesPerImport", max: IMPORT_LIMITS.schemaBytesPerImport });
  });
});
