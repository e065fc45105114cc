import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CATALOGUE_SCHEMA } from "./declaration-schema.js";
import { BrokerError } from "../errors.js";
import { buildDeclaredRequest, mapDeclaredResponse, MAX_FILLED_ARGUMENT_BYTES, MAX_MAPPING_STEPS, resolvePointer } from "./declared-tool.js";
import { mergePatch } from "../catalogue/merge-patch.js";

const PUBLISHED = new URL("../../docs/catalogue.schema.json", import.meta.url);

describe("the published catalogue schema", () => {
  it("is the one in docs/catalogue.schema.json (UPDATE_CATALOGUE_SCHEMA=1 rewrites it)", () => {
    const generated = `${JSON.stringify(CATALOGUE_SCHEMA, null, 2)}\n`;
    if (process.env.UPDATE_CATALOGUE_SCHEMA === "1") writeFileSync(PUBLISHED, generated);
    expect(readFileSync(PUBLISHED, "utf8")).toBe(generated);
  });
});

describe("declared requests", () => {
  const request = {
    method: "POST" as const,
    path: "/teams/{team}/items/{id}",
    query: { limit: "{limit}", q: "title:{title}" },
    headers: { "X-Trace": "{trace}" },
    body: { title: "{title}", tags: "{tags}", meta: { source: "agent", note: "{note}" } },
  };

  it("percent-encodes each path placeholder as one segment, so an argument cannot add segments or a query", () => {
    const built = buildDeclaredRequest(request, { team: "a/b", id: "../x?y=1", title: "T" });
    expect(built.path).toBe("/teams/a%2Fb/items/..%2Fx%3Fy%3D1");
  });

  it("keeps a whole-placeholder value's JSON type and leaves out entries whose argument is missing", () => {
    const built = buildDeclaredRequest(request, { team: "t", id: "1", title: "Hello", tags: ["a", "b"], limit: 5 });
    expect(built.query).toEqual({ limit: "5", q: "title:Hello" });
    expect(built.headers).toBeUndefined();
    expect(built.body).toEqual({ title: "Hello", tags: ["a", "b"], meta: { source: "agent" } });
  });

  it("sends a form body as text fields", () => {
    const built = buildDeclaredRequest({ method: "POST", path: "/f", body: { n: "{n}", s: "{s}" }, body_encoding: "form" }, { n: 3, s: "x" });
    expect(built.form).toEqual({ n: "3", s: "x" });
    expect(built.body).toBeUndefined();
  });
});

describe("declared responses", () => {
  const body = { data: { items: [{ id: 1, name: "a", "x/y": 2 }, { id: 2 }] } };
  it("resolves RFC 6901 pointers, escapes included", () => {
    expect(resolvePointer(body, "/data/items/0/x~1y")).toBe(2);
    expect(resolvePointer(body, "/data/items/5")).toBeUndefined();
    expect(resolvePointer(body, "/data/__proto__")).toBeUndefined();
  });
  it("picks fields from each element of an array root, and returns the whole body without a mapping", () => {
    expect(mapDeclaredResponse({ root: "/data/items", fields: { key: "/id", label: "/name" } }, body)).toEqual([{ key: 1, label: "a" }, { key: 2 }]);
    expect(mapDeclaredResponse(undefined, body)).toEqual(body);
  });
  it("refuses, before any work, an answer whose mapping takes more than MAX_MAPPING_STEPS element × field steps", () => {
    const fields = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, `/f${i}`]));
    const fits = Array.from({ length: MAX_MAPPING_STEPS / 100 }, () => ({}));
    expect((mapDeclaredResponse({ fields }, fits) as unknown[]).length).toBe(MAX_MAPPING_STEPS / 100);
    let refusal: unknown;
    try {
      mapDeclaredResponse({ fields }, [...fits, {}]);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(BrokerError);
    expect(refusal).toMatchObject({ code: "upstream_error", status: 502, details: { reason: "response_too_large", limit: MAX_MAPPING_STEPS } });
  });
});

describe("JSON Merge Patch", () => {
  it("merges objects, removes members set to null and replaces everything else", () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 }, e: [1] }, { b: { c: null, f: 4 }, e: [2], g: "x" })).toEqual({ a: 1, b: { d: 3, f: 4 }, e: [2], g: "x" });
  });
});

describe("the size of a declared request", () => {
  const request = { method: "POST" as const, path: "/x/{a}", query: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`q${i}`, "{a}".repeat(600)])), body: { copies: Array.from({ length: 500 }, () => "{a}") } };

  it("refuses, before building it, arguments that would fill the request past MAX_FILLED_ARGUMENT_BYTES", () => {
    let refusal: unknown;
    try {
      buildDeclaredRequest(request, { a: "x".repeat(100_000) });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ code: "invalid_tool_args", status: 422, details: { reason: "request_too_large", limit: MAX_FILLED_ARGUMENT_BYTES } });
  });

  it("counts a whole-placeholder argument each time the body repeats it", () => {
    const body = { method: "POST" as const, path: "/x", body: Array.from({ length: 500 }, () => "{a}") };
    expect(() => buildDeclaredRequest(body, { a: { text: "y".repeat(10_000) } })).toThrow(BrokerError);
    expect((buildDeclaredRequest(body, { a: { text: "y".repeat(1_000) } }).body as unknown[]).length).toBe(500);
  });
});
