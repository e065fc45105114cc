/** OpenAPI documents that test the import's limits (issue 36). */

const info = { title: "Generated", version: "1" };
const ok = { 200: { description: "ok" } };

/** Schemas L0…L(depth-1), each with properties a and b that both refer to the next level: 2^depth schemas once inlined. */
export function refDag(depth: number) {
  const schemas: Record<string, unknown> = { [`L${depth}`]: { type: "string" } };
  for (let level = 0; level < depth; level += 1) {
    const next = { $ref: `#/components/schemas/L${level + 1}` };
    schemas[`L${level}`] = { type: "object", properties: { a: next, b: next } };
  }
  const body = { content: { "application/json": { schema: { $ref: "#/components/schemas/L0" } } } };
  return { openapi: "3.0.3", info, paths: { "/nodes": { post: { operationId: "createNode", requestBody: body, responses: ok } } }, components: { schemas } };
}

/** `count` GET operations, each one tool. */
export function manyOperations(count: number, prefix = "item") {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < count; i += 1) {
    paths[`/${prefix}s/${i}/{id}`] = { get: { operationId: `get_${prefix}_${i}`, parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }], responses: ok } };
  }
  return { openapi: "3.1.0", info, paths };
}
