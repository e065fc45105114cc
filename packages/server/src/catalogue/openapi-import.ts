/**
 * Turns an OpenAPI 3.0/3.1 document into tool declarations a tenant can review and register.
 * An operation that cannot become a faithful tool call is skipped with a reason rather than
 * approximated, and nothing outside the document is ever fetched: external `$ref`s stay
 * unresolved and the operations that need them are skipped.
 */
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { parse as parseYaml } from "yaml";
import { PROVIDER_ID_PATTERN, ToolDeclaration } from "./declaration-schema.js";

export type OpenApiImportResult = { tools: ToolDeclaration[]; skipped: { operation: string; reason: string }[] };

/** The document (or the import request) is unusable as a whole; `path` points into the document where known. */
export class OpenApiImportError extends Error {
  constructor(message: string, readonly path?: string) {
    super(message);
    this.name = "OpenApiImportError";
  }
}

type Json = Record<string, unknown>;
type Method = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
type Compile = (schema: Json) => string | undefined;
type Body = { schema: unknown; required: boolean; encoding: "json" | "form" };

const METHODS: readonly Method[] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** The declaration's method enum; HEAD, OPTIONS and TRACE have no tool meaning there. */
const SUPPORTED = new Set<Method>(["get", "post", "put", "patch", "delete"]);
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;
const OPERATION_MAX = 64;
const DESCRIPTION_MAX = 4000;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

export async function toolsFromOpenApi(document: string | Record<string, unknown>, options: { providerId: string; operationIds?: string[] }): Promise<OpenApiImportResult> {
  if (!new RegExp(PROVIDER_ID_PATTERN).test(options.providerId)) throw new OpenApiImportError(`provider id "${options.providerId}" does not match ${PROVIDER_ID_PATTERN}`);
  const api = await dereferenced(checkedVersion(parsed(document)));
  const wanted = options.operationIds ? new Set(options.operationIds) : undefined;
  const found = new Set<string>();
  const names = new Set<string>();
  const compile = argumentCompiler();
  const result: OpenApiImportResult = { tools: [], skipped: [] };
  for (const [path, item] of Object.entries(isObject(api.paths) ? api.paths : {})) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const operationId = typeof operation.operationId === "string" ? operation.operationId : undefined;
      if (wanted && !(operationId !== undefined && wanted.has(operationId))) continue;
      if (operationId !== undefined) found.add(operationId);
      const outcome = toolFor(options.providerId, method, path, item, operation, names, compile);
      if (typeof outcome === "string") result.skipped.push({ operation: operationId ?? `${method.toUpperCase()} ${path}`, reason: outcome });
      else result.tools.push(outcome);
    }
  }
  const missing = (options.operationIds ?? []).filter((id) => !found.has(id));
  if (missing.length > 0) throw new OpenApiImportError(`operationId not found in the document: ${missing.join(", ")}`, "/paths");
  return result;
}

function newAjv(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

function parsed(document: string | Record<string, unknown>): Json {
  const value = typeof document === "string" ? parsedText(document) : document;
  if (!isObject(value)) throw new OpenApiImportError("the document is not a JSON or YAML object");
  // The JSON round trip is the deep copy the (mutating) dereferencer needs, and it refuses what
  // JSON cannot carry, such as the cycles a YAML alias inside its own anchor creates.
  try {
    return JSON.parse(JSON.stringify(value)) as Json;
  } catch (error) {
    throw new OpenApiImportError(`the document is not plain JSON data: ${(error as Error).message}`);
  }
}

function parsedText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON; YAML is tried next.
  }
  try {
    return parseYaml(text);
  } catch (error) {
    throw new OpenApiImportError(`the document is neither JSON nor YAML: ${(error as Error).message}`);
  }
}

function checkedVersion(api: Json): Json {
  if (api.swagger !== undefined) throw new OpenApiImportError(`Swagger ${String(api.swagger)} is not supported; convert the document to OpenAPI 3.0 or 3.1`, "/swagger");
  if (typeof api.openapi !== "string") throw new OpenApiImportError("the document has no openapi version field; only OpenAPI 3.0 and 3.1 are supported", "/openapi");
  if (!/^3\.[01]\.\d+/.test(api.openapi)) throw new OpenApiImportError(`OpenAPI ${api.openapi} is not supported; only 3.0.x and 3.1.x are`, "/openapi");
  return api;
}

async function dereferenced(api: Json): Promise<Json> {
  // Loaded on the first import: the parser and its schemas cost every process about 3 MB of heap.
  const { dereference } = await import("@readme/openapi-parser");
  try {
    // external:false leaves remote and relative-file refs as they are (no fetch, no disk), and
    // circular:"ignore" leaves recursive refs in place instead of building object cycles; both
    // surface below as `$ref`s that skip the operations using them.
    const options = { resolve: { external: false, file: false }, dereference: { circular: "ignore" as const }, timeoutMs: 5000 };
    return (await dereference(api as Parameters<typeof dereference>[0], options)) as unknown as Json;
  } catch (error) {
    throw new OpenApiImportError(`the document's references cannot be resolved: ${(error as Error).message}`);
  }
}

function toolFor(providerId: string, method: Method, path: string, item: Json, operation: Json, names: Set<string>, compile: Compile): ToolDeclaration | string {
  if (!SUPPORTED.has(method)) return `${method.toUpperCase()} is not supported`;
  const body = requestBody(operation.requestBody);
  if (typeof body === "string") return body;
  const args = argumentsOf(mergedParameters(item.parameters, operation.parameters), body);
  if (typeof args === "string") return args;
  const toolPath = renamedPath(path, args.pathArguments);
  if (toolPath.missing.length > 0) return `path placeholder {${toolPath.missing.join("}, {")}} has no path parameter`;
  const ref = firstRef(args.schema);
  if (ref !== undefined) return `unresolved $ref "${ref}" (external and circular references are not followed)`;
  const write = method !== "get";
  const tool: ToolDeclaration = {
    name: `${providerId}.${unique(names, operationName(operation.operationId, method, path))}`,
    description: descriptionOf(operation, method, path),
    arguments_schema: args.schema,
    risk: write ? "high" : "low",
    side_effect: write ? "write" : "read",
    ...(method === "delete" ? { destructive: true } : {}),
    request: {
      method: method.toUpperCase() as ToolDeclaration["request"]["method"],
      path: toolPath.path,
      ...(Object.keys(args.query).length > 0 ? { query: args.query } : {}),
      ...(Object.keys(args.headers).length > 0 ? { headers: args.headers } : {}),
      ...(body ? { body: "{body}", ...(body.encoding === "form" ? { body_encoding: "form" as const } : {}) } : {}),
    },
  };
  const problem = declarationProblem(tool, compile);
  if (problem !== undefined) return problem;
  names.add(tool.name.slice(providerId.length + 1));
  return tool;
}

type Arguments = { schema: Json; query: Record<string, string>; headers: Record<string, string>; pathArguments: Map<string, string> };

function argumentsOf(parameters: Json[], body: Body | undefined): Arguments | string {
  const taken = new Set<string>(body ? ["body"] : []);
  const properties: Json = {};
  const required: string[] = [];
  const args: Arguments = { schema: { type: "object", properties, required, additionalProperties: false }, query: {}, headers: {}, pathArguments: new Map() };
  for (const parameter of parameters) {
    const name = String(parameter.name);
    const location = parameter.in;
    if (location === "cookie" && parameter.required === true) return `required cookie parameter "${name}" is not supported`;
    if (location !== "path" && location !== "query" && location !== "header") continue;
    // The broker sets the credential itself; an agent must not be able to supply one.
    if (location === "header" && name.toLowerCase() === "authorization") continue;
    if (!("schema" in parameter) && "content" in parameter) return `parameter "${name}" is described by content rather than a schema`;
    const argument = claim(taken, name, location);
    properties[argument] = withDescription(toJsonSchema(parameter.schema ?? {}, false), parameter.description);
    if (location === "path" || parameter.required === true) required.push(argument);
    if (location === "path") args.pathArguments.set(name, argument);
    else (location === "query" ? args.query : args.headers)[name] = `{${argument}}`;
  }
  if (body) {
    properties.body = toJsonSchema(body.schema, true);
    if (body.required) required.push("body");
  }
  return args;
}

function renamedPath(path: string, pathArguments: Map<string, string>): { path: string; missing: string[] } {
  const missing: string[] = [];
  const renamed = path.replace(/\{([^}]*)\}/g, (_, name: string) => {
    const argument = pathArguments.get(name);
    if (argument === undefined) missing.push(name);
    return `{${argument ?? name}}`;
  });
  return { path: renamed, missing };
}

// Ajv rather than TypeBox's Value: the declaration's string enums are Type.Unsafe, which Value cannot check.
// Compiled once; argument schemas go to a per-import instance so they do not pile up in Ajv's cache.
let declarationValidator: ValidateFunction | undefined;

function declarationProblem(tool: ToolDeclaration, compile: Compile): string | undefined {
  declarationValidator ??= newAjv().compile(ToolDeclaration);
  if (!declarationValidator(tool)) {
    const error = declarationValidator.errors?.[0];
    return `the tool would not be a valid declaration: ${error?.instancePath || "/"} ${error?.message ?? ""}`.trim();
  }
  return compile(tool.arguments_schema);
}

/** Compiling is the costly step, and generated APIs repeat the same argument schema many times. */
function argumentCompiler(): Compile {
  const ajv = newAjv();
  const outcomes = new Map<string, string | undefined>();
  const attempt = (schema: Json) => {
    try {
      ajv.compile(schema);
      return undefined;
    } catch (error) {
      return `the argument schema does not compile: ${(error as Error).message}`;
    }
  };
  return (schema) => {
    const key = JSON.stringify(schema);
    if (!outcomes.has(key)) outcomes.set(key, attempt(schema));
    return outcomes.get(key);
  };
}

/** Path-level parameters apply to every operation unless the operation redeclares the same name and location. */
function mergedParameters(pathLevel: unknown, operationLevel: unknown): Json[] {
  const merged = new Map<string, Json>();
  for (const list of [pathLevel, operationLevel]) {
    for (const parameter of Array.isArray(list) ? list : []) {
      if (isObject(parameter) && typeof parameter.name === "string") merged.set(`${String(parameter.in)}\u0000${parameter.name}`, parameter);
    }
  }
  return [...merged.values()];
}

function requestBody(requestBody: unknown): Body | string | undefined {
  if (!isObject(requestBody) || !isObject(requestBody.content)) return undefined;
  const media = Object.entries(requestBody.content);
  if (media.length === 0) return undefined;
  const required = requestBody.required === true;
  const mediaType = (type: string) => type.split(";")[0]!.trim().toLowerCase();
  const json = media.find(([type]) => /^application\/(?:[\w.-]+\+)?json$/.test(mediaType(type)));
  if (json) return { schema: isObject(json[1]) ? (json[1].schema ?? {}) : {}, required, encoding: "json" };
  const form = media.find(([type]) => mediaType(type) === "application/x-www-form-urlencoded");
  const formSchema = form && isObject(form[1]) ? form[1].schema : undefined;
  if (isObject(formSchema) && (formSchema.type === "object" || isObject(formSchema.properties))) return { schema: formSchema, required, encoding: "form" };
  return `request body ${media.map(([type]) => type).join(", ")} is not supported (only JSON and form-encoded objects are)`;
}

/** Argument names must be placeholder-safe; a clash across locations gets the location as a prefix. */
function claim(taken: Set<string>, name: string, location: string): string {
  const prefixed = argumentName(`${location}_${name}`);
  let candidate = taken.has(argumentName(name)) ? prefixed : argumentName(name);
  for (let n = 2; taken.has(candidate); n++) candidate = `${prefixed.slice(0, 95)}_${n}`;
  taken.add(candidate);
  return candidate;
}

function argumentName(name: string): string {
  if (ARGUMENT_NAME.test(name)) return name;
  const cleaned = name.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^_+|_+$/g, "");
  return (/^[A-Za-z_]/.test(cleaned) ? cleaned : `_${cleaned}`).slice(0, 100);
}

function operationName(operationId: unknown, method: Method, path: string): string {
  const source = typeof operationId === "string" && operationId.trim() !== "" ? operationId : `${method}_${path.replace(/\{([^}]*)\}/g, "by_$1")}`;
  const words = source.replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2").replace(/([a-z0-9])([A-Z])/g, "$1_$2");
  const snake = words.toLowerCase().replace(/[^a-z0-9_]+/g, "_").replace(/_+/g, "_").replace(/^_|_$/g, "");
  const named = /^[a-z]/.test(snake) ? snake : `op_${snake}`;
  return named.slice(0, OPERATION_MAX).replace(/_+$/, "");
}

function unique(names: Set<string>, base: string): string {
  let candidate = base;
  for (let n = 2; names.has(candidate); n++) candidate = `${base.slice(0, OPERATION_MAX - `_${n}`.length).replace(/_+$/, "")}_${n}`;
  return candidate;
}

function descriptionOf(operation: Json, method: Method, path: string): string {
  const summary = text(operation.summary);
  const description = text(operation.description);
  const joined = summary && description && summary !== description ? `${summary}\n\n${description}` : summary || description || `${method.toUpperCase()} ${path}`;
  return joined.slice(0, DESCRIPTION_MAX).trim();
}

function withDescription(schema: unknown, description: unknown): unknown {
  if (!isObject(schema) || schema.description !== undefined || !text(description)) return schema;
  return { ...schema, description: text(description) };
}

// Keywords that are OpenAPI-only or would clash once many tools share one Ajv instance.
const DROPPED = new Set(["xml", "discriminator", "nullable", "externalDocs", "$id", "$schema"]);
const SUBSCHEMA = new Set(["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "additionalItems", "unevaluatedItems", "unevaluatedProperties"]);
const SUBSCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
const SUBSCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const COMPOSITION = ["allOf", "anyOf", "oneOf", "not"];

/** A fresh draft-07-compatible copy: the dereferenced document shares nodes between operations, so nothing is edited in place. */
function toJsonSchema(schema: unknown, inBody: boolean): unknown {
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (SUBSCHEMA_MAPS.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toJsonSchema(sub, inBody)]));
    else if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map((sub) => toJsonSchema(sub, inBody));
    else if (SUBSCHEMA.has(key)) out[key] = toJsonSchema(value, inBody);
    else out[key] = value;
  }
  exclusiveBounds(out, "exclusiveMinimum", "minimum");
  exclusiveBounds(out, "exclusiveMaximum", "maximum");
  // The server fills readOnly properties; a caller sending them would be rejected or ignored.
  if (inBody && isObject(out.properties)) withoutReadOnly(out, out.properties);
  return schema.nullable === true ? nullable(out) : out;
}

function withoutReadOnly(schema: Json, properties: Json): void {
  const readOnly = new Set(Object.keys(properties).filter((name) => isObject(properties[name]) && properties[name].readOnly === true));
  if (readOnly.size === 0) return;
  schema.properties = Object.fromEntries(Object.entries(properties).filter(([name]) => !readOnly.has(name)));
  if (Array.isArray(schema.required)) schema.required = schema.required.filter((name) => !readOnly.has(name as string));
}

/** OpenAPI 3.0 boolean exclusive bounds mean "the minimum/maximum itself is excluded"; draft-07 wants the number. */
function exclusiveBounds(schema: Json, exclusive: string, inclusive: string): void {
  if (typeof schema[exclusive] !== "boolean") return;
  if (schema[exclusive] === true && typeof schema[inclusive] === "number") {
    schema[exclusive] = schema[inclusive];
    delete schema[inclusive];
  } else delete schema[exclusive];
}

/** A type list is the tightest rendering; with composition keywords only a wrapping anyOf keeps null out of their reach. */
function nullable(schema: Json): Json {
  const composed = COMPOSITION.some((key) => key in schema);
  if (composed || (typeof schema.type !== "string" && !Array.isArray(schema.type))) return { anyOf: [schema, { type: "null" }] };
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  const result: Json = { ...schema, type: types.includes("null") ? types : [...types, "null"] };
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) result.enum = [...schema.enum, null];
  return result;
}

function firstRef(value: unknown, seen = new WeakSet<object>()): string | undefined {
  if (typeof value !== "object" || value === null || seen.has(value)) return undefined;
  seen.add(value);
  if (!Array.isArray(value) && typeof (value as Json).$ref === "string") return (value as Json).$ref as string;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    const ref = firstRef(child, seen);
    if (ref !== undefined) return ref;
  }
  return undefined;
}
