/**
 * Whether a declaration may be stored: first the published JSON Schema, then what a schema cannot
 * say (placeholders name declared arguments, the arguments schema compiles, URLs are ones the
 * broker may call). Every fault is a 422 `invalid_declaration` naming its path in the declaration.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { BrokerError } from "../errors.js";
import { depthOf } from "../shared/json-depth.js";
import type { UrlSafety } from "../shared/url-safety.js";
import { describeIssues, type FieldProblem } from "../shared/validation-issues.js";
import type { ToolCompilerSet } from "./tool-catalogue.js";
import { DECLARATION_LIMITS, ProviderDeclaration, ToolDeclaration } from "../providers/declaration-schema.js";
import { placeholdersOf } from "../providers/declared-tool.js";
import { connectionValueProblems, splitTemplate } from "../providers/connection-values.js";

export const MAX_ARGUMENTS_SCHEMA_BYTES = 64 * 1024;
const MAX_ARGUMENTS_SCHEMA_DEPTH = 32;
/** Set by the broker or by the HTTP client itself; a declaration may not choose them. */
const RESERVED_HEADERS = new Set(["host", "content-length", "transfer-encoding", "connection", "upgrade", "te", "trailer", "keep-alive", "proxy-authorization", "expect"]);

export const invalidDeclaration = (fields: FieldProblem[], what: string) =>
  new BrokerError("invalid_declaration", `the ${what} declaration is invalid: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`, {
    path: fields[0]?.field ?? "/",
    fields,
  });

// `discriminator`: a fault in `auth` is reported against the branch its `type` names, not every branch.
const schemaAjv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, discriminator: true });
const providerSchema: ValidateFunction = schemaAjv.compile(ProviderDeclaration);
const toolSchema: ValidateFunction = schemaAjv.compile(ToolDeclaration);

function checkSchema<T>(validate: ValidateFunction, value: unknown, what: string): T {
  if (!validate(value)) throw invalidDeclaration(describeIssues(validate.errors), what);
  return value as T;
}

/**
 * What is wrong with a stored provider declaration by today's schema, or undefined. A row stored
 * before a check existed (an `auth` that is not an object) is left out of what callers see and
 * flagged to its tenant instead of failing every listing.
 */
export function storedProviderProblem(declaration: unknown): FieldProblem | undefined {
  if (providerSchema(declaration)) return undefined;
  return describeIssues(providerSchema.errors)[0] ?? { field: "/", message: "is invalid" };
}

type UrlField = { path: string; url: string | undefined };

/**
 * The base URL as one connection could fill it, for the address checks: each placeholder a
 * one-letter label or segment. A base URL that begins with an origin value has no host of its own
 * to check here; each connection's origin is checked when it is used, like every tenant URL.
 */
function sampleBaseUrl(template: string): string | undefined {
  if (splitTemplate(template).origin.startsWith("{")) return undefined;
  return template.replace(/\{[a-z][a-z0-9_]*\}/g, "x");
}

export function createDeclarationChecks({ urlSafety, compiler }: { urlSafety: UrlSafety; compiler: Pick<ToolCompilerSet, "problemWith"> }) {
  async function checkUrls(fields: UrlField[]) {
    for (const { path, url } of fields) {
      if (url === undefined) continue;
      try {
        await urlSafety.checkForRegistration(url);
      } catch (error) {
        if (!(error instanceof BrokerError)) throw error;
        throw invalidDeclaration([{ field: path, message: error.message }], "provider");
      }
    }
  }

  return {
    async provider(value: unknown): Promise<ProviderDeclaration> {
      const declaration = checkSchema<ProviderDeclaration>(providerSchema, value, "provider");
      const auth = declaration.auth;
      const valueProblems = connectionValueProblems(declaration);
      if (valueProblems.length) throw invalidDeclaration(valueProblems, "provider");
      await checkUrls([
        { path: "/api_base_url", url: sampleBaseUrl(declaration.api_base_url) },
        ...(auth.type === "oauth2"
          ? [
              { path: "/auth/authorize_url", url: auth.authorize_url },
              { path: "/auth/token_url", url: auth.token_url },
              { path: "/auth/revocation_url", url: auth.revocation_url },
            ]
          : []),
      ]);
      const reserved = Object.keys(declaration.default_headers ?? {}).find((name) => RESERVED_HEADERS.has(name.toLowerCase()) || name.toLowerCase() === "authorization");
      if (reserved) throw invalidDeclaration([{ field: `/default_headers/${reserved}`, message: "is set by the broker, not by a declaration" }], "provider");
      return declaration;
    },

    tool: createToolCheck(compiler),
  };
}

/**
 * The checks of a tool declaration alone (no URL to check): what an OpenAPI import runs on its
 * worker thread. `providerId`: the provider the tool is declared under; its name must carry that prefix.
 */
export function createToolCheck(compiler: Pick<ToolCompilerSet, "problemWith">) {
  return (value: unknown, providerId: string): ToolDeclaration => {
    const declaration = checkSchema<ToolDeclaration>(toolSchema, value, "tool");
    const fault = (field: string, message: string) => invalidDeclaration([{ field, message }], "tool");
    if (!declaration.name.startsWith(`${providerId}.`)) throw fault("/name", `must start with "${providerId}." (the provider it is declared under)`);
    checkArgumentsSchema(declaration, fault, compiler.problemWith);
    checkPlaceholders(declaration, fault);
    checkBodyTemplate(declaration.request.body, fault);
    const reserved = Object.keys(declaration.request.headers ?? {}).find((name) => RESERVED_HEADERS.has(name.toLowerCase()));
    if (reserved) throw fault(`/request/headers/${reserved}`, "is set by the HTTP client, not by a declaration");
    if (declaration.request.body_encoding === "form" && !isFormBody(declaration.request.body)) {
      throw fault("/request/body", 'must be an object of fields (or one "{argument}" placeholder) with body_encoding form');
    }
    if (declaration.request.body !== undefined && (declaration.request.method === "GET" || declaration.request.method === "DELETE")) {
      throw fault("/request/body", `is not sent with ${declaration.request.method}`);
    }
    return declaration;
  };
}

type Fault = (field: string, message: string) => BrokerError;

const isFormBody = (body: unknown) => typeof body === "string" || (body !== null && typeof body === "object" && !Array.isArray(body));

function checkArgumentsSchema(declaration: ToolDeclaration, fault: Fault, problemWith: ToolCompilerSet["problemWith"]) {
  const schema = declaration.arguments_schema as Record<string, unknown>;
  if (schema.type !== "object") throw fault("/arguments_schema/type", 'must be "object": arguments are a JSON object');
  checkJsonSchema(schema, "/arguments_schema", fault, problemWith);
  const responseSchema = declaration.response?.schema;
  if (responseSchema !== undefined) checkJsonSchema(responseSchema as Record<string, unknown>, "/response/schema", fault, problemWith);
}

/** Size, depth, then compiled as the pipeline compiles it (patterns on RE2); a remote $ref is never fetched, so it does not compile. */
function checkJsonSchema(schema: Record<string, unknown>, path: string, fault: Fault, problemWith: ToolCompilerSet["problemWith"]) {
  if (JSON.stringify(schema).length > MAX_ARGUMENTS_SCHEMA_BYTES) throw fault(path, `must be at most ${MAX_ARGUMENTS_SCHEMA_BYTES} bytes of JSON`);
  if (depthOf(schema, MAX_ARGUMENTS_SCHEMA_DEPTH) > MAX_ARGUMENTS_SCHEMA_DEPTH) throw fault(path, `must nest at most ${MAX_ARGUMENTS_SCHEMA_DEPTH} levels`);
  const quadratic = quadraticUniqueItems(schema, path);
  if (quadratic) throw fault(quadratic, `uniqueItems needs items of a scalar type or maxItems of at most ${MAX_UNIQUE_ITEMS}: comparing objects pairwise takes time quadratic in the array's length`);
  const problem = problemWith(schema);
  if (problem) throw fault(path, `does not compile: ${problem}`);
}

/** Objects compared pairwise: 1,000 items are half a million comparisons, a few milliseconds. */
const MAX_UNIQUE_ITEMS = 1_000;
const SCALAR_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);
const isScalarTyped = (items: unknown) => {
  const type = (items as { type?: unknown } | null)?.type;
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((t) => typeof t === "string" && SCALAR_TYPES.has(t));
};

/**
 * The path of a `uniqueItems` the validator would check by comparing every pair of items (Ajv
 * hashes items only when they are declared scalar), unless `maxItems` bounds the pairs.
 */
function quadraticUniqueItems(schema: unknown, path: string): string | undefined {
  if (!schema || typeof schema !== "object") return undefined;
  if (!Array.isArray(schema)) {
    const node = schema as Record<string, unknown>;
    const bounded = typeof node.maxItems === "number" && node.maxItems <= MAX_UNIQUE_ITEMS;
    if (node.uniqueItems === true && !bounded && !isScalarTyped(node.items)) return `${path}/uniqueItems`;
  }
  for (const [key, child] of Object.entries(schema)) {
    const found = quadraticUniqueItems(child, `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    if (found) return found;
  }
  return undefined;
}

/** The body is filled on every call: its size, depth and number of templates are bounded. */
function checkBodyTemplate(body: unknown, fault: Fault) {
  if (body === undefined) return;
  const { bodyBytes, bodyDepth, bodyTemplates } = DECLARATION_LIMITS;
  if (JSON.stringify(body).length > bodyBytes) throw fault("/request/body", `must be at most ${bodyBytes} bytes of JSON`);
  if (depthOf(body, bodyDepth) > bodyDepth) throw fault("/request/body", `must nest at most ${bodyDepth} levels`);
  const templates = stringsOf(body, "/request/body").length;
  if (templates > bodyTemplates) throw fault("/request/body", `holds ${templates} strings; at most ${bodyTemplates} are allowed`);
}

function checkPlaceholders(declaration: ToolDeclaration, fault: Fault) {
  const schema = declaration.arguments_schema as { properties?: Record<string, unknown>; required?: unknown };
  const declared = new Set(Object.keys(schema.properties ?? {}));
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const { request } = declaration;
  for (const name of placeholdersOf(request.path)) {
    if (!declared.has(name) || !required.has(name)) throw fault("/request/path", `names {${name}}, which must be a required argument in arguments_schema`);
  }
  const templates: [string, string][] = [
    ...Object.entries(request.query ?? {}).map(([key, template]): [string, string] => [`/request/query/${key}`, template]),
    ...Object.entries(request.headers ?? {}).map(([key, template]): [string, string] => [`/request/headers/${key}`, template]),
    ...stringsOf(request.body, "/request/body"),
  ];
  for (const [path, template] of templates) {
    for (const name of placeholdersOf(template)) if (!declared.has(name)) throw fault(path, `names {${name}}, which is not an argument in arguments_schema`);
  }
}

function stringsOf(value: unknown, path: string): [string, string][] {
  if (typeof value === "string") return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringsOf(item, `${path}/${index}`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, item]) => stringsOf(item, `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`));
  return [];
}
