/**
 * The rules model APIs hold function-parameter schemas to, written from their documentation (not
 * from the client's adapters, which these rules check). Each returns the faults it finds, with the
 * JSON pointer of the node, so a failing tool says where.
 *
 * - OpenAI structured outputs / strict function calling
 *   (platform.openai.com/docs/guides/structured-outputs, "Supported schemas"): the root is an
 *   object; every object has `additionalProperties: false` and lists all its properties in
 *   `required`; only the supported keywords and string formats; at most 5 levels of object nesting
 *   and 100 object properties in all; at most 500 enum values in all.
 * - Gemini function declarations (ai.google.dev/api/caching#Schema, an OpenAPI 3.0 subset): only
 *   the Schema object's fields; `type` one name, never a list (nullable instead); `enum` only of
 *   strings on a string; `format` only those it names per type; an object names its properties;
 *   an array names its items; `required` names declared properties.
 * - The broker's own model-safe rules for declarations (the team brief of issue 37): each argument
 *   schema is an object with `additionalProperties: false`, every property has a `type` and a
 *   `description`, and none uses `$ref`, `oneOf`, `allOf`, type lists, `const`, non-string enums
 *   or free-form objects.
 */
type Schema = Record<string, unknown>;
const isObject = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);
/** Where a fault is: the node's JSON pointer, `/` for the root. */
const at = (pointer: string) => pointer || "/";
const child = (pointer: string, ...tokens: (string | number)[]) => `${pointer}/${tokens.map((t) => String(t).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;

const OPENAI_KEYWORDS = new Set([
  "type", "description", "title", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref", "$defs",
  "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
]);
const OPENAI_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);
const OPENAI_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);
export const OPENAI_LIMITS = { nesting: 5, properties: 100, enumValues: 500 } as const;

/** Faults of a schema given to OpenAI with `strict: true`. */
export function openAIStrictFaults(root: Schema): string[] {
  const faults: string[] = [];
  let properties = 0;
  let enumValues = 0;
  if (root.type !== "object" || "anyOf" in root) faults.push("/: the root must be an object schema, not anyOf");
  const visit = (node: unknown, pointer: string, depth: number) => {
    if (!isObject(node)) return void faults.push(`${at(pointer)}: not a schema object`);
    for (const keyword of Object.keys(node)) if (!OPENAI_KEYWORDS.has(keyword)) faults.push(`${at(pointer)}: keyword ${keyword} is not supported in strict mode`);
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    if (types.length === 0 && !("anyOf" in node) && !("enum" in node) && !("const" in node) && !("$ref" in node)) faults.push(`${at(pointer)}: has no type`);
    for (const type of types) if (!OPENAI_TYPES.has(String(type))) faults.push(`${at(pointer)}: type ${String(type)} is not supported`);
    if (typeof node.format === "string" && !OPENAI_FORMATS.has(node.format)) faults.push(`${at(pointer)}: format ${node.format} is not supported`);
    if (Array.isArray(node.enum)) enumValues += node.enum.length;
    if (types.includes("object") || isObject(node.properties)) {
      if (depth > OPENAI_LIMITS.nesting) faults.push(`${at(pointer)}: objects nest ${depth} levels deep (at most ${OPENAI_LIMITS.nesting})`);
      if (node.additionalProperties !== false) faults.push(`${at(pointer)}: additionalProperties must be false`);
      const names = Object.keys(isObject(node.properties) ? node.properties : {});
      properties += names.length;
      const required = Array.isArray(node.required) ? node.required : [];
      const missing = names.filter((name) => !required.includes(name));
      if (missing.length) faults.push(`${at(pointer)}: every property must be required (missing ${missing.join(", ")})`);
      for (const name of names) visit((node.properties as Schema)[name], child(pointer, "properties", name), depth + 1);
    }
    if (node.items !== undefined) visit(node.items, child(pointer, "items"), depth);
    if (Array.isArray(node.anyOf)) node.anyOf.forEach((branch, index) => visit(branch, child(pointer, "anyOf", index), depth));
  };
  visit(root, "", 0);
  if (properties > OPENAI_LIMITS.properties) faults.push(`/: ${properties} object properties in all (at most ${OPENAI_LIMITS.properties})`);
  if (enumValues > OPENAI_LIMITS.enumValues) faults.push(`/: ${enumValues} enum values in all (at most ${OPENAI_LIMITS.enumValues})`);
  return faults;
}

const GEMINI_FIELDS = new Set([
  "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties", "required",
  "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "anyOf", "items", "minimum", "maximum", "propertyOrdering",
]);
const GEMINI_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array"]);
const GEMINI_FORMATS: Record<string, Set<string>> = { string: new Set(["enum", "date-time"]), number: new Set(["float", "double"]), integer: new Set(["int32", "int64"]) };

/** Faults of a schema given to Gemini as function parameters (`undefined`: no parameters at all). */
export function geminiFaults(root: Schema | undefined): string[] {
  if (root === undefined) return [];
  const faults: string[] = [];
  if (String(root.type).toLowerCase() !== "object") faults.push("/: parameters must be an object schema");
  const visit = (node: unknown, pointer: string) => {
    if (!isObject(node)) return void faults.push(`${at(pointer)}: not a schema object`);
    for (const keyword of Object.keys(node)) if (!GEMINI_FIELDS.has(keyword)) faults.push(`${at(pointer)}: field ${keyword} is not in Gemini's Schema`);
    if (Array.isArray(node.type)) faults.push(`${at(pointer)}: type is a list (Gemini takes one type and nullable)`);
    const type = typeof node.type === "string" ? node.type.toLowerCase() : undefined;
    if (type === undefined && !Array.isArray(node.anyOf)) faults.push(`${at(pointer)}: has no type`);
    if (type !== undefined && !GEMINI_TYPES.has(type)) faults.push(`${at(pointer)}: type ${String(node.type)} is not one of Gemini's`);
    if (node.nullable !== undefined && typeof node.nullable !== "boolean") faults.push(`${at(pointer)}: nullable must be a boolean`);
    if (node.enum !== undefined) {
      if (type !== "string") faults.push(`${at(pointer)}: enum is only for strings`);
      if (!Array.isArray(node.enum) || !node.enum.every((value) => typeof value === "string")) faults.push(`${at(pointer)}: enum values must be strings`);
    }
    if (node.format !== undefined && !(type !== undefined && GEMINI_FORMATS[type]?.has(String(node.format)))) faults.push(`${at(pointer)}: format ${String(node.format)} is not one Gemini takes for ${type ?? "this"} type`);
    if (type === "object") {
      const properties = isObject(node.properties) ? node.properties : {};
      if (Object.keys(properties).length === 0) faults.push(`${at(pointer)}: an object must name its properties`);
      const required = Array.isArray(node.required) ? node.required : [];
      for (const name of required) if (!(String(name) in properties)) faults.push(`${at(pointer)}: required ${String(name)} is not a property`);
      for (const [name, property] of Object.entries(properties)) visit(property, child(pointer, "properties", name));
    }
    if (type === "array") {
      if (!isObject(node.items)) faults.push(`${at(pointer)}: an array must name its items`);
      else visit(node.items, child(pointer, "items"));
    }
    if (Array.isArray(node.anyOf)) node.anyOf.forEach((branch, index) => visit(branch, child(pointer, "anyOf", index)));
  };
  visit(root, "");
  return faults;
}

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array"]);

/** Faults of a declared arguments schema against the broker's model-safe rules. */
export function declarationFaults(root: Schema): string[] {
  const faults: string[] = [];
  if (root.type !== "object") faults.push("/: must be type object");
  const visit = (node: unknown, pointer: string, isProperty: boolean) => {
    if (!isObject(node)) return void faults.push(`${at(pointer)}: not a schema object`);
    for (const keyword of ["$ref", "oneOf", "allOf", "anyOf", "not", "const", "patternProperties", "if", "then", "else", "dependentSchemas"]) {
      if (keyword in node) faults.push(`${at(pointer)}: uses ${keyword}`);
    }
    if (Array.isArray(node.type)) faults.push(`${at(pointer)}: type is a list`);
    else if (typeof node.type !== "string" || !JSON_TYPES.has(node.type)) faults.push(`${at(pointer)}: needs a type`);
    if (isProperty && (typeof node.description !== "string" || node.description.trim().length === 0)) faults.push(`${at(pointer)}: needs a description`);
    if (node.enum !== undefined && (!Array.isArray(node.enum) || !node.enum.every((value) => typeof value === "string") || node.type !== "string")) faults.push(`${at(pointer)}: enum must be strings on a string`);
    if (node.type === "object") {
      if (!isObject(node.properties) || Object.keys(node.properties).length === 0) {
        if (pointer !== "") faults.push(`${at(pointer)}: a free-form object (no properties)`);
      }
      if (node.additionalProperties !== false) faults.push(`${at(pointer)}: additionalProperties must be false`);
      const properties = isObject(node.properties) ? node.properties : {};
      const required = Array.isArray(node.required) ? node.required : [];
      for (const name of required) if (!(String(name) in properties)) faults.push(`${at(pointer)}: required ${String(name)} is not a property`);
      for (const [name, property] of Object.entries(properties)) visit(property, child(pointer, "properties", name), true);
    }
    if (node.type === "array") {
      if (!isObject(node.items)) faults.push(`${at(pointer)}: an array needs items`);
      else visit(node.items, child(pointer, "items"), true);
    }
  };
  visit(root, "", false);
  return faults;
}
