/**
 * A vendor's OpenAPI description (3.0 or 3.1) indexed for serving: each operation with the regular
 * expression its path template becomes, and JSON pointers resolved within the document. Loaded
 * once per process and provider: the suite starts the sandboxes many times.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { ToolDeclaration } from "../../providers/declaration-schema.js";

// Plain JSON as the description holds it.
export type JsonObject = { [key: string]: any };

/** Where the served description came from; `derived` means no description exists and the tools' own declarations stand in. */
export type DescriptionSource = "vendored" | "authored" | "derived";

export type DescribedOperation = {
  method: string;
  /** The description's path template, e.g. /gmail/v1/users/{userId}/messages. */
  template: string;
  operationId: string;
  operation: JsonObject;
  pathItem: JsonObject;
  pattern: RegExp;
  placeholders: string[];
  /** Literal characters in the template: the more, the more specific a match. */
  literalLength: number;
};

export type IndexedDescription = {
  source: DescriptionSource;
  document: JsonObject;
  operations: DescribedOperation[];
  resolve(value: unknown): JsonObject;
};

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;
const VENDORED = fileURLToPath(new URL("../../../vendor/openapi/", import.meta.url));
const AUTHORED = fileURLToPath(new URL("../../../vendor/sandbox/", import.meta.url));

/** Which file would serve the provider, without reading it. */
export function descriptionFileSource(providerId: string): "vendored" | "authored" | undefined {
  if (existsSync(`${VENDORED}${providerId}.json`)) return "vendored";
  if (existsSync(`${AUTHORED}${providerId}.json`)) return "authored";
  return undefined;
}

/** The vendored description (vendor/openapi), else one written from the vendor's reference (vendor/sandbox), else undefined. */
export function readDescriptionFile(providerId: string): { source: "vendored" | "authored"; document: JsonObject } | undefined {
  for (const [source, folder] of [["vendored", VENDORED], ["authored", AUTHORED]] as const) {
    const file = `${folder}${providerId}.json`;
    if (existsSync(file)) return { source, document: JSON.parse(readFileSync(file, "utf8")) as JsonObject };
  }
  return undefined;
}

/** A `{name}` template as a regular expression; a placeholder takes one path segment (or part of one, as Sheets' `{range}:append`). */
export function templatePattern(template: string): { pattern: RegExp; placeholders: string[]; literalLength: number } {
  const placeholders: string[] = [];
  let literalLength = 0;
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      if (/^\{[^}]+\}$/.test(part)) {
        placeholders.push(part.slice(1, -1).replace(/^\+/, ""));
        return "([^/]+)";
      }
      literalLength += part.length;
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return { pattern: new RegExp(`^${source}$`), placeholders, literalLength };
}

export function indexDescription(source: DescriptionSource, document: JsonObject): IndexedDescription {
  const resolve = (value: unknown): JsonObject => {
    let current = value as JsonObject;
    for (let hops = 0; current && typeof current.$ref === "string" && hops < 20; hops += 1) current = pointerIn(document, current.$ref);
    return current ?? {};
  };
  const operations: DescribedOperation[] = [];
  for (const [template, rawItem] of Object.entries((document.paths ?? {}) as JsonObject)) {
    const pathItem = resolve(rawItem);
    for (const method of METHODS) {
      const operation = pathItem[method] as JsonObject | undefined;
      if (!operation) continue;
      operations.push({
        method: method.toUpperCase(),
        template,
        operationId: String(operation.operationId ?? `${method.toUpperCase()} ${template}`),
        operation,
        pathItem,
        ...templatePattern(template),
      });
    }
  }
  operations.sort((a, b) => b.literalLength - a.literalLength);
  return { source, document, operations, resolve };
}

/** `#/components/schemas/X` within the document. */
export function pointerIn(document: JsonObject, ref: string): JsonObject {
  if (!ref.startsWith("#")) throw new Error(`only local $ref is supported: ${ref}`);
  let current: any = document;
  for (const token of ref.slice(1).split("/").filter(Boolean)) {
    current = current?.[decodeURIComponent(token).replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  return current as JsonObject;
}

/**
 * For a vendor with no description: one operation per tool, built from the tool's own request and
 * response declarations. It proves only that the broker sent what the declaration says.
 */
export function derivedDescription(tools: readonly ToolDeclaration[], pathPrefix = ""): JsonObject {
  const paths: JsonObject = {};
  for (const tool of tools) {
    const template = `${pathPrefix}${tool.request.path}`;
    const placeholders = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    const parameters = [
      ...placeholders.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
      ...Object.keys(tool.request.query ?? {}).map((name) => ({ name, in: "query", schema: {} })),
    ];
    const operation: JsonObject = {
      operationId: tool.name,
      // What the tool's mapping reads, so a generated answer has a value at each pointer.
      "x-toolbroker-response": { root: tool.response?.root ?? "", fields: Object.values(tool.response?.fields ?? {}) },
      parameters,
      responses: { "200": { description: "OK", content: { "application/json": { schema: tool.response?.schema ?? { type: "object" } } } } },
    };
    if (tool.request.body !== undefined) {
      const type = tool.request.body_encoding === "form" ? "application/x-www-form-urlencoded" : "application/json";
      operation.requestBody = { content: { [type]: { schema: {} } } };
    }
    const method = tool.request.method.toLowerCase();
    const shared = paths[template]?.[method] as JsonObject | undefined;
    paths[template] = { ...paths[template], [method]: shared ? mergeDerived(shared, operation) : operation };
  }
  return { openapi: "3.0.3", info: { title: "derived from the tool declarations", version: "0" }, paths };
}

/** Tools sharing a method and path (Drive's rename, move and trash are all PATCH /files/{fileId}) share one operation. */
function mergeDerived(first: JsonObject, second: JsonObject): JsonObject {
  const parameters = new Map<string, JsonObject>();
  for (const parameter of [...first.parameters, ...second.parameters]) parameters.set(`${parameter.in}:${parameter.name}`, parameter);
  const fields = [...first["x-toolbroker-response"].fields, ...second["x-toolbroker-response"].fields];
  return {
    ...first,
    operationId: `${first.operationId}|${second.operationId}`,
    parameters: [...parameters.values()],
    "x-toolbroker-response": { ...first["x-toolbroker-response"], fields },
    ...(first.requestBody || second.requestBody ? { requestBody: first.requestBody ?? second.requestBody } : {}),
  };
}
