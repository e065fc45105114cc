/**
 * Tool-definition adapters: the catalogue from `AgentClient.listTools()` in the shapes the OpenAI,
 * Anthropic and Vercel AI SDK APIs take. Plain objects; none of those SDKs is a dependency.
 *
 * Model APIs allow only `[A-Za-z0-9_-]{1,64}` in tool names, so each tool is sent under the name
 * the broker lists it under over MCP, its `mcp_name` (`scm.get_authenticated_user` →
 * `scm_get_authenticated_user`); `brokerToolName` maps a name the model calls back to the broker's.
 * (Before 2026-11, `.` became `__`; `brokerToolName` still maps those names back.)
 */
import { fromStrictArguments, toGeminiSchema, toOpenAIStrictSchema } from "./model-schemas.js";
import { hashedSafeName, MODEL_SAFE_NAME_MAX, plainSafeName } from "./model-names.js";
import type { Tool } from "./types.js";

export { fromStrictArguments, toGeminiSchema, toOpenAIStrictSchema } from "./model-schemas.js";

export type JsonSchemaObject = { type: "object"; properties: Record<string, unknown>; [keyword: string]: unknown };

/** Chat Completions `tools[]` entry. */
export type OpenAIChatTool = { type: "function"; function: { name: string; description: string; parameters: JsonSchemaObject } };
/** Responses API `tools[]` entry. */
export type OpenAIResponsesTool = { type: "function"; name: string; description: string; parameters: JsonSchemaObject; strict: false };
/** Responses API `tools[]` entry in strict mode (structured outputs). */
export type OpenAIStrictTool = { type: "function"; name: string; description: string; parameters: JsonSchemaObject; strict: true };
/** Gemini `tools[].functionDeclarations[]` entry; a tool without arguments has no `parameters` (Gemini refuses an object without properties). */
export type GeminiFunctionDeclaration = { name: string; description: string; parameters?: Record<string, unknown> };
/** Messages API `tools[]` entry. */
export type AnthropicTool = { name: string; description: string; input_schema: JsonSchemaObject };

const AI_SCHEMA = Symbol.for("vercel.ai.schema");
const AI_VALIDATOR = Symbol.for("vercel.ai.validator");

/** What the AI SDK's `jsonSchema()` returns: a marked wrapper around a JSON Schema. */
export type VercelAISchema = { [AI_SCHEMA]: true; [AI_VALIDATOR]: true; jsonSchema: JsonSchemaObject; validate: undefined };
/**
 * An AI SDK tool. `inputSchema` is what AI SDK 5 and later read; `parameters` (the same schema)
 * is what AI SDK 4 read. With `execute`, the SDK runs the tool itself.
 */
export type VercelAITool = {
  description: string;
  inputSchema: VercelAISchema;
  parameters: VercelAISchema;
  execute?: (input: Record<string, unknown>) => Promise<unknown>;
};

/**
 * The name a model API accepts for a broker tool, as the broker's MCP server lists it: `.` becomes
 * `_`; a name longer than 64 characters is cut and given a short hash. For one tool alone: a
 * catalogue's names are unique as GET /v1/tools gives them (`mcp_name`), which `toolNameFor` prefers.
 */
export function modelToolName(brokerName: string): string {
  const plain = plainSafeName(brokerName);
  return plain.length > 0 && plain.length <= MODEL_SAFE_NAME_MAX ? plain : hashedSafeName(brokerName);
}

/** The name a tool is given to a model: the broker's `mcp_name` when the listing has it. */
export const toolNameFor = (tool: Pick<Tool, "name"> & { mcp_name?: string | undefined }) => tool.mcp_name ?? modelToolName(tool.name);

/**
 * The broker tool a model called. With `tools`, the name is looked up (exact, so names that
 * contain `_` or `__` themselves still map back); without, a legacy `__` name has its `.` back and
 * any other name is passed on as it is (the broker takes a tool's MCP name too).
 */
export function brokerToolName(modelName: string, tools?: readonly (Pick<Tool, "name"> & { mcp_name?: string | undefined })[]): string {
  if (!tools) return modelName.includes("__") ? modelName.replace(/__/g, ".") : modelName;
  const match = tools.find((tool) => toolNameFor(tool) === modelName) ?? tools.find((tool) => tool.name.replace(/\./g, "__") === modelName);
  if (!match) throw new RangeError(`the model called "${modelName}", which is not one of the tools given`);
  return match.name;
}

/** A tool's argument schema as a standalone object schema (own copy; `type: "object"` ensured). */
export function argumentsSchema(tool: Pick<Tool, "arguments_schema">): JsonSchemaObject {
  const schema = structuredClone(tool.arguments_schema ?? {}) as Record<string, unknown>;
  delete schema.$schema;
  delete schema.$id;
  const properties = typeof schema.properties === "object" && schema.properties !== null ? schema.properties : {};
  return { ...schema, type: "object", properties: properties as Record<string, unknown> };
}

/** For `openai.chat.completions.create({ tools })`. */
export function toOpenAITools(tools: readonly Tool[]): OpenAIChatTool[] {
  return tools.map((tool) => ({ type: "function", function: { name: toolNameFor(tool), description: tool.description, parameters: argumentsSchema(tool) } }));
}

/**
 * For `openai.responses.create({ tools })`. `strict` is off: strict mode needs every property
 * required and no optional arguments, which broker schemas do not promise.
 */
export function toOpenAIResponsesTools(tools: readonly Tool[]): OpenAIResponsesTool[] {
  return tools.map((tool) => ({ type: "function", name: toolNameFor(tool), description: tool.description, parameters: argumentsSchema(tool), strict: false }));
}

/** For `anthropic.messages.create({ tools })`. */
export function toAnthropicTools(tools: readonly Tool[]): AnthropicTool[] {
  return tools.map((tool) => ({ name: toolNameFor(tool), description: tool.description, input_schema: argumentsSchema(tool) }));
}

export type VercelAIToolsOptions = {
  /** Runs a call the model made, e.g. `(name, args) => agent.executeAndWait({ tool_name: name, arguments: args, ... })`. */
  execute?: (toolName: string, args: Record<string, unknown>) => Promise<unknown>;
};

/** For `generateText({ tools })` / `streamText({ tools })` of the Vercel AI SDK. */
export function toVercelAITools(tools: readonly Tool[], options: VercelAIToolsOptions = {}): Record<string, VercelAITool> {
  const { execute } = options;
  return Object.fromEntries(
    tools.map((tool) => {
      const schema: VercelAISchema = { [AI_SCHEMA]: true, [AI_VALIDATOR]: true, jsonSchema: argumentsSchema(tool), validate: undefined };
      const entry: VercelAITool = { description: tool.description, inputSchema: schema, parameters: schema };
      if (execute) entry.execute = (input) => execute(tool.name, input);
      return [toolNameFor(tool), entry];
    }),
  );
}

/**
 * For `openai.responses.create({ tools })` with `strict: true`: the model's arguments always match
 * the schema. Optional arguments become nullable; pass what the model sends through
 * `strictArguments` before executing.
 */
export function toOpenAIStrictTools(tools: readonly Tool[]): OpenAIStrictTool[] {
  return tools.map((tool) => ({ type: "function", name: toolNameFor(tool), description: tool.description, parameters: toOpenAIStrictSchema(argumentsSchema(tool)) as JsonSchemaObject, strict: true }));
}

/** A strict-mode model's arguments for `tool`, as the broker takes them (its `null`s for omitted optional arguments removed). */
export const strictArguments = (tool: Pick<Tool, "arguments_schema">, args: Record<string, unknown>) => fromStrictArguments(argumentsSchema(tool), args) as Record<string, unknown>;

/** For Gemini's `tools: [{ functionDeclarations }]` (the Gen AI SDK and the REST API). */
export function toGeminiFunctionDeclarations(tools: readonly Tool[]): GeminiFunctionDeclaration[] {
  return tools.map((tool) => {
    const schema = argumentsSchema(tool);
    const declaration: GeminiFunctionDeclaration = { name: toolNameFor(tool), description: tool.description };
    if (Object.keys(schema.properties).length > 0) declaration.parameters = toGeminiSchema(schema);
    return declaration;
  });
}
