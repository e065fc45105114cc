/**
 * Turns an OpenAPI 3.0/3.1 document into tool declarations a tenant can review and register.
 * An operation that cannot become a faithful tool call is skipped with a reason rather than
 * approximated, and nothing outside the document is ever fetched: external `$ref`s stay
 * unresolved and the operations that need them are skipped.
 */
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { parse as parseYaml } from "yaml";
import { MAX_ARGUMENTS_SCHEMA_BYTES } from "./declaration-checks.js";
import { PROVIDER_ID_PATTERN, ToolDeclaration } from "../providers/declaration-schema.js";
import { createLocalRefs, createSchemaBudget, firstRef, IMPORT_LIMITS, isObject, OpenApiImportError, toJsonSchema, UnresolvedRef, type Json, type LocalRefs, type SchemaBudget } from "./openapi-schemas.js";

export { OpenApiImportError } from "./openapi-schemas.js";
export type OpenApiImportResult = { tools: ToolDeclaration[]; skipped: { operation: string; reason: string }[] };

type Method = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
type Compile = (schema: Json, key: string) => string | undefined;
type Body = { schema: unknown; required: boolean; encoding: "json" | "form" };
/** What every operation of one import shares. */
type Import = { providerId: string; refs: LocalRefs; budget: SchemaBudget; compile: Compile; names: Set<string> };
type Operation = { method: Method; path: string; item: Json; operation: Json };

const METHODS: readonly Method[] = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
/** The declaration's method enum; HEAD, OPTIONS and TRACE have no tool meaning there. */
const SUPPORTED = new Set<Method>(["get", "post", "put", "patch", "delete"]);
const ARGUMENT_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,99}$/;
const OPERATION_MAX = 64;
const DESCRIPTION_MAX = 4000;

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
const pointerToken = (token: string) => token.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * CPU-bound (nothing in it waits): the broker runs it on a worker thread with a time and
 * memory budget (openapi-import-runner.ts), never on the request thread.
 */
export async function toolsFromOpenApi(document: string | Record<string, unknown>, options: { providerId: string; operationIds?: string[] }): Promise<OpenApiImportResult> {
  if (!new RegExp(PROVIDER_ID_PATTERN).test(options.providerId)) throw new OpenApiImportError(`provider id "${options.providerId}" does not match ${PROVIDER_ID_PATTERN}`);
  const api = checkedVersion(parsed(document));
  const refs = createLocalRefs(api);
  const run: Import = { providerId: options.providerId, refs, budget: createSchemaBudget(), compile: argumentCompiler(), names: new Set() };
  const wanted = options.operationIds ? new Set(options.operationIds) : undefined;
  const found = new Set<string>();
  const result: OpenApiImportResult = { tools: [], skipped: [] };
  for (const [path, listed] of Object.entries(isObject(api.paths) ? api.paths : {})) {
    const item = followed(refs, listed);
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const operationId = typeof operation.operationId === "string" ? operation.operationId : undefined;
      if (wanted && !(operationId !== undefined && wanted.has(operationId))) continue;
      if (operationId !== undefined) found.add(operationId);
      const outcome = toolFor(run, { method, path, item, operation });
      if (typeof outcome === "string") result.skipped.push({ operation: operationId ?? `${method.toUpperCase()} ${path}`, reason: outcome });
      else result.tools.push(outcome);
      if (result.tools.length > IMPORT_LIMITS.toolsPerImport) {
        throw new OpenApiImportError(`the document has more than ${IMPORT_LIMITS.toolsPerImport} operations to import; import it in parts with operation_ids`, "/paths", { name: "toolsPerImport", max: IMPORT_LIMITS.toolsPerImport });
      }
    }
  }
  const missing = (options.operationIds ?? []).filter((id) => !found.has(id));
  if (missing.length > 0) throw new OpenApiImportError(`operationId not found in the document: ${missing.join(", ")}`, "/paths");
  return result;
}

/** A path item's own `$ref` (rare, but allowed); an unfollowable one leaves the path out. */
function followed(refs: LocalRefs, value: unknown): unknown {
  try {
    return refs.follow(value);
  } catch (error) {
    if (error instanceof UnresolvedRef) return undefined;
    throw error;
  }
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

function toolFor(run: Import, { method, path, item, operation }: Operation): ToolDeclaration | string {
  if (!SUPPORTED.has(method)) return `${method.toUpperCase()} is not supported`;
  const pointer = `/paths/${pointerToken(path)}/${method}`;
  run.budget.startTool(pointer);
  let body: Body | string | undefined;
  let args: Arguments | string;
  try {
    body = requestBody(run.refs, operation.requestBody);
    if (typeof body === "string") return body;
    args = argumentsOf(run, mergedParameters(run.refs, item.parameters, operation.parameters), body);
  } catch (error) {
    if (error instanceof UnresolvedRef) return error.message;
    throw error;
  }
  if (typeof args === "string") return args;
  const toolPath = renamedPath(path, args.pathArguments);
  if (toolPath.missing.length > 0) return `path placeholder {${toolPath.missing.join("}, {")}} has no path parameter`;
  const ref = firstRef(args.schema);
  if (ref !== undefined) return new UnresolvedRef(ref).message;
  const schemaText = JSON.stringify(args.schema);
  if (schemaText.length > MAX_ARGUMENTS_SCHEMA_BYTES) throw new OpenApiImportError(`the arguments of ${method.toUpperCase()} ${path} make a schema of ${schemaText.length} bytes; a tool's is at most ${MAX_ARGUMENTS_SCHEMA_BYTES}`, pointer);
  run.budget.spendBytes(schemaText.length);
  const tool = declarationOf(run, { method, path, item, operation }, toolPath.path, args, body);
  const problem = declarationProblem(tool, schemaText, run.compile);
  if (problem !== undefined) return problem;
  run.names.add(tool.name.slice(run.providerId.length + 1));
  return tool;
}

function declarationOf({ providerId, names }: Import, { method, path, operation }: Operation, toolPath: string, args: Arguments, body: Body | undefined): ToolDeclaration {
  const write = method !== "get";
  return {
    name: `${providerId}.${unique(names, operationName(operation.operationId, method, path))}`,
    description: descriptionOf(operation, method, path),
    arguments_schema: args.schema,
    risk: write ? "high" : "low",
    side_effect: write ? "write" : "read",
    ...(method === "delete" ? { destructive: true } : {}),
    request: {
      method: method.toUpperCase() as ToolDeclaration["request"]["method"],
      path: toolPath,
      ...(Object.keys(args.query).length > 0 ? { query: args.query } : {}),
      ...(Object.keys(args.headers).length > 0 ? { headers: args.headers } : {}),
      ...(body ? { body: "{body}", ...(body.encoding === "form" ? { body_encoding: "form" as const } : {}) } : {}),
    },
  };
}

type Arguments = { schema: Json; query: Record<string, string>; headers: Record<string, string>; pathArguments: Map<string, string> };

function argumentsOf(run: Import, parameters: Json[], body: Body | undefined): Arguments | string {
  const schemaOf = (schema: unknown, inBody: boolean) => toJsonSchema(schema, { refs: run.refs, budget: run.budget, inBody });
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
    properties[argument] = withDescription(schemaOf(parameter.schema ?? {}, false), parameter.description);
    if (location === "path" || parameter.required === true) required.push(argument);
    if (location === "path") args.pathArguments.set(name, argument);
    else (location === "query" ? args.query : args.headers)[name] = `{${argument}}`;
  }
  if (body) {
    properties.body = schemaOf(body.schema, true);
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

function declarationProblem(tool: ToolDeclaration, schemaText: string, compile: Compile): string | undefined {
  declarationValidator ??= newAjv().compile(ToolDeclaration);
  if (!declarationValidator(tool)) {
    const error = declarationValidator.errors?.[0];
    return `the tool would not be a valid declaration: ${error?.instancePath || "/"} ${error?.message ?? ""}`.trim();
  }
  return compile(tool.arguments_schema, schemaText);
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
  return (schema, key) => {
    if (!outcomes.has(key)) outcomes.set(key, attempt(schema));
    return outcomes.get(key);
  };
}

/** Path-level parameters apply to every operation unless the operation redeclares the same name and location. */
function mergedParameters(refs: LocalRefs, pathLevel: unknown, operationLevel: unknown): Json[] {
  const merged = new Map<string, Json>();
  for (const list of [pathLevel, operationLevel]) {
    for (const listed of Array.isArray(list) ? list : []) {
      const parameter = refs.follow(listed);
      if (isObject(parameter) && typeof parameter.name === "string") merged.set(`${String(parameter.in)}\u0000${parameter.name}`, parameter);
    }
  }
  return [...merged.values()];
}

function requestBody(refs: LocalRefs, listed: unknown): Body | string | undefined {
  const requestBody = refs.follow(listed);
  if (!isObject(requestBody) || !isObject(requestBody.content)) return undefined;
  const media = Object.entries(requestBody.content).map(([type, described]): [string, unknown] => [type, refs.follow(described)]);
  if (media.length === 0) return undefined;
  const required = requestBody.required === true;
  const mediaType = (type: string) => type.split(";")[0]!.trim().toLowerCase();
  const json = media.find(([type]) => /^application\/(?:[\w.-]+\+)?json$/.test(mediaType(type)));
  if (json) return { schema: isObject(json[1]) ? (json[1].schema ?? {}) : {}, required, encoding: "json" };
  const form = media.find(([type]) => mediaType(type) === "application/x-www-form-urlencoded");
  const formSchema = form && isObject(form[1]) ? refs.follow(form[1].schema) : undefined;
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
