/**
 * Issue 37, "model-safe schemas and names": every built-in tool, whatever BUILT_IN_PROVIDERS holds,
 * given to a model through the client's adapters yields a schema each model API takes — checked
 * against each dialect's documented rules (support/model-schema-rules.ts), not only that the
 * adapter ran — and a name OpenAI's pattern allows, unique in the catalogue, the same in MCP,
 * GET /v1/tools and the client.
 */
import { describe, expect, it } from "vitest";
import { BUILT_IN_PROVIDERS } from "../../server/src/providers/built-in.js";
import { assignSafeNames, MODEL_SAFE_NAME_PATTERN } from "../../server/src/catalogue/model-safe-names.js";
import { modelToolName, toGeminiFunctionDeclarations, toOpenAIStrictTools } from "../src/adapters.js";
import type { Tool } from "../src/types.js";
import { declarationFaults, geminiFaults, openAIStrictFaults } from "./support/model-schema-rules.js";

const TOOLS = BUILT_IN_PROVIDERS.flatMap(({ declaration, tools }) => tools.map((tool) => ({ provider: declaration.id, tool })));
const SAFE_NAMES = assignSafeNames(TOOLS.map(({ tool }) => tool.name));

/** A tool as GET /v1/tools lists it, which is what the adapters take. */
const listed = ({ provider, tool }: (typeof TOOLS)[number]): Tool => ({
  name: tool.name,
  mcp_name: SAFE_NAMES.get(tool.name)!,
  title: tool.title ?? null,
  description: tool.description,
  provider,
  risk: tool.risk,
  side_effect: tool.side_effect,
  destructive: tool.destructive === true,
  idempotent: tool.idempotent ?? null,
  scopes: [...(tool.scopes ?? [])],
  auth_modes: ["oauth2"],
  arguments_schema: tool.arguments_schema,
});

describe("the built-in catalogue given to models", () => {
  it("holds tools", () => {
    expect(TOOLS.length).toBeGreaterThan(10);
  });

  it.each(TOOLS.map((entry) => [entry.tool.name, entry] as const))("%s: its declared arguments schema follows the model-safe rules", (_name, { tool }) => {
    expect(declarationFaults(tool.arguments_schema)).toEqual([]);
  });

  it.each(TOOLS.map((entry) => [entry.tool.name, entry] as const))("%s: OpenAI strict mode takes what toOpenAIStrictTools makes of it", (_name, entry) => {
    const [strict] = toOpenAIStrictTools([listed(entry)]);
    expect(strict!.strict).toBe(true);
    expect(openAIStrictFaults(strict!.parameters)).toEqual([]);
  });

  it.each(TOOLS.map((entry) => [entry.tool.name, entry] as const))("%s: Gemini takes what toGeminiFunctionDeclarations makes of it", (_name, entry) => {
    const [declaration] = toGeminiFunctionDeclarations([listed(entry)]);
    expect(geminiFaults(declaration!.parameters)).toEqual([]);
  });

  it("names every tool for MCP and model APIs within ^[a-zA-Z0-9_-]{1,64}$, uniquely, as the client names it", () => {
    const names = TOOLS.map(({ tool }) => SAFE_NAMES.get(tool.name)!);
    const bad = names.filter((name) => !MODEL_SAFE_NAME_PATTERN.test(name));
    expect(bad).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
    for (const { tool } of TOOLS) {
      expect(SAFE_NAMES.get(tool.name), tool.name).toBe(tool.name.replace(".", "_"));
      expect(modelToolName(tool.name), tool.name).toBe(SAFE_NAMES.get(tool.name));
    }
  });

  it("names every tool of a provider alias to a tool of the catalogue", () => {
    for (const { declaration, aliases, tools } of BUILT_IN_PROVIDERS) {
      for (const alias of aliases ?? []) {
        expect(BUILT_IN_PROVIDERS.some((p) => p.declaration.id === alias), `${alias} is also a provider id`).toBe(false);
        for (const tool of tools) expect(SAFE_NAMES.has(`${alias}${tool.name.slice(declaration.id.length)}`)).toBe(false);
      }
    }
  });
});

describe("the rules themselves", () => {
  it("catch what each dialect refuses", () => {
    expect(openAIStrictFaults({ type: "object", properties: { a: { type: "string", minLength: 1 } } })).toEqual([
      "/: additionalProperties must be false",
      "/: every property must be required (missing a)",
      "/properties/a: keyword minLength is not supported in strict mode",
    ]);
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 7; i++) deep = { type: "object", properties: { x: deep }, required: ["x"], additionalProperties: false };
    expect(openAIStrictFaults(deep).join()).toMatch(/nest 6 levels deep/);
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, { type: "string" }]));
    expect(openAIStrictFaults({ type: "object", properties: many, required: Object.keys(many), additionalProperties: false })).toEqual(["/: 101 object properties in all (at most 100)"]);
    expect(geminiFaults({ type: "object", properties: { a: { type: ["string", "null"] }, b: { type: "integer", enum: [1, 2] }, c: { type: "string", format: "uri" }, d: { type: "object" } }, additionalProperties: false })).toEqual([
      "/: field additionalProperties is not in Gemini's Schema",
      "/properties/a: type is a list (Gemini takes one type and nullable)",
      "/properties/a: has no type",
      "/properties/b: enum is only for strings",
      "/properties/b: enum values must be strings",
      "/properties/c: format uri is not one Gemini takes for string type",
      "/properties/d: an object must name its properties",
    ]);
    expect(declarationFaults({ type: "object", properties: { a: { type: "object" }, b: { type: "string" }, c: { const: 1, description: "c" } } })).toEqual([
      "/: additionalProperties must be false",
      "/properties/a: needs a description",
      "/properties/a: a free-form object (no properties)",
      "/properties/a: additionalProperties must be false",
      "/properties/b: needs a description",
      "/properties/c: uses const",
      "/properties/c: needs a type",
    ]);
  });
});
