/**
 * Checks a request against its operation the way a strict vendor would: path, query and header
 * parameters (required ones present, values of the declared types, no undeclared query
 * parameters), and the body (a declared content type, a required body present, the schema met,
 * no undeclared top-level fields). Ajv compiles each schema once per process.
 */
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { DescribedOperation, IndexedDescription, JsonObject } from "./description.js";
import { nestFields } from "./form-fields.js";

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const DOCUMENT_ID = "https://sandbox.toolbroker.invalid/description.json";
/** Header parameters OpenAPI says are not parameters (the transport sets them). */
const TRANSPORT_HEADERS = new Set(["authorization", "content-type", "accept"]);

export type IncomingRequest = {
  method: string;
  /** Placeholder values matched from the path, percent-decoded. */
  pathValues: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string | string[] | undefined>;
  contentType: string;
  text: string;
  /** Query parameters the credential travels in (an API key): not the operation's. */
  credentialQuery: ReadonlySet<string>;
};

type Validators = { strict: Ajv; coercing: Ajv; compiled: Map<string, ValidateFunction> };
const validatorsOf = new WeakMap<IndexedDescription, Validators>();

function validators(description: IndexedDescription): Validators {
  let found = validatorsOf.get(description);
  if (!found) {
    const ajvFor = (coerceTypes: false | "array") => {
      const ajv = new Ajv({ strict: false, allErrors: true, coerceTypes, logger: false, validateFormats: true });
      addFormats(ajv);
      // Google's `format: byte` fields take base64url too (Gmail's `raw` is documented as base64url).
      ajv.addFormat("byte", /^[A-Za-z0-9+/_-]*={0,2}$/);
      ajv.addSchema(forAjv(description.document) as object, DOCUMENT_ID);
      return ajv;
    };
    found = { strict: ajvFor(false), coercing: ajvFor("array"), compiled: new Map() };
    validatorsOf.set(description, found);
  }
  return found;
}

/**
 * The description's schemas as draft-07 Ajv reads them: local refs point into the registered
 * document; OpenAPI 3.0's boolean exclusive bounds, `nullable` without a type, `type: file` and
 * `discriminator` are rewritten or dropped.
 */
function forAjv(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forAjv);
  if (!value || typeof value !== "object") return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === "$ref" && typeof item === "string" && item.startsWith("#")) out.$ref = `${DOCUMENT_ID}${item}`;
    else if (key === "$schema" || key === "$id" || key === "discriminator" || key === "xml") continue;
    else out[key] = forAjv(item);
  }
  for (const bound of ["Minimum", "Maximum"] as const) {
    const flag = out[`exclusive${bound}`];
    if (typeof flag === "boolean") {
      delete out[`exclusive${bound}`];
      const limit = out[bound.toLowerCase()];
      if (flag && typeof limit === "number") {
        out[`exclusive${bound}`] = limit;
        delete out[bound.toLowerCase()];
      }
    }
  }
  if (out.type === "file") delete out.type;
  if (out.nullable !== undefined && out.type === undefined) delete out.nullable;
  return out;
}

function compile(description: IndexedDescription, key: string, schema: JsonObject, coercing: boolean): ValidateFunction {
  const set = validators(description);
  const cacheKey = `${coercing ? "c" : "s"}:${key}`;
  let validate = set.compiled.get(cacheKey);
  if (!validate) {
    validate = (coercing ? set.coercing : set.strict).compile(forAjv(schema) as object);
    set.compiled.set(cacheKey, validate);
  }
  return validate;
}

/** Whether a value (a description's example) meets a schema of the description. */
export function matchesSchema(description: IndexedDescription, key: string, schema: JsonObject, value: unknown): boolean {
  try {
    return compile(description, key, schema, false)(value) as boolean;
  } catch {
    return false;
  }
}

function describeErrors(where: string, validate: ValidateFunction): string[] {
  return (validate.errors ?? []).slice(0, 10).map((error) => `${where}${error.instancePath || ""} ${error.message ?? "is invalid"}`.trim());
}

/** The operation's parameters (path item's and its own, the operation's winning), resolved. */
function parametersOf(description: IndexedDescription, operation: DescribedOperation): JsonObject[] {
  const byKey = new Map<string, JsonObject>();
  for (const raw of [...(operation.pathItem.parameters ?? []), ...(operation.operation.parameters ?? [])]) {
    const parameter = description.resolve(raw);
    byKey.set(`${parameter.in}:${parameter.name}`, parameter);
  }
  return [...byKey.values()];
}

export function validateRequest(description: IndexedDescription, operation: DescribedOperation, request: IncomingRequest): string[] {
  const problems: string[] = [];
  const parameters = parametersOf(description, operation);
  const queryFields = nestFields(request.query);
  const declaredQuery = new Set(parameters.filter((p) => p.in === "query").map((p) => String(p.name)));
  for (const name of Object.keys(queryFields)) {
    if (!declaredQuery.has(name) && !request.credentialQuery.has(name)) problems.push(`query parameter "${name}" is not a parameter of ${operation.operationId}`);
  }
  for (const location of ["path", "query", "header"] as const) {
    const declared = parameters.filter((p) => p.in === location && !(location === "header" && TRANSPORT_HEADERS.has(String(p.name).toLowerCase())));
    if (declared.length === 0) continue;
    const values: JsonObject = {};
    for (const parameter of declared) {
      const name = String(parameter.name);
      const value = location === "path" ? request.pathValues[name] : location === "query" ? queryFields[name] : request.headers[name.toLowerCase()];
      if (value === undefined) continue;
      values[name] = parameterValue(description, parameter, value);
    }
    const schema = {
      type: "object",
      properties: Object.fromEntries(declared.map((p) => [String(p.name), p.schema ?? {}])),
      required: declared.filter((p) => p.required || location === "path").map((p) => String(p.name)),
    };
    const validate = compile(description, `${operation.operationId}:${location}`, schema, true);
    if (!validate(values)) problems.push(...describeErrors(`${location} parameters`, validate));
  }
  problems.push(...validateBody(description, operation, request));
  return problems;
}

/** Comma-separated when the parameter says `explode: false`; repeated names are already arrays. */
function parameterValue(description: IndexedDescription, parameter: JsonObject, value: unknown): unknown {
  const schema = description.resolve(parameter.schema ?? {});
  if (schema.type === "array" && typeof value === "string" && parameter.explode === false) return value.split(",");
  return value;
}

function validateBody(description: IndexedDescription, operation: DescribedOperation, request: IncomingRequest): string[] {
  const requestBody = operation.operation.requestBody ? description.resolve(operation.operation.requestBody) : undefined;
  const hasBody = request.text.length > 0;
  if (!requestBody) return hasBody && request.text.trim() !== "{}" ? [`${operation.operationId} takes no request body`] : [];
  if (!hasBody) return requestBody.required ? [`a request body is required by ${operation.operationId}`] : [];
  const content = (requestBody.content ?? {}) as JsonObject;
  const mediaType = request.contentType.split(";")[0]!.trim().toLowerCase();
  const entry =
    Object.entries(content).find(([type]) => type.toLowerCase() === mediaType || (type.endsWith("/*") && mediaType.startsWith(type.slice(0, -1))) || type === "*/*") ??
    googleJsonResource(description, content, mediaType);
  if (!entry) return [`content type "${mediaType}" is not one of ${Object.keys(content).join(", ")}`];
  const [type, media] = entry as [string, JsonObject];
  let body: unknown;
  const isForm = type.toLowerCase() === "application/x-www-form-urlencoded";
  if (isForm) body = nestFields(new URLSearchParams(request.text));
  else if (/json/i.test(type)) {
    try {
      body = JSON.parse(request.text);
    } catch {
      return ["the body is not valid JSON"];
    }
  } else return [];
  const schema = (media.schema ?? {}) as JsonObject;
  const validate = compile(description, `${operation.operationId}:body:${type}`, schema, isForm);
  const problems = validate(body) ? [] : describeErrors("body", validate);
  return [...problems, ...undeclaredFields(description, schema, body)];
}

/**
 * APIs-guru's conversion of Google's discovery documents lists only the `mediaUpload` types
 * (message/rfc822, … for gmail.users.messages.send; application/octet-stream for Drive's
 * files.create and files.update), each with the JSON resource schema; Google's API takes that
 * resource as JSON at the same path (metadata without media), so JSON is checked against it.
 */
function googleJsonResource(description: IndexedDescription, content: JsonObject, mediaType: string): [string, JsonObject] | undefined {
  const types = Object.keys(content);
  if (mediaType !== "application/json" || types.length === 0) return undefined;
  const uploadTypes = types.every((type) => type.startsWith("message/")) || (isGoogleDescription(description) && types.length === 1 && types[0] === "application/octet-stream");
  return uploadTypes ? ["application/json", content[types[0]!] as JsonObject] : undefined;
}

const isGoogleDescription = (description: IndexedDescription) => (description.document.info as JsonObject | undefined)?.["x-providerName"] === "googleapis.com";

/** Top-level body fields the schema does not name (when it names any and allows no others). */
function undeclaredFields(description: IndexedDescription, schema: JsonObject, body: unknown): string[] {
  if (!body || typeof body !== "object" || Array.isArray(body)) return [];
  const known = new Set<string>();
  let open = false;
  const collect = (raw: unknown, depth: number) => {
    const node = description.resolve(raw);
    if (depth > 10) return;
    for (const name of Object.keys(node.properties ?? {})) known.add(name);
    if (node.additionalProperties !== undefined && node.additionalProperties !== false) open = true;
    for (const part of [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) collect(part, depth + 1);
  };
  collect(schema, 0);
  if (open || known.size === 0) return [];
  return Object.keys(body).filter((name) => !known.has(name)).map((name) => `body field "${name}" is not in the operation's schema`);
}
