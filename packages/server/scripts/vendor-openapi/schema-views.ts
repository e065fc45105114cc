/**
 * Reading an OpenAPI 3.x description's schemas the way a checker needs them: `$ref` followed,
 * `allOf` merged, `oneOf`/`anyOf` kept as alternatives. A "view" is one alternative, flat: its
 * types, its properties (still raw schemas, so cycles in the description cost nothing until
 * they are walked), what it says of other properties, and its items.
 */

export type Json = Record<string, any>;
export type OpenApiDocument = Json & { paths: Record<string, Json>; components?: Record<string, Record<string, Json>> };

/** One alternative of a schema. `types` undefined means any type. */
export type SchemaView = {
  types: Set<string> | undefined;
  properties: Map<string, Json>;
  required: Set<string>;
  /** false: no other property; a schema: every other property's; undefined: unconstrained. */
  additional: Json | false | undefined;
  items: Json | undefined;
  enumValues: unknown[] | undefined;
};

const MAX_ALTERNATIVES = 64;

/** The value a local reference (`#/components/schemas/x`) names. */
export function lookupRef(doc: OpenApiDocument, ref: string): Json {
  if (!ref.startsWith("#/")) throw new Error(`only local references are followed, not ${ref}`);
  let current: any = doc;
  for (const raw of ref.slice(2).split("/")) {
    const token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    current = current?.[token];
  }
  if (current === undefined) throw new Error(`the reference ${ref} names nothing in the description`);
  return current as Json;
}

/** Follows `$ref` until a value that is not one. */
export function deref(doc: OpenApiDocument, value: Json): Json {
  let current = value;
  for (let hops = 0; current && typeof current.$ref === "string"; hops++) {
    if (hops > 50) throw new Error(`reference loop at ${current.$ref}`);
    current = lookupRef(doc, current.$ref);
  }
  return current;
}

/** The types a schema names; none named is any (`properties` or `items` alone constrain only objects or arrays). */
function ownTypes(schema: Json): Set<string> | undefined {
  const declared = schema.type;
  let types: Set<string> | undefined;
  if (typeof declared === "string") types = new Set([declared]);
  else if (Array.isArray(declared)) types = new Set(declared as string[]);
  if (types && schema.nullable === true) types.add("null");
  return types;
}

function ownView(schema: Json): SchemaView {
  return {
    types: ownTypes(schema),
    properties: new Map(Object.entries((schema.properties ?? {}) as Record<string, Json>)),
    required: new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []),
    additional: schema.additionalProperties === false ? false : schema.additionalProperties === true ? undefined : schema.additionalProperties,
    items: schema.items,
    enumValues: Array.isArray(schema.enum) ? schema.enum : undefined,
  };
}

function intersectTypes(a: Set<string> | undefined, b: Set<string> | undefined): Set<string> | undefined {
  if (!a) return b;
  if (!b) return a;
  const out = new Set<string>();
  for (const type of a) {
    if (b.has(type)) out.add(type);
    else if (type === "integer" && b.has("number")) out.add("integer");
  }
  for (const type of b) if (type === "integer" && a.has("number")) out.add("integer");
  return out;
}

/** Both at once (allOf): every property of either, every requirement of either. */
function mergeViews(a: SchemaView, b: SchemaView): SchemaView {
  const properties = new Map(a.properties);
  for (const [name, schema] of b.properties) if (!properties.has(name)) properties.set(name, schema);
  return {
    types: intersectTypes(a.types, b.types),
    properties,
    required: new Set([...a.required, ...b.required]),
    additional: a.additional === false || b.additional === false ? false : (a.additional ?? b.additional),
    items: a.items ?? b.items,
    enumValues: a.enumValues ?? b.enumValues,
  };
}

/** Every alternative a schema allows, each flat. */
export function viewsOf(doc: OpenApiDocument, schema: Json | undefined, depth = 0): SchemaView[] {
  if (schema === undefined || depth > 30) return [ownView({})];
  const resolved = deref(doc, schema);
  let views = [ownView(resolved)];
  for (const member of (resolved.allOf ?? []) as Json[]) {
    const memberViews = viewsOf(doc, member, depth + 1);
    views = views.flatMap((view) => memberViews.map((other) => mergeViews(view, other))).slice(0, MAX_ALTERNATIVES);
  }
  const alternatives = [...((resolved.oneOf ?? []) as Json[]), ...((resolved.anyOf ?? []) as Json[])];
  if (alternatives.length) {
    const branchViews = alternatives.flatMap((branch) => viewsOf(doc, branch, depth + 1));
    views = views.flatMap((view) => branchViews.map((branch) => mergeViews(view, branch))).slice(0, MAX_ALTERNATIVES);
  }
  return views;
}

export const allowsType = (view: SchemaView, type: string) => !view.types || view.types.has(type) || (type === "integer" && view.types.has("number"));

/** The types any of the views allows; undefined when one allows any. */
export function typesOf(views: SchemaView[]): Set<string> | undefined {
  const out = new Set<string>();
  for (const view of views) {
    if (!view.types) return undefined;
    for (const type of view.types) out.add(type);
  }
  return out;
}

/** An object view that says nothing of its properties: any name is one of its. */
const isFreeForm = (view: SchemaView) => view.properties.size === 0 && view.additional === undefined;

export type PropertyLookup = { found: true; schemas: Json[]; freeForm: boolean } | { found: false; known: string[] };

/** A property of the object alternatives among the views (through `additionalProperties` too). */
export function propertyOf(views: SchemaView[], name: string): PropertyLookup {
  const schemas: Json[] = [];
  let freeForm = false;
  const known = new Set<string>();
  for (const view of views) {
    if (!allowsType(view, "object")) continue;
    const property = view.properties.get(name);
    if (property) schemas.push(property);
    else if (view.additional && typeof view.additional === "object") schemas.push(view.additional);
    else if (isFreeForm(view)) freeForm = true;
    for (const key of view.properties.keys()) known.add(key);
  }
  if (schemas.length || freeForm) return { found: true, schemas, freeForm: freeForm && !schemas.length };
  return { found: false, known: [...known].sort() };
}

/** The views of several schemas at once (a property found in several alternatives). */
export const viewsOfAll = (doc: OpenApiDocument, schemas: Json[]) => (schemas.length ? schemas.flatMap((schema) => viewsOf(doc, schema)) : [ownView({})]);

/** The item views of the array alternatives. */
export function itemViews(doc: OpenApiDocument, views: SchemaView[]): SchemaView[] | undefined {
  const arrays = views.filter((view) => allowsType(view, "array") && (view.types !== undefined || view.items !== undefined));
  if (!arrays.length) return undefined;
  return arrays.flatMap((view) => viewsOf(doc, view.items));
}

export const describeTypes = (types: Set<string> | undefined) => (types ? [...types].sort().join(" | ") || "nothing" : "any");
