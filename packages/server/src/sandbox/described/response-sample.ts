/**
 * An answer for an operation: the description's own example when it fits the response schema,
 * else data generated from the schema (every property, one array item, values from `example`,
 * `default`, `enum` or the format). Deterministic, so a test can predict it.
 */
import type { DescribedOperation, IndexedDescription, JsonObject } from "./description.js";

export type SampledResponse = { status: number; contentType: string | undefined; body: unknown };

const MAX_DEPTH = 9;

/** The lowest 2xx response the operation declares (200 before 201 before 204), or `default`. */
export function successResponseOf(description: IndexedDescription, operation: DescribedOperation): { status: number; response: JsonObject } {
  const responses = (operation.operation.responses ?? {}) as JsonObject;
  const codes = Object.keys(responses).filter((code) => /^2(\d\d|XX)$/i.test(code)).sort();
  const code = codes[0];
  if (code) return { status: /X/i.test(code) ? 200 : Number(code), response: description.resolve(responses[code]) };
  return { status: 200, response: description.resolve(responses.default ?? {}) };
}

/** What the calling tool expects back: used when the description does not say what the vendor answers (Trello's bare "Success"). */
export type ToolExpectation = { schema: JsonObject; root: string; fields: string[] };

export function sampleResponse(
  description: IndexedDescription,
  operation: DescribedOperation,
  fits: (schema: JsonObject, value: unknown) => boolean,
  expected?: ToolExpectation,
): SampledResponse {
  const { status, response } = successResponseOf(description, operation);
  const content = (response.content ?? {}) as JsonObject;
  const entry = Object.entries(content).find(([type]) => /json/i.test(type)) ?? Object.entries(content)[0];
  if (!entry && status !== 204 && expected) {
    const body = sampleSchema(description, expected.schema, "", 0, []) ?? {};
    return { status, contentType: "application/json", body: fillMappedPointers(body, expected) };
  }
  if (!entry || status === 204) return { status, contentType: undefined, body: undefined };
  const [contentType, media] = entry as [string, JsonObject];
  const schema = (media.schema ?? {}) as JsonObject;
  for (const example of examplesOf(description, media)) if (fits(schema, example)) return { status, contentType, body: example };
  const body = sampleSchema(description, schema, "", 0, []) ?? {};
  const filled = fillMappedPointers(body, operation.operation["x-toolbroker-response"]);
  return { status, contentType, body: expected ? withExpected(description, filled, expected) : filled };
}

/**
 * Where the description leaves parts of the answer open (Notion's own description answers
 * `{type: object}`), what the calling tool's schema and mapping expect fills them; whatever the
 * description does say wins.
 */
function withExpected(description: IndexedDescription, body: unknown, expected: ToolExpectation): unknown {
  const fromTool = fillMappedPointers(sampleSchema(description, expected.schema, "", 0, []) ?? {}, expected);
  return mergeOver(fromTool, body);
}

function mergeOver(base: unknown, over: unknown): unknown {
  if (isPlainObject(base) && isPlainObject(over)) {
    const merged: JsonObject = { ...base };
    for (const [key, value] of Object.entries(over)) merged[key] = key in base ? mergeOver(base[key], value) : value;
    return merged;
  }
  if (Array.isArray(base) && Array.isArray(over)) return over.length === 0 ? base : over.map((item, index) => mergeOver(base[index] ?? base[0], item));
  return over === undefined ? base : over;
}

/** A derived operation's answer gets a value wherever the tool's mapping will look (its schema may not name those fields). */
function fillMappedPointers(body: unknown, mapping: { root: string; fields: string[] } | undefined): unknown {
  if (!mapping || !body || typeof body !== "object") return body;
  const tokens = (pointer: string) => pointer.split("/").slice(1).map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
  let root: any = body;
  for (const token of tokens(mapping.root)) {
    if (root[token] === undefined || typeof root[token] !== "object") root[token] = {};
    root = root[token];
  }
  for (const element of Array.isArray(root) ? root : [root]) {
    if (!element || typeof element !== "object") continue;
    for (const field of mapping.fields) {
      let container: any = element;
      const path = tokens(field);
      path.forEach((token, index) => {
        if (index === path.length - 1) container[token] ??= `${token}-sample`;
        else {
          if (!container[token] || typeof container[token] !== "object") container[token] = /^\d+$/.test(path[index + 1]!) ? [] : {};
          container = container[token];
        }
      });
    }
  }
  return body;
}

function examplesOf(description: IndexedDescription, media: JsonObject): unknown[] {
  const found: unknown[] = [];
  if (media.example !== undefined) found.push(media.example);
  for (const example of Object.values((media.examples ?? {}) as JsonObject)) {
    const resolved = description.resolve(example);
    if (resolved.value !== undefined) found.push(resolved.value);
  }
  return found;
}

export function sampleSchema(description: IndexedDescription, raw: unknown, name: string, depth: number, refs: string[]): unknown {
  if (!raw || typeof raw !== "object") return undefined;
  const ref = (raw as JsonObject).$ref as string | undefined;
  if (ref) {
    if (refs.includes(ref) || depth > MAX_DEPTH) return undefined;
    return sampleSchema(description, description.resolve(raw), name, depth, [...refs, ref]);
  }
  const schema = raw as JsonObject;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined && schema.default !== null) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum.find((value: unknown) => value !== null) ?? schema.enum[0];
  if (Array.isArray(schema.allOf)) return sampleAllOf(description, schema, name, depth, refs);
  const choices = (schema.oneOf ?? schema.anyOf) as unknown[] | undefined;
  if (Array.isArray(choices) && choices.length > 0) {
    const choice = choices.find((option) => description.resolve(option).type !== "null") ?? choices[0];
    return sampleSchema(description, choice, name, depth, refs);
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== "null") : schema.type;
  if (type === "object" || (!type && schema.properties)) return sampleObject(description, schema, depth, refs);
  if (type === "array") {
    // An array without `items` says nothing of its elements; one empty object stands for them.
    const item = schema.items === undefined ? {} : sampleSchema(description, schema.items, name, depth + 1, refs);
    if (item === undefined) return [];
    return Array.from({ length: Math.max(1, Math.min(Number(schema.minItems ?? 1), 3)) }, () => item);
  }
  if (type === "integer") return typeof schema.minimum === "number" ? Math.ceil(schema.minimum) : 1;
  if (type === "number") return typeof schema.minimum === "number" ? schema.minimum : 1.5;
  if (type === "boolean") return true;
  if (type === "string") return sampleString(schema, name);
  return undefined;
}

function sampleAllOf(description: IndexedDescription, schema: JsonObject, name: string, depth: number, refs: string[]): unknown {
  let merged: unknown;
  for (const part of [...schema.allOf, { ...schema, allOf: undefined }]) {
    const value = sampleSchema(description, part, name, depth, refs);
    if (value === undefined) continue;
    merged = isPlainObject(merged) && isPlainObject(value) ? { ...merged, ...value } : value ?? merged;
  }
  return merged;
}

function sampleObject(description: IndexedDescription, schema: JsonObject, depth: number, refs: string[]): unknown {
  const required = new Set<string>(Array.isArray(schema.required) ? schema.required : []);
  const out: JsonObject = {};
  for (const [property, propertySchema] of Object.entries((schema.properties ?? {}) as JsonObject)) {
    if (depth >= MAX_DEPTH && !required.has(property)) continue;
    const value = sampleSchema(description, propertySchema, property, depth + 1, refs);
    if (value !== undefined) out[property] = value;
  }
  for (const property of required) if (!(property in out)) out[property] = `${property}-sample`;
  return out;
}

function sampleString(schema: JsonObject, name: string): string {
  const byFormat: Record<string, string> = {
    "date-time": "2026-11-29T09:00:00Z",
    date: "2026-11-29",
    time: "09:00:00",
    email: "ada@example.com",
    uri: "https://example.com/sandbox",
    url: "https://example.com/sandbox",
    uuid: "3f1c2a9e-8b7d-4c6e-9f5a-1b2c3d4e5f60",
    byte: "U2FuZGJveA==",
    int64: "1234567890",
    int32: "42",
    "google-datetime": "2026-11-29T09:00:00Z",
  };
  const formatted = schema.format ? byFormat[String(schema.format)] : undefined;
  if (formatted) return formatted;
  const text = `${name || "value"}-sample`;
  const minLength = Number(schema.minLength ?? 0);
  const maxLength = Number(schema.maxLength ?? Infinity);
  return text.padEnd(minLength, "x").slice(0, maxLength);
}

function isPlainObject(value: unknown): value is JsonObject {
  return !!value && typeof value === "object" && !Array.isArray(value);
}
