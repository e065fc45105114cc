/**
 * A tool declaration turned into what the execute pipeline runs: the request built from the
 * arguments by template, and the response picked by JSON pointers. The same code serves every
 * built-in, tenant-defined and imported tool, so what a tenant declares cannot reach anything but
 * its provider's base URL (the upstream client confines every path to it).
 */
import { BrokerError } from "../errors.js";
import { formatByteLimit } from "../shared/byte-sizes.js";
import { memoizeByKey } from "../shared/memo.js";
import type { ToolDefinition, ToolHooks } from "./provider-types.js";
import type { UpstreamRequest, UpstreamResponse } from "./upstream-client.js";
import type { ToolDeclaration } from "./declaration-schema.js";

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]{0,99})\}/g;
const WHOLE_PLACEHOLDER = /^\{([A-Za-z_][A-Za-z0-9_-]{0,99})\}$/;

/** A value left out of the request because an argument it names was not given. */
const ABSENT = Symbol("absent");

type Args = Record<string, unknown>;

const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** The argument names a template mentions. */
export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

/**
 * Bytes of argument text one call's templates may write into its request. Each placeholder copies
 * its argument, so a declaration of many placeholders and a large argument would otherwise build
 * gigabytes on the request thread; the broker's own request body is at most 1 MiB.
 */
export const MAX_FILLED_ARGUMENT_BYTES = 2 * 1024 * 1024;

/** One call's filling: the arguments, each one's text computed once, and what may still be written. */
type Filling = { args: Args; texts: Map<string, string>; left: number };

/** An argument's text, charged to the call's budget each time a template writes it. */
function argumentText(filling: Filling, name: string): string {
  let text = filling.texts.get(name);
  if (text === undefined) {
    text = asText(filling.args[name]) ?? "";
    filling.texts.set(name, text);
  }
  filling.left -= text.length;
  if (filling.left < 0) {
    throw new BrokerError("invalid_tool_args", `the arguments fill this tool's request with more than ${formatByteLimit(MAX_FILLED_ARGUMENT_BYTES)}, the most one request may carry`, {
      reason: "request_too_large",
      limit: MAX_FILLED_ARGUMENT_BYTES,
      fields: [{ field: `/${name}`, message: "makes the request too large" }],
    });
  }
  return text;
}

/** `"{x}"` is the argument itself; any other text has each placeholder replaced by its text. */
function fillTemplate(template: string, filling: Filling): unknown {
  const { args } = filling;
  const whole = WHOLE_PLACEHOLDER.exec(template);
  if (whole) {
    const name = whole[1]!;
    if (args[name] === undefined) return ABSENT;
    // Sent as JSON: every reference is written out again.
    argumentText(filling, name);
    return args[name];
  }
  let absent = false;
  const text = template.replace(PLACEHOLDER, (_, name: string) => {
    if (args[name] === undefined) absent = true;
    return argumentText(filling, name);
  });
  return absent ? ABSENT : text;
}

/** Fills every string of a JSON body template; entries whose argument is missing are left out. */
function fillBody(template: unknown, filling: Filling): unknown {
  if (typeof template === "string") return fillTemplate(template, filling);
  if (Array.isArray(template)) return template.map((item) => fillBody(item, filling)).filter((item) => item !== ABSENT);
  if (template && typeof template === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template)) {
      const filled = fillBody(value, filling);
      if (filled !== ABSENT) out[key] = filled;
    }
    return out;
  }
  return template;
}

function fillMap(templates: Record<string, string> | undefined, filling: Filling): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, template] of Object.entries(templates ?? {})) {
    const filled = fillTemplate(template, filling);
    if (filled !== ABSENT) out[name] = asText(filled);
  }
  return out;
}

/**
 * One percent-encoded path segment. URLs resolve "." and ".." (encoded or not) as steps up the
 * path, which would turn a tool into a call on another endpoint of the same API: refused.
 */
function pathSegment(name: string, filling: Filling): string {
  const text = (filling.args[name] ?? null) === null ? "" : argumentText(filling, name);
  if (text === "" || text === "." || text === "..") {
    throw new BrokerError("invalid_tool_args", `argument ${name} cannot be "${text}": it is one segment of the request path`, { fields: [{ field: `/${name}`, message: "is not a path segment" }] });
  }
  return encodeURIComponent(text);
}

/** Header values from arguments: visible characters, spaces and tabs only (no line breaks). */
function checkHeaderValues(headers: Record<string, string>) {
  for (const [name, value] of Object.entries(headers)) {
    if (!/^[\t\x20-\x7e\x80-\xff]*$/.test(value)) throw new BrokerError("invalid_tool_args", `the ${name} header cannot carry control characters`, { fields: [{ field: "/", message: `header ${name}: control characters` }] });
  }
}

export function buildDeclaredRequest(request: ToolDeclaration["request"], args: Args): UpstreamRequest {
  // Path placeholders are required arguments (checked when the tool is declared); each is one
  // percent-encoded segment, so an argument cannot add path segments or a query.
  const filling: Filling = { args, texts: new Map(), left: MAX_FILLED_ARGUMENT_BYTES };
  const path = request.path.replace(PLACEHOLDER, (_, name: string) => pathSegment(name, filling));
  const built: UpstreamRequest = { method: request.method, path };
  const query = fillMap(request.query, filling);
  if (Object.keys(query).length) built.query = query;
  const headers = fillMap(request.headers, filling);
  checkHeaderValues(headers);
  if (Object.keys(headers).length) built.headers = headers;
  if (request.body !== undefined) {
    const body = fillBody(request.body, filling);
    if (body !== ABSENT) {
      // A form body is an object (checked when the tool is declared); each field is sent as text.
      if (request.body_encoding === "form") built.form = Object.fromEntries(Object.entries(body as Args).map(([key, value]) => [key, asText(value)]));
      else built.body = body;
    }
  }
  return built;
}

/** A pointer's reference tokens, unescaped; pointers come from declarations, so there are few of them. */
const tokensOf = memoizeByKey((pointer) => pointer.slice(1).split("/").map((raw) => raw.replace(/~1/g, "/").replace(/~0/g, "~")), { maxKeyLength: 256 });

const ARRAY_INDEX = /^(0|[1-9]\d*)$/;

/** RFC 6901: the value a pointer names, or undefined when it names nothing. */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer === "") return document;
  let current = document;
  for (const token of tokensOf(pointer)) {
    if (Array.isArray(current) && ARRAY_INDEX.test(token)) current = current[Number(token)];
    else if (current && typeof current === "object" && Object.hasOwn(current, token)) current = (current as Record<string, unknown>)[token];
    else return undefined;
  }
  return current;
}

/**
 * Element × field steps one call's mapping may take. Each step follows one pointer of at most 32
 * tokens, so the mapping holds the request thread for a few milliseconds at most; 2,000 elements
 * of 100 fields fit.
 */
export const MAX_MAPPING_STEPS = 200_000;

export const responseTooLarge = (message: string, limit: number) =>
  new BrokerError("upstream_error", message, { reason: "response_too_large", limit });

export function mapDeclaredResponse(response: ToolDeclaration["response"], body: unknown): unknown {
  const root = resolvePointer(body, response?.root ?? "");
  const fields = response?.fields;
  if (!fields) return root ?? null;
  const entries = Object.entries(fields);
  // Counted before any work: the cost is known from the answer's length and the declaration.
  const steps = (Array.isArray(root) ? root.length : 1) * entries.length;
  if (steps > MAX_MAPPING_STEPS) {
    throw responseTooLarge(`the upstream answer needs ${steps} mapping steps (elements × fields); at most ${MAX_MAPPING_STEPS} are taken per call`, MAX_MAPPING_STEPS);
  }
  const pick = (item: unknown) => {
    const out: Record<string, unknown> = {};
    for (const [name, pointer] of entries) {
      const value = resolvePointer(item, pointer);
      if (value !== undefined) out[name] = value;
    }
    return out;
  };
  return Array.isArray(root) ? root.map(pick) : pick(root);
}

/** The pointers of the fields a vendor compares without case, from the tool's and its provider's names. */
const caseInsensitivePointers = (names: readonly string[]) => [...new Set(names)].map((name) => `/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`);

/**
 * `hooks`: a built-in tool's code for what its declaration cannot say (a computed request value,
 * a computed result). A tenant's tool has none.
 */
export function toolFromDeclaration(
  declaration: ToolDeclaration,
  provider: { authModes: ToolDefinition["authModes"]; caseInsensitiveArguments?: readonly string[] },
  hooks: ToolHooks = {},
): ToolDefinition {
  const insensitive = [...(provider.caseInsensitiveArguments ?? []), ...(declaration.case_insensitive_arguments ?? [])];
  const { request: completeRequest, mapResponse } = hooks;
  // A mapping hook replaces the pointers: declaring both would leave one silently unused.
  if (mapResponse && (declaration.response?.root !== undefined || declaration.response?.fields !== undefined)) {
    throw new Error(`${declaration.name}: a mapResponse hook and response root/fields exclude each other`);
  }
  return {
    name: declaration.name,
    ...(declaration.title !== undefined ? { title: declaration.title } : {}),
    description: declaration.description,
    argumentsSchema: declaration.arguments_schema,
    risk: declaration.risk,
    sideEffect: declaration.side_effect,
    ...(declaration.destructive !== undefined ? { destructive: declaration.destructive } : {}),
    ...(declaration.idempotent !== undefined ? { idempotent: declaration.idempotent } : {}),
    ...(declaration.scopes !== undefined ? { scopes: declaration.scopes } : {}),
    authModes: provider.authModes,
    ...(insensitive.length ? { caseInsensitiveArguments: caseInsensitivePointers(insensitive) } : {}),
    pathTemplate: declaration.request.path,
    buildRequest: completeRequest
      ? (args) => completeRequest(buildDeclaredRequest(declaration.request, args), args)
      : (args) => buildDeclaredRequest(declaration.request, args),
    // Without a declared schema the tool takes whatever JSON its API answers; the mapping picks what it names.
    responseSchema: declaration.response?.schema ?? {},
    mapResponse: mapResponse ?? ((response: UpstreamResponse) => mapDeclaredResponse(declaration.response, response.body)),
  };
}
