/**
 * Values for the route fuzz test: hostile strings, numbers and shapes, valid-looking values built
 * from a JSON Schema (with realistic pools for known field names), and the same with one field
 * mutated. Bodies are written with `toJsonText`, which can say what `JSON.stringify` cannot
 * (`-0`, `1e999`, 2^64 written out, an own `__proto__` key, 10,000 levels of nesting).
 */
import fc from "fast-check";

/** A JSON token written as-is into the body. */
export class RawJson {
  constructor(readonly text: string) {}
}

export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (value && typeof value === "object") return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** Sets a key as an own enumerable property, so `__proto__` is a key and not the prototype. */
export function setKey(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

const KB100 = 100 * 1024;
const LONG_STRINGS = [
  "a".repeat(KB100),
  "é".repeat(KB100 / 2),
  "🙂".repeat(KB100 / 4),
  "\u0000".repeat(KB100),
  "\ud800".repeat(KB100 / 3),
  "\u202e".repeat(KB100 / 3),
];

const FIXED_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "x\ud83d",
  "\ude00x",
  "\u202egnp.exe",
  "\u200f\u05e9\u05dc\u05d5\u05dd",
  "مرحبا بالعالم",
  "🙂👍🏽👨‍👩‍👧‍👦",
  "Z\u0351\u036b\u0343\u036a\u0302\u036b\u033d\u034f\u0334\u0319",
  "\ufeff",
  "\uffff\ufffe",
  "\r\n\t\u000b\u000c",
  "\u2028\u2029",
  "../../etc/passwd",
  "%00",
  "%ZZ",
  "%C0%80",
  "${jndi:ldap://127.0.0.1/a}",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "\\",
  "\"",
  "NaN",
  "Infinity",
  "-0",
  "1e308",
  "18446744073709551616",
  "0x1F",
  "true",
  "null",
  "undefined",
  "[object Object]",
  "__proto__",
  "constructor",
  "prototype",
  "00000000-0000-0000-0000-000000000000",
  "ffffffff-ffff-ffff-ffff-ffffffffffff",
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const hostileUnit = fc.oneof(
  fc.constantFrom("\u0000", "\u202e", "\u200f", "\ufeff", "\uffff", "%", "/", "\\", "\"", "'", "."),
  loneSurrogate,
  fc.string({ unit: "binary", minLength: 1, maxLength: 1 }),
  fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }),
);

/** What a database may refuse to store: NUL and unpaired surrogates. */
export const storageHostileChar = fc.constantFrom("\u0000", "\ud800", "\udbff", "\udc00", "\udfff");

/** Plausible text with a NUL or an unpaired surrogate somewhere in it. */
const storageHostileString = fc
  .tuple(fc.string({ maxLength: 8 }), storageHostileChar, fc.string({ maxLength: 8 }))
  .map(([before, hostile, after]) => `${before}${hostile}${after}`);

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...FIXED_STRINGS) },
  { weight: 3, arbitrary: storageHostileString },
  { weight: 2, arbitrary: fc.string({ unit: hostileUnit, minLength: 1, maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(...LONG_STRINGS) },
);

export const hostileNumber: fc.Arbitrary<unknown> = fc.constantFrom(
  new RawJson("-0"),
  new RawJson("1e308"),
  new RawJson("-1e308"),
  new RawJson("1e999"),
  new RawJson("-1e999"),
  new RawJson("18446744073709551616"),
  new RawJson("9007199254740993"),
  new RawJson("123456789012345678901234567890123456789"),
  new RawJson("5e-324"),
  new RawJson("1E+2"),
  -1,
  0,
  1.5,
  2 ** 31,
  -(2 ** 63),
  "NaN",
  "-Infinity",
  "1e308",
  " 1",
  "1_000",
);

export const wrongType: fc.Arbitrary<unknown> = fc.constantFrom(null, true, false, [], {}, [null], { "": "" }, 0, "", [[]], [1, "a", null]);

/** Nesting far deeper than any schema: arrays, objects, and a mix. */
export const deepNesting: fc.Arbitrary<unknown> = fc
  .record({ depth: fc.constantFrom(100, 1000, 10_000, 100_000), shape: fc.constantFrom("array", "object") })
  .map(({ depth, shape }) => new RawJson(shape === "array" ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`));

/** Objects whose keys aim at prototypes. */
export const protoObject: fc.Arbitrary<unknown> = fc.constantFrom("__proto__", "constructor", "prototype").map((key) => {
  const target: Record<string, unknown> = {};
  setKey(target, key, key === "constructor" ? { prototype: { polluted: true } } : { polluted: true, isAdmin: true });
  return target;
});

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 2, arbitrary: wrongType },
  { weight: 1, arbitrary: deepNesting },
  { weight: 1, arbitrary: protoObject },
  { weight: 1, arbitrary: fc.constant(Array.from({ length: 10_000 }, (_, i) => i)) },
);

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/** Pools of realistic values by field name (real ids, tool names, loopback URLs), so requests get past lookups. */
export type Hints = Record<string, fc.Arbitrary<unknown>>;

/** A tool of the catalogue, so `tool_name` and `arguments` are generated together. */
export type CatalogueTool = { name: string; provider: string; arguments_schema: JsonSchema };

export type SchemaContext = { hints: Hints; tools: CatalogueTool[] };

function patternString(pattern: string, schema: JsonSchema): fc.Arbitrary<string> {
  // fast-check cannot generate lookarounds; drop them (the value may then be invalid, which is fine here).
  const simplified = pattern.replace(/\(\?[=!][^)]*\)/g, "");
  try {
    return fc.stringMatching(new RegExp(simplified)).map((s) => (schema.maxLength ? s.slice(0, schema.maxLength) : s));
  } catch {
    return fc.string({ minLength: 1, maxLength: 20 });
  }
}

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === "uuid") return fc.uuid();
  if (schema.format === "date-time") return fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.pattern) return patternString(schema.pattern, schema);
  const minLength = schema.minLength ?? 0;
  return fc.string({ unit: "grapheme", minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 30, 30)) });
}

function objectFor(schema: JsonSchema, context: SchemaContext): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  if (properties.tool_name && properties.arguments && context.tools.length > 0) return toolCallFor(schema, context);
  const record = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valueFor(property, context, name)]));
  const requiredKeys = Object.keys(properties).filter((name) => required.has(name));
  const shaped = fc.record(record, { requiredKeys }) as fc.Arbitrary<Record<string, unknown>>;
  if (Object.keys(properties).length > 0 || schema.additionalProperties !== true) return shaped;
  return fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
}

/** `tool_name` drawn from the catalogue, `arguments` from that tool's schema, the account (or secret item) of its provider. */
function toolCallFor(schema: JsonSchema, context: SchemaContext): fc.Arbitrary<Record<string, unknown>> {
  return fc.constantFrom(...context.tools).chain((tool) => {
    const { tool_name: _drawn, ...hints } = context.hints;
    const account = context.hints[`connected_account_id:${tool.provider}`];
    if (account) hints.connected_account_id = account;
    const secretItem = context.hints[`secret_item_id:${tool.provider}`];
    if (secretItem) {
      // A tool of API keys only: a connected account is a credential_mismatch before the call.
      hints.secret_item_id = secretItem;
      hints.connected_account_id = fc.constant(null);
    }
    return objectFor({ ...schema, properties: { ...schema.properties, tool_name: { enum: [tool.name] }, arguments: tool.arguments_schema } }, { hints, tools: [] });
  });
}

/** A value the schema accepts (mostly: patterns with lookarounds are approximated). */
export function valueFor(schema: JsonSchema, context: SchemaContext, name?: string): fc.Arbitrary<unknown> {
  const hint = name ? context.hints[name] : undefined;
  const generic = genericValueFor(schema, context);
  return hint ? fc.oneof({ weight: 4, arbitrary: hint }, { weight: 1, arbitrary: generic }) : generic;
}

function genericValueFor(schema: JsonSchema, context: SchemaContext): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => valueFor(branch, context)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "string":
      return stringFor(schema);
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const items = valueFor(schema.items ?? {}, context);
      const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)) };
      return schema.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(items, constraints);
    }
    case "object":
      return objectFor(schema, context);
    default:
      return schema.properties ? objectFor(schema, context) : fc.jsonValue({ maxDepth: 2 });
  }
}

type Path = string[];

function pathsOf(value: unknown, at: Path = [], out: Path[] = []): Path[] {
  out.push(at);
  if (value && typeof value === "object" && !(value instanceof RawJson) && at.length < 6) {
    for (const [key, child] of Object.entries(value)) pathsOf(child, [...at, key], out);
  }
  return out;
}

const pointerOf = (path: Path) => (path.length ? `/${path.join("/")}` : "(root)");

export function describeValue(value: unknown): string {
  const text = toJsonText(value);
  const escaped = text.length > 60 ? `${JSON.stringify(text.slice(0, 40)).slice(1, -1)}… (${text.length} chars)` : JSON.stringify(text).slice(1, -1);
  return escaped.replace(/[\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

function containerAt(root: unknown, path: Path): Record<string, unknown> | undefined {
  let node = root;
  for (const key of path) node = (node as Record<string, unknown>)[key];
  return node && typeof node === "object" && !(node instanceof RawJson) ? (node as Record<string, unknown>) : undefined;
}

export type Mutated = { value: unknown; label: string };

/** Mostly a field inside the value; the whole value now and then. */
function pathChoice(paths: Path[]): fc.Arbitrary<Path> {
  const inner = paths.filter((p) => p.length > 0);
  if (inner.length === 0) return fc.constant<Path>([]);
  return fc.oneof({ weight: 1, arbitrary: fc.constant<Path>([]) }, { weight: 6, arbitrary: fc.constantFrom(...inner) });
}

/** A valid value with exactly one change: a field replaced, removed, or a key added. */
export function mutatedValueFor(schema: JsonSchema, context: SchemaContext, keyNames: string[]): fc.Arbitrary<Mutated> {
  return valueFor(schema, context).chain((valid) =>
    fc
      .record({
        path: pathChoice(pathsOf(valid)),
        how: fc.constantFrom("replace", "replace", "taint", "taint", "remove", "add"),
        replacement: hostileValue,
        taint: storageHostileChar,
        key: fc.constantFrom(...keyNames, "__proto__", "constructor", "prototype", "unexpected"),
      })
      .map(({ path, how, replacement, taint, key }) => {
        const copy = structuredClone(valid);
        const original = path.reduce<unknown>((node, k) => (node as Record<string, unknown>)[k], copy);
        // A valid string with a NUL or lone surrogate appended: passes every check but the storage one.
        if (how === "taint" && typeof original === "string") {
          if (path.length === 0) return { value: `${original}${taint}`, label: `body (root) tainted with ${describeValue(taint)}` };
          setKey(containerAt(copy, path.slice(0, -1))!, path[path.length - 1]!, `${original}${taint}`);
          return { value: copy, label: `body ${pointerOf(path)} tainted with ${describeValue(taint)}` };
        }
        if (path.length === 0 && how !== "add") return { value: replacement, label: `body replaced by ${describeValue(replacement)}` };
        if (how === "add") {
          const target = containerAt(copy, path);
          if (target && !Array.isArray(target)) {
            setKey(target, key, replacement);
            return { value: copy, label: `body ${pointerOf([...path, key])} added as ${describeValue(replacement)}` };
          }
        }
        const parent = containerAt(copy, path.slice(0, -1))!;
        const last = path[path.length - 1]!;
        if (how === "remove") {
          delete parent[last];
          return { value: copy, label: `body ${pointerOf(path)} removed` };
        }
        setKey(parent, last, replacement);
        return { value: copy, label: `body ${pointerOf(path)} = ${describeValue(replacement)}` };
      }),
  );
}
