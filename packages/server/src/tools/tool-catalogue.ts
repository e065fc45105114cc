/**
 * The tools agents can call, from the provider declarations, with each argument schema compiled
 * once by Ajv.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { RegExpEngine } from "ajv/dist/types/index.js";
import { RE2JS } from "re2js";
import addFormats from "ajv-formats";
import { BrokerError } from "../errors.js";
import type { ProviderCatalogue, ResolvedProvider } from "../providers/catalogue.js";
import type { ToolDefinition } from "../providers/provider-types.js";
import { depthOf } from "../shared/json-depth.js";
import { describeIssues } from "../shared/validation-issues.js";

export const MAX_ARGUMENT_DEPTH = 16;

export type CatalogueTool = {
  tool: ToolDefinition;
  provider: ResolvedProvider;
  validate: ValidateFunction;
  /** Checks a 2xx upstream body against the shape the tool's mapper relies on. */
  validateResponse: ValidateFunction;
};

/** What is wrong with a tool's arguments, field by field, as the request errors say it. */
export const describeArgumentErrors = (errors: ErrorObject[] | null | undefined) => describeIssues(errors, "argument");

export type ToolCompiler = (tool: ToolDefinition, provider: ResolvedProvider) => CatalogueTool;

/**
 * `pattern` keywords run on RE2 (linear time): a tenant's schema cannot make argument validation
 * backtrack catastrophically.
 */
const re2Engine: RegExpEngine = Object.assign(
  (pattern: string) => {
    const compiled = RE2JS.compile(pattern);
    return { test: (value: string) => compiled.test(value) };
  },
  { code: "re2" },
);

/**
 * One Ajv for a set of tools: `forget` drops a compiled schema that will not be used again.
 * `linearPatterns`: run `pattern` on RE2, for schemas a tenant wrote.
 */
export function createToolCompiler({ linearPatterns = false }: { linearPatterns?: boolean } = {}) {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false, ...(linearPatterns ? { code: { regExp: re2Engine } } : {}) });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return {
    // Each validator is compiled on its first use: a catalogue of thousands of tools is listed
    // and rebuilt without compiling the ones nobody calls.
    compile: ((tool, provider) => {
      let validate: ValidateFunction | undefined;
      let validateResponse: ValidateFunction | undefined;
      return {
        tool,
        provider,
        get validate() {
          return (validate ??= ajv.compile(tool.argumentsSchema));
        },
        get validateResponse() {
          return (validateResponse ??= ajv.compile(tool.responseSchema));
        },
      };
    }) as ToolCompiler,
    forget(entry: CatalogueTool) {
      ajv.removeSchema(entry.tool.argumentsSchema);
      ajv.removeSchema(entry.tool.responseSchema);
    },
    /** Why an arguments schema cannot be used, or undefined when it compiles. */
    problemWith(schema: Record<string, unknown>): string | undefined {
      try {
        ajv.compile(schema);
        return undefined;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      } finally {
        ajv.removeSchema(schema);
      }
    },
  };
}

export type ToolCompilerSet = ReturnType<typeof createToolCompiler>;

export function createToolCatalogue(providers: Pick<ProviderCatalogue, "tools">, compile: ToolCompiler = createToolCompiler().compile) {
  return toolCatalogueOf(providers.tools().map(({ tool, provider }) => compile(tool, provider)));
}

/** Lookups over a set of compiled tools: the built-in ones, or those a tenant sees. */
export function toolCatalogueOf(entries: readonly CatalogueTool[]) {
  const tools = new Map(entries.map((entry) => [entry.tool.name, entry]));

  return {
    /** `query`: every word must appear in the tool's name or description, ignoring case. */
    list(provider?: string, query?: string) {
      const words = (query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
      const matches = ({ tool }: CatalogueTool) => words.every((word) => `${tool.name} ${tool.description}`.toLowerCase().includes(word));
      return [...tools.values()]
        .filter((entry) => (!provider || entry.provider.id === provider) && matches(entry))
        .map(({ tool, provider: p }) => ({
          name: tool.name,
          description: tool.description,
          provider: p.id,
          risk: tool.risk,
          side_effect: tool.sideEffect,
          auth_modes: tool.authModes,
          arguments_schema: tool.argumentsSchema,
        }));
    },
    resolve(name: string): CatalogueTool {
      const entry = tools.get(name);
      if (!entry) throw new BrokerError("not_found", `tool "${name}" not found; GET /v1/tools lists the tools you may call`);
      return entry;
    },
    has: (name: string) => tools.has(name),
    names: () => [...tools.keys()],
    /** Throws 422 invalid_tool_args naming each failing field. */
    validateArguments(entry: CatalogueTool, args: Record<string, unknown>) {
      if (depthOf(args, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) {
        throw new BrokerError("invalid_tool_args", `arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels`, { fields: [{ field: "/", message: "too deep" }] });
      }
      if (entry.validate(args)) return;
      const fields = describeArgumentErrors(entry.validate.errors);
      throw new BrokerError("invalid_tool_args", `arguments for ${entry.tool.name} are invalid: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`, { fields });
    },
  };
}

export type ToolCatalogue = ReturnType<typeof toolCatalogueOf>;

/** The tools a tenant sees in an env (built-in and its own): see catalogue/tenant-catalogue.ts. */
export type ScopedTools = { view(scope: { tenantId: string; env?: "test" | "live" | undefined }): Promise<{ tools: ToolCatalogue }> };
