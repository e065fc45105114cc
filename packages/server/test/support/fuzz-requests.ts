/**
 * Requests for the route fuzz test, derived from the OpenAPI description: for each operation, a
 * fast-check arbitrary of requests with hostile path segments, query strings, cursors and bodies,
 * plus the wire encoding (lone surrogates as the bytes a sloppy client sends) and a sender that
 * uses `app.inject` unless the WHATWG URL parser would change the path (`..`, `%2e`), in which case
 * the request goes over a loopback socket exactly as written.
 */
import { request as httpRequest } from "node:http";
import fc from "fast-check";
import type { App } from "../../src/http/app-type.js";
import { describeValue, hostileString, hostileValue, mutatedValueFor, RawJson, storageHostileChar, toJsonText, valueFor, type JsonSchema, type SchemaContext } from "./fuzz-values.js";

/** `operator_identity`: an operator token that names no tenant (GET /v1/me). */
export type CredentialKind = "operator" | "operator_identity" | "control_key" | "broker_jwt";
type Parameter = { name: string; in: "path" | "query"; schema: JsonSchema };
export type Operation = { name: string; method: string; path: string; security: CredentialKind[] | null; parameters: Parameter[]; body: JsonSchema | undefined };

const SCHEMES: Record<string, CredentialKind> = { operatorToken: "operator", controlKey: "control_key", brokerJwt: "broker_jwt" };

const credentialKindOf = (requirement: Record<string, string[]>): CredentialKind => {
  const schemes = Object.keys(requirement);
  return schemes.length === 1 && schemes[0] === "operatorToken" ? "operator_identity" : SCHEMES[schemes[0]!]!;
};
const METHODS = ["get", "put", "post", "patch", "delete"];

type OpenApiOperation = {
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};

/** Every operation of the description; DELETEs last, so they do not remove what the others use. */
export function operationsOf(document: { paths: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const all = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method): Operation => {
      const operation = item[method]!;
      return {
        name: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        security: operation.security ? operation.security.map(credentialKindOf) : null,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content?.["application/json"]?.schema,
      };
    }),
  );
  return [...all.filter((o) => o.method !== "DELETE"), ...all.filter((o) => o.method === "DELETE")];
}

/** Percent-encodes like encodeURIComponent, but writes a lone surrogate as its (invalid) 3-byte form. */
export function encodeComponent(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("");
    } else out += encodeURIComponent(char);
  }
  return out;
}

const b64 = (data: string | Uint8Array) => Buffer.from(data).toString("base64url");

/** Path segments as they go on the wire (already encoded where needed). */
const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "%ZZ", "%C0%80", "%", "%2", "%00", "%2F", "%2f..%2f", "%2e%2e", "..", ".", "%ED%A0%80", "%F0%9F%99%82", "%FF%FE", "%u0041", "%252e",
    "a".repeat(1000), "%41".repeat(400), "123", "-1", "1e308", "NaN", "null", "{id}", ":id", "*",
    "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF", "{00000000-0000-0000-0000-000000000000}",
    "00000000-0000-0000-0000-000000000000%00", "00000000-0000-0000-0000-0000000000000",
  ),
  hostileString.filter((s) => s.length > 0 && s.length < 5000).map(encodeComponent),
);

/** Cursors: garbage, base64 of non-JSON, of JSON with NUL or huge numbers, of the wrong shape. */
const cursorJson: fc.Arbitrary<unknown> = fc.oneof(
  hostileValue,
  fc
    .record({ keys: fc.subarray(["seq", "created_at", "id", "c", "i"], { minLength: 1 }), value: hostileValue })
    .map(({ keys, value }) => Object.fromEntries(keys.map((key) => [key, value]))),
  fc.record({ seq: fc.constantFrom<unknown>(new RawJson("1e999"), new RawJson("-0"), -1, 0, 2 ** 31, 2 ** 53 - 1, 2 ** 64, "1", "\u0000") }),
  fc.record({ created_at: fc.constantFrom("2024-01-01T00:00:00.000Z\u0000", "\u0000", "not a date", "9999-99-99"), id: fc.constantFrom("\u0000", "x", "00000000-0000-0000-0000-000000000000") }),
  fc.record({ c: fc.constantFrom("\u0000", "2024-01-01T00:00:00Z", "\ud800"), i: fc.constantFrom("\u0000", "a'b", "\ud800") }),
);
export const hostileCursor: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", "=", "====", "!!!!", "%", "null", "e30", "eyJ", "W10", "bnVsbA", "AA", "_-_-", "a".repeat(600)),
  fc.uint8Array({ maxLength: 64 }).map(b64),
  cursorJson.map((value) => b64(toJsonText(value))),
  cursorJson.map((value) => b64(`${toJsonText(value)}\u0000`)),
  cursorJson.map((value) => Buffer.from(toJsonText(value)).toString("base64")),
  hostileString,
);

/** A cursor the broker issued, with one of its fields replaced or tainted with a NUL or lone surrogate. */
function mutatedCursor(cursor: unknown, index: number, replacement: unknown, taint: string): string {
  if (typeof cursor !== "string") return String(cursor);
  try {
    const decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as Record<string, unknown>;
    const keys = Object.keys(decoded);
    if (keys.length === 0) return cursor;
    const key = keys[index % keys.length]!;
    decoded[key] = index % 2 === 0 ? replacement : `${String(decoded[key])}${taint}`;
    return b64(toJsonText(decoded));
  } catch {
    return cursor;
  }
}

/** Whole query strings that no parameter schema describes. */
const rawQuery = fc.constantFrom(
  "limit=%ZZ", "cursor=%", "%=1", "=", "&&&", "limit", "limit=", "limit=1&limit=2", "cursor=a&cursor=b", "__proto__=1", "__proto__[polluted]=1",
  "constructor[prototype][polluted]=1", "a[b][c]=1", "limit=%00", "limit=%ED%A0%80", `x=${"a".repeat(20_000)}`, "limit=0x10", "limit=1e308",
  "limit=-0", "limit=18446744073709551616", "limit=NaN", "limit=%201", "env=TEST", "env[]=test", "provider=%00", "tool=%00", "action=%00",
);

type QueryPart = { text: string; label: string };

/** A valid value for a query parameter; a cursor only when the route handed one out. */
function queryValue(operation: Operation, parameter: Parameter, context: SchemaContext, observed: Observed): fc.Arbitrary<unknown> {
  if (parameter.name === "cursor") return observed.valueOr(`cursor@${operation.path}`, fc.constant(undefined));
  const generated = valueFor(parameter.schema, context, parameter.name);
  return fc.oneof(generated, observed.valueOr(parameter.name, generated));
}

function queryFor(operation: Operation, context: SchemaContext, observed: Observed): { valid: fc.Arbitrary<QueryPart>; hostile: fc.Arbitrary<QueryPart> } {
  const params = operation.parameters.filter((p) => p.in === "query");
  const pair = (name: string, value: unknown) => `${encodeComponent(name)}=${encodeComponent(typeof value === "string" ? value : toJsonText(value))}`;
  const validPairs = fc.tuple(
    ...params.map((p) => fc.option(queryValue(operation, p, context, observed).map((v) => (v === undefined ? undefined : pair(p.name, v))), { freq: 2, nil: undefined })),
  );
  const valid = validPairs.map((pairs) => ({ text: pairs.filter(Boolean).join("&"), label: "valid query" }));
  const hostileParam = params.length
    ? fc
        .record({ base: valid, param: fc.constantFrom(...params), value: fc.oneof(hostileValue, hostileCursor, storageHostileChar.map((c) => `test${c}`)) })
        .map(({ base, param, value }) => ({
          text: [base.text, pair(param.name, value)].filter(Boolean).join("&"),
          label: `query ${param.name}=${describeValue(value)}`,
        }))
    : fc.constant({ text: "", label: "" });
  const unknown = fc.record({ name: fc.oneof(fc.constantFrom("unexpected", "__proto__", "constructor"), hostileString.filter((s) => s.length < 100)), value: hostileString })
    .map(({ name, value }) => ({ text: pair(name, value), label: `unknown query ${describeValue(name)}=${describeValue(value)}` }));
  const hostile = fc.oneof(
    ...(params.length ? [{ weight: 4, arbitrary: hostileParam }] : []),
    { weight: 1, arbitrary: unknown },
    { weight: 1, arbitrary: rawQuery.map((text) => ({ text, label: `raw query ${describeValue(text)}` })) },
  );
  return { valid, hostile };
}

/** An item's identifier: `id`, or else its first `…_id` field (`connected_account_id`, `approval_id`). */
const identifierOf = (item: unknown) =>
  item && typeof item === "object" ? ((item as Record<string, unknown>).id ?? Object.entries(item).find(([key]) => key.endsWith("_id"))?.[1]) : undefined;

/**
 * Values the broker handed out during the run, tried as inputs: ids listed by a collection route
 * on its item routes, `next_cursor` on the route that returned it, and named values (an OAuth
 * `state`, URL query parameters) on query parameters of that name.
 */
export class Observed {
  private readonly pools = new Map<string, string[]>();

  private add(key: string, value: unknown) {
    if (typeof value !== "string" || value.length > 2000) return;
    const pool = this.pools.get(key) ?? [];
    if (!pool.includes(value) && pool.length < 50) pool.push(value);
    this.pools.set(key, pool);
  }

  harvest(operation: Operation, status: number, text: string) {
    if (status < 200 || status >= 300) return;
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      return;
    }
    if (!body || typeof body !== "object") return;
    for (const item of Array.isArray(body.data) ? body.data : [body]) this.add(`@${operation.path}`, identifierOf(item));
    this.add(`cursor@${operation.path}`, body.next_cursor);
    for (const [name, value] of Object.entries(body)) {
      this.add(name, value);
      if (typeof value === "string" && /^https?:\/\//.test(value)) new URL(value).searchParams.forEach((v, k) => this.add(k, v));
    }
  }

  /** A value seen under `key`, or one from `fallback` while none was. */
  valueOr(key: string, fallback: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
    return fc.tuple(fc.nat(), fallback).map(([i, other]) => {
      const pool = this.pools.get(key);
      return pool?.length ? pool[i % pool.length] : other;
    });
  }
}

export type Payload = { payload: string | Buffer; contentType: string | undefined; label: string };

/** Bodies that are not (acceptable) JSON, and JSON sent under the wrong media type. */
const rawBody: fc.Arbitrary<Payload> = fc.oneof(
  fc.constantFrom<[string | Buffer, string | undefined]>(
    ["not json", "application/json"], ["{", "application/json"], ['{"a":}', "application/json"], ["{'a':1}", "application/json"],
    ['{"a":1} trailing', "application/json"], ["\u0000", "application/json"], ["NaN", "application/json"], ["1e999", "application/json"],
    ["null", "application/json"], ["[]", "application/json"], ['"text"', "application/json"], ["123", "application/json"], ["", "application/json"],
    [Buffer.from([0xff, 0xfe, 0xc0, 0x80, 0xed, 0xa0, 0x80]), "application/json"], ["\ufeff{}", "application/json"],
    ['{"a":1,"a":2}', "application/json"], ['{"__proto__":{"x":1}}', "application/json"], ['{"constructor":{"prototype":{"x":1}}}', "application/json"],
    ["[".repeat(100_000), "application/json"], ["{}", "text/plain"], ["a=1", "application/x-www-form-urlencoded"],
    ["--x\r\n\r\n--x--", "multipart/form-data; boundary=x"], ["{}", "application/json; charset=utf-16"], ["{}", "application/xml"],
    ["{}", undefined], ["{}", "APPLICATION/JSON"], ["{}", "application/json-patch+json"], ["{}", "application/json; charset=latin1"],
    [" ".repeat(1000), "application/json"], [`"${"a".repeat(1_100_000)}"`, "application/json"],
  ),
  hostileValue.map((value): [string, string] => [toJsonText(value), "application/json"]),
).map(([payload, contentType]) => ({ payload, contentType, label: `raw body ${describeValue(payload.toString())} as ${contentType ?? "no content-type"}` }));

export type FuzzRequest = { method: string; url: string; payload?: Payload; label: string };

/** Requests for one operation: valid ones, and ones with one hostile part (path, query, cursor or body). */
export function requestsFor(operation: Operation, context: SchemaContext, observed: Observed): fc.Arbitrary<FuzzRequest> {
  const pathParams = operation.parameters.filter((p) => p.in === "path");
  const segmentValue = (p: Parameter) => {
    const collection = operation.path.slice(0, operation.path.indexOf(`/{${p.name}}`));
    const generated = valueFor(p.schema, context, context.hints[`@${collection}`] ? `@${collection}` : p.name);
    return fc.oneof({ weight: 3, arbitrary: observed.valueOr(`@${collection}`, generated) }, { weight: 1, arbitrary: generated });
  };
  const validSegments = fc.tuple(...pathParams.map((p) => segmentValue(p).map((v) => encodeComponent(String(v)))));
  const hostileSegments = pathParams.length
    ? fc.record({ segments: validSegments, index: fc.nat(pathParams.length - 1), segment: hostileSegment }).map(({ segments, index, segment }) => ({
        segments: segments.map((s, i) => (i === index ? segment : s)),
        label: `path {${pathParams[index]!.name}} = ${describeValue(segment)}`,
      }))
    : undefined;
  const urlOf = (segments: string[], query: string) => {
    let i = 0;
    const path = operation.path.replace(/\{[^}]+\}/g, () => segments[i++]!);
    return query ? `${path}?${query}` : path;
  };
  const query = queryFor(operation, context, observed);
  const bodySchema = operation.body;
  const keyNames = Object.keys(bodySchema?.properties ?? {});
  const validBody: fc.Arbitrary<Payload | undefined> = bodySchema
    ? valueFor(bodySchema, context).map((value) => ({ payload: toJsonText(value), contentType: "application/json", label: "valid body" }))
    : fc.constant(undefined);
  const mutatedBody = bodySchema
    ? mutatedValueFor(bodySchema, context, keyNames).map((m): Payload => ({ payload: toJsonText(m.value), contentType: "application/json", label: m.label }))
    : rawBody;
  const base = fc.record({ segments: validSegments, query: query.valid, body: validBody });
  const build = (parts: { segments: string[]; query: string; body: Payload | undefined; label: string }): FuzzRequest => ({
    method: operation.method,
    url: urlOf(parts.segments, parts.query),
    ...(parts.body ? { payload: parts.body } : {}),
    label: parts.label,
  });
  const variants: fc.WeightedArbitrary<FuzzRequest>[] = [
    { weight: 2, arbitrary: base.map((b) => build({ ...b, query: b.query.text, label: "valid request" })) },
    {
      weight: operation.parameters.some((p) => p.in === "query") ? 3 : 1,
      arbitrary: fc.record({ b: base, q: query.hostile }).map(({ b, q }) => build({ ...b, query: q.text, label: q.label })),
    },
    { weight: operation.body ? 4 : 1, arbitrary: fc.record({ b: base, body: mutatedBody }).map(({ b, body }) => build({ ...b, query: b.query.text, body, label: body.label })) },
    { weight: 1, arbitrary: fc.record({ b: base, body: rawBody }).map(({ b, body }) => build({ ...b, query: b.query.text, body, label: body.label })) },
  ];
  if (hostileSegments) {
    variants.push({ weight: 3, arbitrary: fc.record({ b: base, h: hostileSegments }).map(({ b, h }) => build({ ...b, segments: h.segments, query: b.query.text, label: h.label })) });
  }
  if (operation.parameters.some((p) => p.in === "query" && p.name === "cursor")) {
    const issuedCursor = fc
      .record({ cursor: observed.valueOr(`cursor@${operation.path}`, hostileCursor), index: fc.nat(), replacement: hostileValue, taint: storageHostileChar })
      .map(({ cursor, index, replacement, taint }) => mutatedCursor(cursor, index, replacement, taint));
    variants.push({
      weight: 3,
      arbitrary: fc.record({ b: base, cursor: fc.oneof(hostileCursor, issuedCursor) }).map(({ b, cursor }) =>
        build({ ...b, query: [b.query.text.replace(/(^|&)cursor=[^&]*/, ""), `cursor=${encodeComponent(cursor)}`].filter(Boolean).join("&"), label: `cursor ${describeValue(cursor)}` }),
      ),
    });
  }
  return fc.oneof(...variants);
}

export type FuzzResponse = { status: number; headers: Record<string, string | string[] | number | undefined>; text: string; transport: "inject" | "socket" };

/** Whether `app.inject` (which parses the URL with WHATWG rules) would send another path than this one. */
const injectChangesUrl = (url: string) => {
  const parsed = new URL(url, "http://localhost");
  return `${parsed.pathname}${parsed.search}` !== url;
};

export async function send(target: { app: App; url: string }, request: FuzzRequest, headers: Record<string, string>): Promise<FuzzResponse> {
  const allHeaders = { ...headers, ...(request.payload?.contentType ? { "content-type": request.payload.contentType } : {}) };
  const payload = request.payload?.payload;
  if (!injectChangesUrl(request.url)) {
    const response = await target.app.inject({ method: request.method as "GET", url: request.url, headers: allHeaders, ...(payload !== undefined ? { payload } : {}) });
    return { status: response.statusCode, headers: response.headers, text: response.body, transport: "inject" };
  }
  const base = new URL(target.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: base.hostname, port: base.port, method: request.method, path: request.url, headers: allHeaders, agent: false }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString("utf8"), transport: "socket" }));
      incoming.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}
