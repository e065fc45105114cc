/**
 * Fingerprints of canonical JSON are stored (approvals.arguments_fingerprint, idempotency keys'
 * request_fingerprint), so the RFC 8785 library must write exactly what the hand-written
 * canonicalJson wrote before it. `storedForm` below is that code, kept as the reference.
 */
import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, fingerprint } from "./canonical-json.js";

/** The hand-written canonical form every stored fingerprint was computed with (until 2026-11). */
function storedForm(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(storedForm).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${storedForm(v)}`).join(",")}}`;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** Request bodies arrive as JSON text; these are the values JSON.parse makes of them. */
const BODIES: [string, string][] = [
  ["keys in any order, at every depth", '{"b":1,"a":{"d":[3,{"z":0,"y":1}],"c":null}}'],
  ["nested and empty arrays and objects", '[[],[[1,[2,[]]]],{},[{}],{"a":[]}]'],
  ["unicode text and keys", '{"title":"Crash ü 日本 😀 e\u0301 ש","ключ":"värde","😀":1,"\uff61":2,"é":3}'],
  ["escapes", '{"s":"quote \\" backslash \\\\ slash \\/ nl \\n tab \\t bell \\u0007 del \\u007f ls \\u2028 </script>"}'],
  ["keys ordered by UTF-16 code unit, not code point or locale", '{"\uff61":1,"😀":2,"a":3,"B":4,"_":5,"aa":6,"":7,"A":8}'],
  ["integers", '[0,-1,1,42,9007199254740991,-9007199254740991,9007199254740993,12345678901234567890]'],
  ["numbers written with a fraction or exponent", "[1.0,-0,-0.0,1e21,1e20,1E+2,1e-7,0.000001,0.1,5e-324,1.7976931348623157e308,2.5e-5,100e-2,0.30000000000000004]"],
  ["booleans and null", '{"t":true,"f":false,"n":null,"list":[true,false,null]}'],
  ["a property named toJSON", '{"b":2,"toJSON":"not a function","a":{"toJSON":{"y":1,"x":0}}}'],
  ["a top-level scalar", '"just a string"'],
];

describe("canonicalJson", () => {
  it.each(BODIES)("writes what the stored fingerprints were computed from: %s", (_, body) => {
    const value: unknown = JSON.parse(body);
    expect(canonicalJson(value)).toBe(storedForm(value));
  });

  it("sorts keys and writes numbers as RFC 8785 does", () => {
    expect(canonicalJson(JSON.parse('{"b":[1.0,-0,1e21,1e-7],"a":"ü","😀":0,"\uff61":0}'))).toBe('{"a":"ü","b":[1,0,1e+21,1e-7],"😀":0,"｡":0}');
  });

  it("skips undefined properties, writes undefined in arrays and at the top as null, as before", () => {
    // execute-service blanks idempotency_key and the scope fields with undefined before fingerprinting.
    const value = { tool_name: "scm.get_repository", idempotency_key: undefined, list: [1, undefined], nested: { gone: undefined } };
    expect(canonicalJson(value)).toBe('{"list":[1,null],"nested":{},"tool_name":"scm.get_repository"}');
    expect(canonicalJson(value)).toBe(storedForm(value));
    // A policy reading a missing pointer compares undefined, which has always equalled null.
    expect(canonicalJson(undefined)).toBe("null");
  });

  it("keeps an own __proto__ property of a parsed body as data", () => {
    const value: unknown = JSON.parse('{"b":1,"__proto__":{"x":1},"a":2}');
    expect(canonicalJson(value)).toBe(storedForm(value));
    expect(canonicalJson(value)).toBe('{"__proto__":{"x":1},"a":2,"b":1}');
  });

  it("equals the stored form on any JSON body, whatever its key order", () => {
    const unicodeJson = fc.jsonValue({ stringUnit: "binary", maxDepth: 6 });
    fc.assert(
      fc.property(unicodeJson, (generated) => {
        const parsed: unknown = JSON.parse(JSON.stringify(generated));
        expect(canonicalJson(parsed)).toBe(storedForm(parsed));
        expect(canonicalJson(reverseKeys(parsed))).toBe(canonicalJson(parsed));
      }),
      { numRuns: 1_000 },
    );
  });

  it("writes numbers out of range (JSON.parse reads 1e999 as Infinity) as null, as before", () => {
    const body = JSON.parse('{"repo":1e999,"n":[-1e999,2]}') as unknown;
    expect(canonicalJson(body)).toBe('{"n":[null,2],"repo":null}');
    expect(canonicalJson(body)).toBe(storedForm(body));
  });

  it("refuses text with a lone surrogate, which the storable-text check keeps out of every request", () => {
    // test/http-storable-text.test.ts shows such bodies answered 400 before any handler runs.
    expect(() => canonicalJson({ title: "\ud800" })).toThrow(/surrogate/i);
    expect(() => canonicalJson({ ["\udc00"]: 1 })).toThrow(/surrogate/i);
  });
});

describe("fingerprint", () => {
  it("is unchanged for arguments and execute requests fingerprinted before the library", () => {
    const issue = JSON.parse('{"repo":"widgets","owner":"acme","title":"Crash on start ü 日本 😀","labels":["bug","p1"],"milestone":3,"assignees":[]}');
    expect(fingerprint(issue)).toBe("be1ba1e6d6da019645f8f9f014bc93c25dc1f1953e8580e8c19344edb9547de8");
    const request = { tool_name: "scm.create_issue", connected_account_id: "0192c1f2-1111-7abc-8def-0123456789ab", arguments: issue, idempotency_key: undefined, agent_app_id: undefined, end_user_id: undefined };
    expect(fingerprint(request)).toBe("861945a07a1b62d5bd1029c2d915fcab7152e958142c2907acb1258d04a7f313");
  });

  it("is the SHA-256 of the canonical text", () => {
    const value: unknown = JSON.parse('{"z":[1.5,"x"],"a":{"k":true}}');
    expect(fingerprint(value)).toBe(sha256(storedForm(value)));
  });
});

function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== "object") return value;
  const reversed: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) {
    Object.defineProperty(reversed, key, { value: reverseKeys((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  }
  return reversed;
}
