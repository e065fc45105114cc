/**
 * An OpenAPI document's local `$ref`s, followed only where an operation needs them, and its
 * schemas turned into draft-07-compatible argument schemas. The document is never dereferenced as
 * a whole: refs that form a DAG would copy an exponential tree (a 2 kB document of 15 levels, each
 * referring twice to the next, is 2^16 schemas). Every schema object produced is counted against a
 * budget per tool and per import instead, and a document that exceeds one is refused.
 */
export type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** Published in docs/catalogue.md; an arguments schema that fits the 64 kB declaration limit is far below them. */
export const IMPORT_LIMITS = {
  /** Schema objects one tool's arguments schema may expand to, shared `$ref`s counted each time they are inlined. */
  schemaNodesPerTool: 10_000,
  /** Schema objects all the tools of one import may expand to. */
  schemaNodesPerImport: 200_000,
  /** Bytes of JSON all the tools' arguments schemas of one import may add up to (text a `$ref` names counts each time it is inlined). */
  schemaBytesPerImport: 16 * 1024 * 1024,
  /** How deeply a schema may nest while it is converted. */
  schemaDepth: 64,
  /** Tools one import may create (the tools-per-tenant limit is the same number). */
  toolsPerImport: 2_000,
} as const;

/** The document (or the import request) is unusable as a whole; `path` points into the document where known. */
export class OpenApiImportError extends Error {
  constructor(
    message: string,
    readonly path?: string,
    /** Set when a documented limit was exceeded: which one, and its value. */
    readonly limit?: { name: keyof typeof IMPORT_LIMITS; max: number },
  ) {
    super(message);
    this.name = "OpenApiImportError";
  }
}

/** An operation needs a `$ref` the import does not follow (external or circular): the operation is skipped. */
export class UnresolvedRef extends Error {
  constructor(readonly ref: string) {
    super(`unresolved $ref "${ref}" (external and circular references are not followed)`);
  }
}

const MAX_REF_CHAIN = 32;

/** Counts schema objects produced for the current tool and for the whole import. */
export function createSchemaBudget() {
  let forImport = 0;
  let forTool = 0;
  let bytes = 0;
  let path = "/paths";
  return {
    /** `pointer`: where in the document the tool's operation is, for the error. */
    startTool(pointer: string) {
      forTool = 0;
      path = pointer;
    },
    spend() {
      forTool += 1;
      forImport += 1;
      if (forTool > IMPORT_LIMITS.schemaNodesPerTool) {
        throw new OpenApiImportError(`an operation's arguments expand to more than ${IMPORT_LIMITS.schemaNodesPerTool} schema objects (shared $refs count each time they are used)`, path, { name: "schemaNodesPerTool", max: IMPORT_LIMITS.schemaNodesPerTool });
      }
      if (forImport > IMPORT_LIMITS.schemaNodesPerImport) {
        throw new OpenApiImportError(`the operations' arguments expand to more than ${IMPORT_LIMITS.schemaNodesPerImport} schema objects in all (shared $refs count each time they are used)`, path, { name: "schemaNodesPerImport", max: IMPORT_LIMITS.schemaNodesPerImport });
      }
    },
    /** A tool's arguments schema, as JSON text, was produced. */
    spendBytes(length: number) {
      bytes += length;
      if (bytes > IMPORT_LIMITS.schemaBytesPerImport) {
        throw new OpenApiImportError(`the operations' arguments schemas add up to more than ${IMPORT_LIMITS.schemaBytesPerImport} bytes of JSON`, path, { name: "schemaBytesPerImport", max: IMPORT_LIMITS.schemaBytesPerImport });
      }
    },
  };
}
export type SchemaBudget = ReturnType<typeof createSchemaBudget>;

/** RFC 6901 reference tokens of a URI fragment (`#/components/schemas/A~1B`). */
const tokensOf = (ref: string) => ref.slice(2).split("/").map((token) => decodeURIComponent(token).replace(/~1/g, "/").replace(/~0/g, "~"));

/** The document's local references; anything else (a URL, a file) is never fetched. */
export function createLocalRefs(document: Json) {
  function target(ref: string): unknown {
    if (ref === "#") return document;
    if (!ref.startsWith("#/")) throw new UnresolvedRef(ref);
    let current: unknown = document;
    for (const token of tokensOf(ref)) {
      if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(token)) current = current[Number(token)];
      else if (isObject(current) && Object.hasOwn(current, token)) current = current[token];
      else throw new OpenApiImportError(`the document's references cannot be resolved: "${ref}" names nothing in the document`, ref.slice(1));
    }
    return current;
  }

  return {
    target,
    /** A parameter, request body, media type or path item, with its `$ref` chain followed. */
    follow(value: unknown): unknown {
      let current = value;
      for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
        if (hops >= MAX_REF_CHAIN) throw new UnresolvedRef(current.$ref);
        current = target(current.$ref);
      }
      return current;
    },
  };
}
export type LocalRefs = ReturnType<typeof createLocalRefs>;

// Keywords that are OpenAPI-only or would clash once many tools share one Ajv instance.
const DROPPED = new Set(["xml", "discriminator", "nullable", "externalDocs", "$id", "$schema"]);
const SUBSCHEMA = new Set(["items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames", "additionalItems", "unevaluatedItems", "unevaluatedProperties"]);
const SUBSCHEMA_LISTS = new Set(["allOf", "anyOf", "oneOf", "prefixItems", "items"]);
const SUBSCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const COMPOSITION = ["allOf", "anyOf", "oneOf", "not"];

type Conversion = { refs: LocalRefs; budget: SchemaBudget; inBody: boolean; expanding: string[] };

/**
 * A fresh draft-07-compatible copy of `schema` with local `$ref`s inlined (siblings of a `$ref`
 * override what it names, as OpenAPI 3.1 reads them). A `$ref` already being inlined above is
 * circular, and one outside the document is never followed: both throw UnresolvedRef.
 */
export function toJsonSchema(schema: unknown, options: { refs: LocalRefs; budget: SchemaBudget; inBody: boolean }): unknown {
  return convert(schema, { ...options, expanding: [] }, 0);
}

function convert(schema: unknown, conversion: Conversion, depth: number): unknown {
  if (!isObject(schema)) return schema;
  if (typeof schema.$ref === "string") return inlined(schema, schema.$ref, conversion, depth);
  if (depth > IMPORT_LIMITS.schemaDepth) {
    throw new OpenApiImportError(`a schema nests deeper than ${IMPORT_LIMITS.schemaDepth} levels`, undefined, { name: "schemaDepth", max: IMPORT_LIMITS.schemaDepth });
  }
  conversion.budget.spend();
  const sub = (value: unknown) => convert(value, conversion, depth + 1);
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key)) continue;
    if (SUBSCHEMA_MAPS.has(key) && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, sub(item)]));
    else if (SUBSCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(sub);
    else if (SUBSCHEMA.has(key)) out[key] = sub(value);
    else out[key] = value;
  }
  exclusiveBounds(out, "exclusiveMinimum", "minimum");
  exclusiveBounds(out, "exclusiveMaximum", "maximum");
  // The server fills readOnly properties; a caller sending them would be rejected or ignored.
  if (conversion.inBody && isObject(out.properties)) withoutReadOnly(out, out.properties);
  return schema.nullable === true ? nullable(out) : out;
}

function inlined(schema: Json, ref: string, conversion: Conversion, depth: number): unknown {
  if (conversion.expanding.includes(ref)) throw new UnresolvedRef(ref);
  const named = conversion.refs.target(ref);
  const { $ref: _ref, ...siblings } = schema;
  conversion.expanding.push(ref);
  try {
    return convert(isObject(named) ? { ...named, ...siblings } : named, conversion, depth);
  } finally {
    conversion.expanding.pop();
  }
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

/** A `$ref` left in a converted schema (in a keyword that is not a subschema): Ajv could not compile it. */
export function firstRef(value: unknown, seen = new WeakSet<object>()): string | undefined {
  if (typeof value !== "object" || value === null || seen.has(value)) return undefined;
  seen.add(value);
  if (!Array.isArray(value) && typeof (value as Json).$ref === "string") return (value as Json).$ref as string;
  for (const child of Array.isArray(value) ? value : Object.values(value)) {
    const ref = firstRef(child, seen);
    if (ref !== undefined) return ref;
  }
  return undefined;
}
