/**
 * One built-in tool against its vendor's description: the operation its method and path name,
 * its path values, query parameters, headers and body fields (each the operation's, required
 * ones always sent, types agreeing), and its response mapping. What a hook adds to the request
 * is seen by building the request from the tool's example arguments and running the hook.
 */
import { buildDeclaredRequest } from "../../src/providers/declared-tool.js";
import type { ToolDeclaration } from "../../src/providers/declaration-schema.js";
import type { ToolHooks } from "../../src/providers/provider-types.js";
import type { UpstreamRequest } from "../../src/providers/upstream-client.js";
import { findOperation, type MatchedOperation } from "./operations.js";
import { checkResponseMapping } from "./response-check.js";
import { deref, viewsOf, type Json, type OpenApiDocument } from "./schema-views.js";
import { alwaysSent, checkValue, classifyTemplate, knownList, walkBodyTemplate, type BuiltValues, type CheckContext, type ToolArguments } from "./value-check.js";

export type ToolUnderCheck = {
  tool: ToolDeclaration;
  hooks?: ToolHooks | undefined;
  /** The provider's example arguments for the tool; with a request hook, they show what the hook adds. */
  example?: Record<string, unknown> | undefined;
  pathPrefix?: string | undefined;
};

export type ToolCheckResult = {
  /** "GET /repos/{owner}/{repo}" when the tool names an operation. */
  operation?: string;
  problems: string[];
  /** What the description does not let the check see (a response without a schema). */
  notes: string[];
};

/** Headers any HTTP API takes whether its description lists them or not (Prefer: RFC 7240, Graph's `outlook.body-content-type`). */
const GENERIC_HEADERS = new Set(["accept", "accept-language", "content-type", "if-match", "if-none-match", "if-modified-since", "if-unmodified-since", "prefer", "user-agent", "range"]);

export function toolArguments(tool: ToolDeclaration): ToolArguments {
  const schema = tool.arguments_schema as Json;
  return { properties: (schema.properties ?? {}) as Record<string, Json>, required: new Set((schema.required ?? []) as string[]) };
}

/** A made-up value an argument's schema accepts in shape (its enum's first, its minimum, an address for an email). */
function sampleValue(schema: Json, name: string): unknown {
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  if (type === "integer" || type === "number") return typeof schema.minimum === "number" ? schema.minimum : 1;
  if (type === "boolean") return true;
  if (type === "array") return [sampleValue((schema.items ?? {}) as Json, name)];
  if (type === "object") return Object.fromEntries(Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([key, value]) => [key, sampleValue(value, key)]));
  if (schema.format === "email" || /mail|address|recipient|attendee|^to$|^cc$|^bcc$/i.test(name)) return "someone@example.com";
  if (schema.format === "date-time") return "2026-01-01T00:00:00Z";
  if (schema.format === "date") return "2026-01-01";
  return "sample";
}

/** A value for every optional argument the example leaves out. */
const sampleArguments = (args: ToolArguments, example: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(args.properties).filter(([name]) => !(name in example) && !args.required.has(name)).map(([name, schema]) => [name, sampleValue(schema, name)]));

/** What the example arguments build: after the hook, before it, and after it from the required arguments alone. */
export type BuiltRequests = { full?: UpstreamRequest | undefined; declared?: UpstreamRequest | undefined; minimal?: UpstreamRequest | undefined };

export function exampleRequests(input: ToolUnderCheck, args: ToolArguments, problems: string[]): BuiltRequests {
  const { example, tool, hooks } = input;
  if (!example) return {};
  const build = (values: Record<string, unknown>) => {
    const declared = buildDeclaredRequest(tool.request, values);
    return { declared, full: hooks?.request ? hooks.request(declared, values) : declared };
  };
  let built: { declared: UpstreamRequest; full: UpstreamRequest };
  try {
    built = build(example);
  } catch (error) {
    problems.push(`the example arguments build no request: ${(error as Error).message}`);
    return {};
  }
  // With every optional argument given too, the hook shows what it makes of each (Graph's address lists → recipients).
  try {
    built = build({ ...sampleArguments(args, example), ...example });
  } catch {
    // The hook refuses the made-up values: the example alone shows what it does.
  }
  let minimal: UpstreamRequest | undefined;
  try {
    minimal = build(Object.fromEntries(Object.entries(example).filter(([name]) => args.required.has(name)))).full;
  } catch {
    minimal = undefined; // The hook needs more than the required arguments: what it always sends is unknown.
  }
  return { ...built, minimal };
}

const parametersIn = (found: MatchedOperation, location: string) => found.parameters.filter((parameter) => parameter.in === location);

function checkPath(found: MatchedOperation, ctx: CheckContext) {
  for (const [name, text] of found.pathValues) {
    const parameter = parametersIn(found, "path").find((candidate) => candidate.name === name);
    if (!parameter) continue; // The description's own gap: a placeholder it does not describe.
    checkValue(classifyTemplate(text, ctx.args), viewsOf(ctx.doc, parameter.schema), true, `path placeholder {${name}}`, ctx);
  }
}

/** Query parameters or headers: each sent one is the operation's, typed alike; required ones sent. */
function checkParameters(location: "query" | "header", templates: Record<string, string>, built: Record<string, string>, minimal: Record<string, string> | undefined, found: MatchedOperation, ctx: CheckContext) {
  const declared = parametersIn(found, location);
  const key = (name: string) => (location === "header" ? name.toLowerCase() : name);
  const byName = new Map(declared.map((parameter) => [key(parameter.name as string), parameter]));
  const sentNames = new Map<string, string>();
  for (const name of [...Object.keys(templates), ...Object.keys(built)]) sentNames.set(key(name), name);
  for (const [lookupName, name] of sentNames) {
    // A bracketed name (`page[size]`, `sort[0][field]`) is a deepObject parameter's member.
    const parameter = byName.get(lookupName) ?? byName.get(lookupName.replace(/\[.*$/, ""));
    if (parameter && parameter.name !== name) continue;
    if (!parameter) {
      if (location === "header" && GENERIC_HEADERS.has(lookupName)) continue;
      ctx.problems.push(`${location} parameter ${name} is not a parameter of ${ctx.owner}${knownList(declared.map((p) => p.name as string).sort())}`);
      continue;
    }
    const views = viewsOf(ctx.doc, parameter.schema ?? {});
    const source = name in templates ? classifyTemplate(templates[name]!, ctx.args) : { kind: "literal" as const, value: built[name] };
    checkValue(source, views, true, `${location} parameter ${name}`, ctx);
  }
  if (location === "header") return; // Required headers are the credential's (Slack's token) or the broker's.
  const credentials = credentialParameters(ctx.doc);
  for (const parameter of declared.filter((p) => p.required === true && !credentials.has(`${p.in}:${p.name}`))) {
    const name = parameter.name as string;
    if ((name in templates && alwaysSent(templates[name], ctx.args)) || name in (minimal ?? built)) continue;
    ctx.problems.push(`required query parameter ${name} of ${ctx.owner} is ${name in templates ? `sent only when its optional argument is given (${JSON.stringify(templates[name])})` : "not sent"}`);
  }
}

/** Parameters that carry the credential (the description's apiKey schemes, Trello's key and token): the broker sends those. */
function credentialParameters(doc: OpenApiDocument): Set<string> {
  const schemes = Object.values((doc.components?.securitySchemes ?? {}) as Record<string, Json>);
  return new Set(schemes.filter((scheme) => scheme.type === "apiKey").map((scheme) => `${scheme.in}:${scheme.name}`));
}

const MEDIA = { json: (type: string) => /json/i.test(type) || type === "*/*", form: (type: string) => /x-www-form-urlencoded|multipart\/form-data/i.test(type) };

/** The body template (with what a hook added) against the request body of the encoding the tool sends. */
function checkBody(tool: ToolDeclaration, built: BuiltRequests, found: MatchedOperation, ctx: CheckContext) {
  const template = tool.request.body;
  const bodyOf = (request: UpstreamRequest | undefined) => request?.form ?? request?.body;
  const builtBody: BuiltValues = { full: bodyOf(built.full), declared: bodyOf(built.declared), minimal: bodyOf(built.minimal) };
  const sends = template !== undefined || builtBody.full !== undefined;
  const requestBody = found.operation.requestBody ? deref(ctx.doc, found.operation.requestBody as Json) : undefined;
  if (!requestBody) {
    if (sends) ctx.problems.push(`${ctx.owner} takes no request body, but the tool sends one`);
    return;
  }
  if (!sends) {
    if (requestBody.required === true) ctx.problems.push(`${ctx.owner} requires a request body, but the tool sends none`);
    return;
  }
  const form = tool.request.body_encoding === "form";
  const contents = Object.entries((requestBody.content ?? {}) as Record<string, Json>).filter(([, content]) => content.schema);
  // A vendor may take more encodings than it describes (Slack takes JSON where it describes forms): the fields still have to be its.
  const chosen = contents.find(([type]) => (form ? MEDIA.form(type) : MEDIA.json(type))) ?? contents[0];
  if (!chosen) return;
  walkBodyTemplate(template, builtBody, viewsOf(ctx.doc, chosen[1].schema as Json), "", form, { ...ctx, owner: `the request body (${chosen[0]}) of ${ctx.owner}` });
}

export function checkTool(doc: OpenApiDocument, input: ToolUnderCheck): ToolCheckResult {
  const { tool } = input;
  const lookup = findOperation(doc, tool.request.method, tool.request.path, input.pathPrefix);
  if ("problem" in lookup) return { problems: [lookup.problem], notes: [] };
  const found = lookup.found;
  const label = `${found.method.toUpperCase()} ${found.path}`;
  const problems: string[] = [];
  const ctx: CheckContext = { doc, args: toolArguments(tool), problems, owner: label };
  const built = exampleRequests(input, ctx.args, problems);
  checkPath(found, ctx);
  checkParameters("query", tool.request.query ?? {}, asText(built.full?.query), built.minimal && asText(built.minimal.query), found, ctx);
  checkParameters("header", tool.request.headers ?? {}, withoutTemplates(built.full?.headers ?? {}, tool.request.headers ?? {}), undefined, found, ctx);
  checkBody(tool, built, found, ctx);
  const response = checkResponseMapping(doc, found.operation, found.parameters, label, tool);
  problems.push(...response.problems);
  return { operation: label, problems: [...new Set(problems)], notes: response.notes };
}

const asText = (values: Record<string, unknown> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(values ?? {}).filter(([, value]) => value !== undefined).map(([name, value]) => [name, String(value)]));

/** Built headers are lower-cased: those the template names are checked through it. */
function withoutTemplates(built: Record<string, string>, templates: Record<string, string>) {
  const declared = new Set(Object.keys(templates).map((name) => name.toLowerCase()));
  return Object.fromEntries(Object.entries(built).filter(([name]) => !declared.has(name.toLowerCase())));
}
