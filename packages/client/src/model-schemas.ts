/**
 * Argument schemas rewritten for the JSON Schema dialects models enforce, deterministically:
 *
 * - **OpenAI strict mode** (`strict: true`): every object lists all its properties in `required`
 *   and has `additionalProperties: false`; an optional property becomes required and nullable
 *   (the model sends `null` for "not given", which `fromStrictArguments` removes again). Keywords
 *   strict mode does not take (`minLength`, `maxLength`, `default`, `examples`, …) move into the
 *   description as words, so the model still knows the limit and the broker still checks it.
 * - **Gemini function declarations** (an OpenAPI 3.0 subset): no `additionalProperties`, `const`,
 *   `$ref`, `oneOf`/`allOf`, type lists or non-string enums; `nullable` instead of `"null"`; only
 *   the formats its Schema names (`date-time` for strings; others become words).
 *
 * Anything a dialect cannot say is never silently widened into something the broker would refuse:
 * it is either kept as words in the description or the broker's own validation catches it.
 */
type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/** OpenAI strict mode: the keywords it accepts (supported types, string pattern/format, number and array bounds). */
export const OPENAI_STRICT_KEYWORDS = new Set([
  "type", "description", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf",
  "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "title",
]);
/** The string formats OpenAI strict mode knows. */
const OPENAI_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

/** Gemini's Schema object. */
export const GEMINI_KEYWORDS = new Set([
  "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties", "required",
  "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "anyOf", "items", "minimum", "maximum", "propertyOrdering",
]);

/** The formats Gemini's Schema names for each type; another (`email`, `uri`) is refused, so it goes into the description. */
const GEMINI_FORMATS: Record<string, Set<string>> = { string: new Set(["enum", "date-time"]), number: new Set(["float", "double"]), integer: new Set(["int32", "int64"]) };

/** Words for a keyword a dialect drops, so the model still reads the limit. */
function describeDropped(keyword: string, value: unknown): string | undefined {
  switch (keyword) {
    case "minLength":
      return `at least ${String(value)} character${value === 1 ? "" : "s"}`;
    case "maxLength":
      return `at most ${String(value)} character${value === 1 ? "" : "s"}`;
    case "exclusiveMinimum":
      return `greater than ${String(value)}`;
    case "exclusiveMaximum":
      return `less than ${String(value)}`;
    case "multipleOf":
      return `a multiple of ${String(value)}`;
    case "format":
      return `format ${String(value)}`;
    case "pattern":
      return `matching ${String(value)}`;
    case "default":
      return `default ${JSON.stringify(value)}`;
    case "enum":
    case "const":
      return `one of ${JSON.stringify(keyword === "const" ? [value] : value)}`;
    default:
      return undefined;
  }
}

function withNotes(schema: Schema, notes: string[]): Schema {
  if (notes.length === 0) return schema;
  const sentence = `${notes.join("; ")}.`;
  return { ...schema, description: typeof schema.description === "string" && schema.description ? `${schema.description} (${sentence})` : sentence.charAt(0).toUpperCase() + sentence.slice(1) };
}

/** Keeps the keywords a dialect takes; notes the others in the description. */
function keepKnown(schema: Schema, known: Set<string>, keep: (keyword: string, value: unknown) => boolean = () => true): Schema {
  const out: Schema = {};
  const notes: string[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (known.has(keyword) && keep(keyword, value)) out[keyword] = value;
    else {
      const note = describeDropped(keyword, value);
      if (note) notes.push(note);
    }
  }
  return withNotes(out, notes);
}

const typesOf = (schema: Schema): string[] => (Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === "string" ? [schema.type] : []);

function nullable(schema: Schema): Schema {
  const types = typesOf(schema);
  if (types.length === 0) return { anyOf: [schema, { type: "null" }] };
  return types.includes("null") ? schema : { ...schema, type: [...types, "null"], ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}) };
}

/** One schema node in OpenAI strict mode. */
export function toOpenAIStrictSchema(input: Schema): Schema {
  const schema = keepKnown(input, OPENAI_STRICT_KEYWORDS, (keyword, value) => keyword !== "format" || OPENAI_FORMATS.has(String(value)));
  if (isObject(schema.items)) schema.items = toOpenAIStrictSchema(schema.items);
  if (Array.isArray(schema.anyOf)) schema.anyOf = (schema.anyOf as Schema[]).map(toOpenAIStrictSchema);
  if (typesOf(schema).includes("object") || isObject(schema.properties)) {
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    schema.properties = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => {
        const strict = toOpenAIStrictSchema(isObject(property) ? property : {});
        return [name, required.has(name) ? strict : nullable(strict)];
      }),
    );
    schema.required = Object.keys(properties);
    schema.additionalProperties = false;
  }
  return schema;
}

/** One schema node in Gemini's function-declaration subset. */
export function toGeminiSchema(input: Schema): Schema {
  let source = input;
  if ("const" in source) source = { ...source, enum: [source.const] };
  const types = typesOf(source).filter((type) => type !== "null");
  const isNullable = typesOf(source).includes("null");
  const stringEnum = Array.isArray(source.enum) && (source.enum as unknown[]).every((value) => typeof value === "string");
  const geminiFormat = (value: unknown) => GEMINI_FORMATS[types[0] ?? ""]?.has(String(value)) === true;
  const schema = keepKnown(source, GEMINI_KEYWORDS, (keyword, value) => (keyword !== "enum" || stringEnum) && (keyword !== "format" || geminiFormat(value)));
  if (types.length > 0) schema.type = types[0];
  if (isNullable) schema.nullable = true;
  if (isObject(schema.items)) schema.items = toGeminiSchema(schema.items);
  if (Array.isArray(schema.anyOf)) schema.anyOf = (schema.anyOf as Schema[]).map(toGeminiSchema);
  if (isObject(schema.properties)) schema.properties = Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [name, toGeminiSchema(isObject(property) ? property : {})]));
  return schema;
}

/**
 * Arguments a model produced under a strict schema, as the broker takes them: `null` for a
 * property the tool's own schema leaves optional means "not given" and is removed, at any depth.
 */
export function fromStrictArguments(schema: Schema, args: unknown): unknown {
  if (!isObject(args) || !isObject(schema.properties)) {
    if (Array.isArray(args) && isObject(schema.items)) return args.map((item) => fromStrictArguments(schema.items as Schema, item));
    return args;
  }
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const properties = schema.properties;
  return Object.fromEntries(
    Object.entries(args)
      .filter(([name, value]) => !(value === null && !required.has(name) && !typesOf(isObject(properties[name]) ? properties[name] : {}).includes("null")))
      .map(([name, value]) => [name, isObject(properties[name]) ? fromStrictArguments(properties[name], value) : value]),
  );
}
