/**
 * Whether what a tool sends fits what the vendor's description takes: one value (an argument, a
 * fixed value of the template, text built from a template, or a value a hook added) against a
 * parameter's or a body field's schema, and a whole body template against the request body.
 */
import { isDeepStrictEqual } from "node:util";
import {
  allowsType,
  describeTypes,
  itemViews,
  propertyOf,
  typesOf,
  viewsOfAll,
  type Json,
  type OpenApiDocument,
  type SchemaView,
} from "./schema-views.js";

const WHOLE_PLACEHOLDER = /^\{([A-Za-z_][A-Za-z0-9_-]{0,99})\}$/;
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_-]{0,99})\}/g;

/** The tool's arguments schema, as the checks need it. */
export type ToolArguments = { properties: Record<string, Json>; required: Set<string> };

/** Where a value comes from. */
export type ValueSource =
  | { kind: "argument"; name: string; schema: Json; always: boolean }
  | { kind: "literal"; value: unknown }
  | { kind: "text"; always: boolean; arguments: string[] };

export type CheckContext = {
  doc: OpenApiDocument;
  args: ToolArguments;
  problems: string[];
  /** "the request body of POST /x": said after a field's name. */
  owner: string;
};

/** What a template string sends: one argument as it is, a fixed value, or text. */
export function classifyTemplate(template: string, args: ToolArguments): ValueSource {
  const whole = WHOLE_PLACEHOLDER.exec(template);
  if (whole) {
    const name = whole[1]!;
    return { kind: "argument", name, schema: args.properties[name] ?? {}, always: args.required.has(name) };
  }
  const names = [...template.matchAll(PLACEHOLDER)].map((match) => match[1]!);
  if (!names.length) return { kind: "literal", value: template };
  return { kind: "text", always: names.every((name) => args.required.has(name)), arguments: names };
}

/** A template value is always in the request: a fixed value, or built only from required arguments. */
export function alwaysSent(template: unknown, args: ToolArguments): boolean {
  if (typeof template !== "string") return true;
  const source = classifyTemplate(template, args);
  return source.kind === "literal" || source.always;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The types an argument's schema allows (its enum's when it names no type). */
function argumentTypes(schema: Json): string[] {
  if (typeof schema.type === "string") return [schema.type];
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (Array.isArray(schema.enum)) return [...new Set((schema.enum as unknown[]).map(jsonTypeOf))];
  return [];
}

/** Text (a query or path value, a form field) that parses as the type. */
const TEXT_FORMS: Record<string, RegExp> = { integer: /^-?\d+$/, number: /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/, boolean: /^(true|false)$/ };

/** Whether a value of `type` fits the views; as text, anything fits a string, and one value fits an array of them. */
function typeFits(type: string, views: SchemaView[], textual: boolean, doc: OpenApiDocument): boolean {
  if (views.some((view) => allowsType(view, type))) return true;
  if (!textual) return false;
  if (views.some((view) => allowsType(view, "string"))) return true;
  const items = type === "array" || type === "object" ? undefined : itemViews(doc, views);
  return items !== undefined && items.some((view) => allowsType(view, type));
}

/** The enum values the views accept, or undefined when one of them takes any value. */
function enumOf(views: SchemaView[]): Set<unknown> | undefined {
  const out = new Set<unknown>();
  for (const view of views) {
    if (!view.enumValues) return undefined;
    for (const value of view.enumValues) out.add(value);
  }
  return out;
}

function checkEnum(values: unknown[], views: SchemaView[], textual: boolean, what: string, ctx: CheckContext) {
  const allowed = enumOf(views);
  if (!allowed) return;
  const allowedText = new Set([...allowed].map((value) => String(value)));
  const outside = values.filter((value) => !allowed.has(value) && !(textual && allowedText.has(String(value))));
  if (outside.length) ctx.problems.push(`${what}: ${outside.map((v) => JSON.stringify(v)).join(", ")} not among the description's values (${[...allowed].map((v) => JSON.stringify(v)).join(", ")})`);
}

/** One value against the schema it is sent as. `what` names it in a problem ("query parameter per_page"). */
export function checkValue(source: ValueSource, views: SchemaView[], textual: boolean, what: string, ctx: CheckContext): void {
  const expected = describeTypes(typesOf(views));
  if (source.kind === "literal") {
    const type = jsonTypeOf(source.value);
    const fits = typeFits(type, views, textual, ctx.doc) || (textual && typeof source.value === "string" && Object.entries(TEXT_FORMS).some(([t, form]) => form.test(source.value as string) && views.some((view) => allowsType(view, t))));
    if (!fits) ctx.problems.push(`${what}: the fixed value ${JSON.stringify(source.value)} is ${type}, the description's is ${expected}`);
    else if (type !== "object" && type !== "array") checkEnum([source.value], views, textual, what, ctx);
    else walkValue(source.value, views, what, ctx);
    return;
  }
  if (source.kind === "text") {
    if (!typeFits("string", views, textual, ctx.doc)) ctx.problems.push(`${what}: text built from ${source.arguments.join(", ")} is a string, the description's is ${expected}`);
    return;
  }
  checkArgument(source.schema, views, textual, `${what} (argument ${source.name})`, ctx);
}

/** A pattern of digit classes only (`^[0-9]{1,20}$`, `^[1-9][0-9]{0,15}$`, `^\d+$`). */
const DIGITS_ONLY = /^\^((\[\d-\d\]|\\d)(\{\d+(,\d*)?\}|[+*?])?)+\$$/;

/** An argument's schema against the description's: types, enum values and, inside, properties and items. */
function checkArgument(schema: Json, views: SchemaView[], textual: boolean, what: string, ctx: CheckContext): void {
  const types = argumentTypes(schema).filter((type) => type !== "null");
  // As text (a path or query value), a string of digits only is an integer too (Confluence's page ids).
  const digitsOnly = textual && typeof schema.pattern === "string" && DIGITS_ONLY.test(schema.pattern);
  const misfits = types.filter((type) => !typeFits(type, views, textual, ctx.doc) && !(digitsOnly && type === "string" && typeFits("integer", views, true, ctx.doc)));
  if (misfits.length) {
    ctx.problems.push(`${what}: the argument is ${types.join(" | ")}, the description's is ${describeTypes(typesOf(views))}`);
    return;
  }
  if (Array.isArray(schema.enum)) checkEnum(schema.enum as unknown[], views, textual, what, ctx);
  if (textual) return;
  if (types.includes("array") && schema.items) {
    const items = itemViews(ctx.doc, views);
    if (items) checkArgument(schema.items as Json, items, false, `${what} items`, ctx);
  }
  if (types.includes("object") && schema.properties) {
    const properties = schema.properties as Record<string, Json>;
    for (const [name, property] of Object.entries(properties)) {
      const lookup = propertyOf(views, name);
      if (!lookup.found) ctx.problems.push(`${what}: property ${name} is not in the description's schema${knownList(lookup.known)}`);
      else if (!lookup.freeForm) checkArgument(property, viewsOfAll(ctx.doc, lookup.schemas), false, `${what}.${name}`, ctx);
    }
    const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
    checkRequired(views, (name) => required.has(name), (name) => (name in properties ? "optional in the argument's schema" : "not in the argument's schema"), what, ctx);
  }
}

/** A value the tool sends whatever the arguments (a fixed object, or what a hook built): names and types. */
export function walkValue(value: unknown, views: SchemaView[], where: string, ctx: CheckContext): void {
  const type = jsonTypeOf(value);
  if (!typeFits(type, views, false, ctx.doc)) {
    ctx.problems.push(`${where}: the value sent is ${type}, the description's is ${describeTypes(typesOf(views))}`);
    return;
  }
  if (type === "array") {
    const items = itemViews(ctx.doc, views);
    if (items) (value as unknown[]).forEach((item) => walkValue(item, items, `${where}/items`, ctx));
  } else if (type === "object") {
    for (const [key, child] of Object.entries(value as Json)) {
      const lookup = propertyOf(views, key);
      if (!lookup.found) ctx.problems.push(`${where}/${key} is not a property of ${ctx.owner}${knownList(lookup.known)}`);
      else if (!lookup.freeForm) walkValue(child, viewsOfAll(ctx.doc, lookup.schemas), `${where}/${key}`, ctx);
    }
  } else checkEnum([value], views, false, where, ctx);
}

export const knownList = (known: string[]) => (known.length ? ` (it has: ${known.slice(0, 40).join(", ")}${known.length > 40 ? ", …" : ""})` : "");

/**
 * OData annotations (`@odata.type`): Microsoft Graph's description marks them required on every
 * entity, while Graph infers them from the URL and its reference never sends them.
 */
const isAnnotation = (name: string) => name.startsWith("@odata.");

/**
 * The object alternatives' required names are sent: some alternative has every one of them.
 * `whyMissing` says what is wrong with a name that is not.
 */
function checkRequired(views: SchemaView[], isSent: (name: string) => boolean, whyMissing: (name: string) => string, where: string, ctx: CheckContext) {
  const objects = views.filter((view) => allowsType(view, "object"));
  if (!objects.length) return;
  const missingByView = objects.map((view) => [...view.required].filter((name) => !isSent(name) && !isAnnotation(name)));
  if (missingByView.some((missing) => missing.length === 0)) return;
  const fewest = missingByView.reduce((a, b) => (b.length < a.length ? b : a));
  for (const name of fewest) ctx.problems.push(`required ${where}/${name} of ${ctx.owner} is ${whyMissing(name)}`);
}

/**
 * What the tool's example arguments put at one place of the request: after its request hook
 * (`full`), before it (`declared`), and after it from the required arguments alone (`minimal`,
 * undefined when those build nothing). A hook that changed a value is the value's author; one that
 * adds a field from the required arguments alone always sends it.
 */
export type BuiltValues = { full: unknown; declared: unknown; minimal: unknown };

const fieldOf = (value: unknown, name: string) => (value && typeof value === "object" && !Array.isArray(value) ? (value as Json)[name] : undefined);
export const builtField = (built: BuiltValues, name: string): BuiltValues => ({ full: fieldOf(built.full, name), declared: fieldOf(built.declared, name), minimal: fieldOf(built.minimal, name) });
const hookRewrote = (built: BuiltValues) => built.full !== undefined && !isDeepStrictEqual(built.full, built.declared);

/**
 * A body template (and the body the hook built from the example arguments, for what the template
 * does not say or the hook rewrote) against the request body schema. Form fields are text; a
 * nested value in one is sent as JSON text.
 */
export function walkBodyTemplate(template: unknown, built: BuiltValues, views: SchemaView[], where: string, form: boolean, ctx: CheckContext): void {
  if (template === undefined || (typeof template === "string" && hookRewrote(built))) {
    if (built.full !== undefined) walkValue(built.full, views, where || "the body", ctx);
    return;
  }
  if (typeof template === "string") {
    checkValue(classifyTemplate(template, ctx.args), views, form, where || "the body", ctx);
    return;
  }
  if (form && where !== "" && typeof template === "object" && template !== null) {
    checkValue({ kind: "text", always: true, arguments: ["a nested value (sent as JSON text)"] }, views, true, where, ctx);
    return;
  }
  if (Array.isArray(template)) {
    if (!typeFits("array", views, false, ctx.doc)) ctx.problems.push(`${where || "the body"}: the tool sends an array, the description's is ${describeTypes(typesOf(views))}`);
    else {
      const items = itemViews(ctx.doc, views);
      const none = { full: undefined, declared: undefined, minimal: undefined };
      if (items) template.forEach((item) => walkBodyTemplate(item, none, items, `${where}/items`, false, ctx));
    }
    return;
  }
  if (template === null || typeof template !== "object") {
    checkValue({ kind: "literal", value: template }, views, form, where || "the body", ctx);
    return;
  }
  if (!typeFits("object", views, false, ctx.doc)) {
    ctx.problems.push(`${where || "the body"}: the tool sends an object, the description's is ${describeTypes(typesOf(views))}`);
    return;
  }
  const fields = template as Json;
  const fullFields = built.full && typeof built.full === "object" && !Array.isArray(built.full) ? (built.full as Json) : {};
  const names = new Set([...Object.keys(fields), ...Object.keys(fullFields)]);
  for (const name of names) {
    const lookup = propertyOf(views, name);
    if (!lookup.found) {
      ctx.problems.push(`${where}/${name} is not a property of ${ctx.owner}${knownList(lookup.known)}`);
      continue;
    }
    if (lookup.freeForm) continue;
    walkBodyTemplate(fields[name], builtField(built, name), viewsOfAll(ctx.doc, lookup.schemas), `${where}/${name}`, form, ctx);
  }
  const sentByHook = (name: string) => fieldOf(built.minimal ?? built.full, name) !== undefined;
  const isSent = (name: string) => (name in fields && alwaysSent(fields[name], ctx.args)) || sentByHook(name);
  checkRequired(views, isSent, (name) => (name in fields ? `sent only when its optional argument is given (${JSON.stringify(fields[name])})` : "not sent"), where, ctx);
}
