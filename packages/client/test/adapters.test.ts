/**
 * The tool-definition adapters, fed with the real catalogue from a started broker, checked against
 * the shape each API documents (as JSON Schemas below) and, for the Vercel AI SDK, against the
 * check its `asSchema()` applies to a JSON-Schema tool input.
 */
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  argumentsSchema,
  brokerToolName,
  modelToolName,
  toolNameFor,
  strictArguments,
  toAnthropicTools,
  toGeminiFunctionDeclarations,
  toOpenAIResponsesTools,
  toOpenAIStrictTools,
  toOpenAITools,
  toVercelAITools,
} from "../src/adapters.js";
import { GEMINI_KEYWORDS, OPENAI_STRICT_KEYWORDS } from "../src/model-schemas.js";
import { AgentClient, type Tool } from "../src/index.js";
import { importTenantTools, startTestBed, type ClientTestBed } from "./support/broker-setup.js";

const NAME = { type: "string", pattern: "^[a-zA-Z0-9_-]{1,64}$" };
const OBJECT_SCHEMA = { type: "object", required: ["type"], properties: { type: { const: "object" }, properties: { type: "object" }, required: { type: "array", items: { type: "string" } } } };

/** OpenAI Chat Completions: `tools[]` entries of type function. */
const OPENAI_CHAT_TOOL = {
  type: "object",
  required: ["type", "function"],
  additionalProperties: false,
  properties: {
    type: { const: "function" },
    function: { type: "object", required: ["name"], additionalProperties: false, properties: { name: NAME, description: { type: "string" }, parameters: OBJECT_SCHEMA, strict: { type: ["boolean", "null"] } } },
  },
};
/** OpenAI Responses API: function tools. */
const OPENAI_RESPONSES_TOOL = {
  type: "object",
  required: ["type", "name", "parameters", "strict"],
  additionalProperties: false,
  properties: { type: { const: "function" }, name: NAME, description: { type: ["string", "null"] }, parameters: OBJECT_SCHEMA, strict: { type: ["boolean", "null"] } },
};
/** Anthropic Messages API: client tools. */
const ANTHROPIC_TOOL = {
  type: "object",
  required: ["name", "input_schema"],
  additionalProperties: false,
  properties: { name: NAME, description: { type: "string" }, input_schema: OBJECT_SCHEMA, type: { const: "custom" }, cache_control: { type: ["object", "null"] } },
};
/** Vercel AI SDK: `tools` is a record of tools with a description and an input schema. */
const VERCEL_TOOLS = {
  type: "object",
  propertyNames: NAME,
  additionalProperties: { type: "object", required: ["inputSchema"], properties: { description: { type: "string" }, inputSchema: { type: "object", required: ["jsonSchema"] }, execute: {} } },
};

/** What the AI SDK's `asSchema` accepts as a ready schema instead of treating it as Zod. */
function aiSdkAcceptsAsSchema(value: unknown): boolean {
  const marker = Symbol.for("vercel.ai.schema");
  return typeof value === "object" && value !== null && marker in value && (value as Record<symbol, unknown>)[marker] === true && "jsonSchema" in value && "validate" in value;
}

type Node = Record<string, unknown>;
const children = (schema: Node): [string, Node][] => [
  ...Object.entries((schema.properties ?? {}) as Record<string, Node>).map(([name, child]): [string, Node] => [`/properties/${name}`, child]),
  ...(schema.items ? [["/items", schema.items as Node] as [string, Node]] : []),
  ...((schema.anyOf ?? []) as Node[]).map((child, i): [string, Node] => [`/anyOf/${i}`, child]),
];

/** OpenAI's strict-mode rules (Structured Outputs, "supported schemas"), as a list of what breaks them. */
function strictModeViolations(schema: Node, at = ""): string[] {
  const found = Object.keys(schema).filter((keyword) => !OPENAI_STRICT_KEYWORDS.has(keyword)).map((keyword) => `${at}: ${keyword} is not supported`);
  const types = ([] as unknown[]).concat(schema.type ?? []);
  if (types.includes("object") || schema.properties) {
    if (schema.additionalProperties !== false) found.push(`${at}: additionalProperties must be false`);
    const names = Object.keys((schema.properties ?? {}) as object).sort();
    if (JSON.stringify([...((schema.required ?? []) as string[])].sort()) !== JSON.stringify(names)) found.push(`${at}: every property must be required`);
  }
  if (schema.format && !["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"].includes(String(schema.format))) found.push(`${at}: format ${String(schema.format)}`);
  return [...found, ...children(schema).flatMap(([path, child]) => strictModeViolations(child, `${at}${path}`))];
}

/** Gemini's function-declaration Schema (an OpenAPI 3.0 subset), as a list of what breaks it. */
function geminiViolations(schema: Node, at = ""): string[] {
  const found = Object.keys(schema).filter((keyword) => !GEMINI_KEYWORDS.has(keyword)).map((keyword) => `${at}: ${keyword} is not supported`);
  if (schema.type !== undefined && !["string", "number", "integer", "boolean", "array", "object"].includes(schema.type as string)) found.push(`${at}: type ${JSON.stringify(schema.type)}`);
  if (schema.enum && !(schema.enum as unknown[]).every((value) => typeof value === "string")) found.push(`${at}: enum values must be strings`);
  return [...found, ...children(schema).flatMap(([path, child]) => geminiViolations(child, `${at}${path}`))];
}

describe("tool-definition adapters", () => {
  let bed: ClientTestBed;
  let client: AgentClient;
  let tools: Tool[];
  const ajv = new Ajv({ strict: false, allErrors: true });
  const expectShape = (schema: object, value: unknown) => {
    const validate = ajv.compile(schema);
    expect(validate(value), ajv.errorsText(validate.errors)).toBe(true);
  };

  beforeAll(async () => {
    bed = await startTestBed();
    await importTenantTools(bed);
    client = new AgentClient({ baseUrl: bed.broker.url, token: await bed.mintToken() });
    tools = await client.listTools();
  });
  afterAll(() => bed.close());

  it("names every catalogue tool in the characters model APIs allow, reversibly", () => {
    expect(tools.length).toBeGreaterThan(5);
    // The catalogue under test holds the tenant's imported tools as well as the built-in ones.
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["tasks.list_tasks", "tasks.create_task", "tasks.update_task"]));
    for (const tool of tools) {
      // The adapters use the name the broker lists the tool under over MCP.
      const name = toolNameFor(tool);
      expect(name).toBe(tool.mcp_name);
      expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(modelToolName(tool.name)).toBe(name);
      expect(brokerToolName(name, tools)).toBe(tool.name);
      // Without the tools, the name goes to the broker as it is, which takes MCP names too.
      expect(brokerToolName(name)).toBe(name);
      // Names of the earlier `__` form still map back.
      expect(brokerToolName(tool.name.replace(/\./g, "__"), tools)).toBe(tool.name);
    }
    expect(new Set(tools.map(toolNameFor)).size).toBe(tools.length);
    expect(modelToolName("scm.get_authenticated_user")).toBe("scm_get_authenticated_user");
    expect(brokerToolName("scm__get_authenticated_user")).toBe("scm.get_authenticated_user");
    expect(() => brokerToolName("scm_no_such_tool", tools)).toThrow(/not one of the tools/);
    const long = modelToolName(`scm.${"x".repeat(70)}`);
    expect(long).toMatch(/^scm_x+_[0-9a-f]{8}$/);
    expect(long).toHaveLength(64);
    expect(modelToolName(`scm.${"x".repeat(70)}`)).toBe(long);
    expect(modelToolName(`scm.${"x".repeat(71)}`)).not.toBe(long);
  });

  it("produces OpenAI Chat Completions tools", () => {
    const converted = toOpenAITools(tools);
    expectShape({ type: "array", items: OPENAI_CHAT_TOOL }, converted);
    expect(converted.find((tool) => tool.function.name === "scm_delete_repository")?.function).toMatchObject({
      description: expect.stringMatching(/Delete a repository/),
      parameters: { type: "object", required: ["owner", "repo"], properties: { owner: expect.any(Object), repo: expect.any(Object) } },
    });
  });

  it("produces OpenAI Responses API tools, not strict", () => {
    const converted = toOpenAIResponsesTools(tools);
    expectShape({ type: "array", items: OPENAI_RESPONSES_TOOL }, converted);
    expect(converted.every((tool) => tool.strict === false)).toBe(true);
  });

  it("produces Anthropic Messages API tools", () => {
    const converted = toAnthropicTools(tools);
    expectShape({ type: "array", items: ANTHROPIC_TOOL }, converted);
    expect(converted.map((tool) => tool.name)).toContain("scm_create_issue");
  });

  it("produces Vercel AI SDK tools whose input schema the SDK takes as JSON Schema", () => {
    const converted = toVercelAITools(tools);
    expectShape(VERCEL_TOOLS, converted);
    for (const [name, tool] of Object.entries(converted)) {
      expect(aiSdkAcceptsAsSchema(tool.inputSchema), name).toBe(true);
      expect(aiSdkAcceptsAsSchema(tool.parameters), name).toBe(true);
      expect(tool.inputSchema.jsonSchema.type).toBe("object");
      expect(tool).not.toHaveProperty("execute");
    }
  });

  it("gives every format a parameter schema that is valid JSON Schema and judges arguments as the broker does", () => {
    const createIssue = tools.find((tool) => tool.name === "scm.create_issue")!;
    const schemas = [
      toOpenAITools([createIssue])[0]!.function.parameters,
      toOpenAIResponsesTools([createIssue])[0]!.parameters,
      toAnthropicTools([createIssue])[0]!.input_schema,
      toVercelAITools([createIssue]).scm_create_issue!.inputSchema.jsonSchema,
    ];
    for (const schema of schemas) {
      const validate = ajv.compile(schema);
      expect(validate({ owner: "octocat", repo: "hello-world", title: "Bug" })).toBe(true);
      expect(validate({ owner: "octocat", repo: "hello-world" })).toBe(false);
    }
  });

  it("produces OpenAI strict-mode tools that keep strict mode's rules, for every tool of the catalogue", () => {
    const converted = toOpenAIStrictTools(tools);
    expect(converted).toHaveLength(tools.length);
    for (const tool of converted) {
      expect(tool.strict).toBe(true);
      expect(strictModeViolations(tool.parameters), tool.name).toEqual([]);
    }
    const createIssue = converted.find((tool) => tool.name === "scm_create_issue")!.parameters as Node & { properties: Record<string, Node> };
    // What strict mode cannot enforce is still said to the model; the broker enforces it.
    expect(createIssue.properties.title!.description).toMatch(/at most 256 characters/);
    expect(createIssue.properties.body!.type).toEqual(["string", "null"]);
  });

  it("turns a strict-mode model's arguments back into what the broker takes, and the broker agrees", () => {
    for (const name of ["scm.create_issue", "scm.list_repositories", "chat.post_message", "tracker.list_issues"]) {
      const tool = tools.find((candidate) => candidate.name === name)!;
      const strictSchema = toOpenAIStrictTools([tool])[0]!.parameters;
      const original = ajv.compile(argumentsSchema(tool));
      // What a model under strict mode sends: every property, null for those it leaves out.
      const modelArgs: Record<string, unknown> = Object.fromEntries(Object.keys(strictSchema.properties).map((key) => [key, null]));
      const required = (argumentsSchema(tool).required ?? []) as string[];
      for (const key of required) modelArgs[key] = key === "title" || key === "text" || key === "channel" ? "Hello" : key === "owner" ? "octocat" : "hello-world";
      expect(ajv.compile(strictSchema)(modelArgs), name).toBe(true);
      const args = strictArguments(tool, modelArgs);
      expect(Object.values(args)).not.toContain(null);
      expect(original(args), `${name}: ${ajv.errorsText(original.errors)}`).toBe(true);
    }
  });

  it("produces Gemini function declarations within Gemini's schema subset, for every tool of the catalogue", () => {
    const converted = toGeminiFunctionDeclarations(tools);
    expect(converted).toHaveLength(tools.length);
    for (const declaration of converted) {
      expect(declaration.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      if (declaration.parameters) expect(geminiViolations(declaration.parameters), declaration.name).toEqual([]);
    }
    // Gemini refuses an object schema without properties: a tool without arguments has no parameters.
    expect(converted.find((declaration) => declaration.name === "scm_get_authenticated_user")).not.toHaveProperty("parameters");
    const listIssues = converted.find((declaration) => declaration.name === "scm_list_issues")!.parameters as Node & { properties: Record<string, Node> };
    expect(listIssues.properties.state).toMatchObject({ type: "string", enum: ["open", "closed", "all"] });
  });

  it("copies schemas instead of sharing them with the catalogue", () => {
    const [first] = toOpenAITools(tools);
    first!.function.parameters.properties.injected = { type: "string" };
    expect(JSON.stringify(tools)).not.toContain("injected");
    expect(argumentsSchema({ arguments_schema: {} })).toEqual({ type: "object", properties: {} });
  });

  it("runs a model's call through the broker: Vercel execute, and an OpenAI tool call mapped back", async () => {
    const run = (toolName: string, args: Record<string, unknown>) =>
      client.executeAndWait({ tool_name: toolName, arguments: args, connected_account_id: bed.accountId }).then((outcome) => outcome.result);
    const viaVercel = await toVercelAITools(tools, { execute: run }).scm_get_authenticated_user!.execute!({});
    expect(viaVercel).toMatchObject({ login: "octocat" });

    const modelCall = { type: "function", function: { name: "scm_get_repository", arguments: '{"owner":"octocat","repo":"hello-world"}' } };
    const result = await run(brokerToolName(modelCall.function.name, tools), JSON.parse(modelCall.function.arguments));
    expect(result).toMatchObject({ full_name: "octocat/hello-world" });
  });
});
