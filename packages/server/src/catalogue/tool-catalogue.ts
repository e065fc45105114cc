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
import type { SideEffect, ToolDefinition, ToolRisk } from "../providers/provider-types.js";
import { depthOf } from "../shared/json-depth.js";
import { describeIssues } from "../shared/validation-issues.js";
import { assignSafeNames, plainSafeName } from "./model-safe-names.js";

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

/** What GET /v1/tools may filter on; `query`: every word must appear in the name, title or description, ignoring case. */
export type ToolFilter = { provider?: string | undefined; query?: string | undefined; risk?: ToolRisk | undefined; sideEffect?: SideEffect | undefined };

/** One tool as listings show it (GET /v1/tools, the console, the client's adapters). */
export function toolListing({ tool, provider }: CatalogueTool, mcpName: string) {
  return {
    name: tool.name,
    mcp_name: mcpName,
    title: tool.title ?? null,
    description: tool.description,
    provider: provider.id,
    risk: tool.risk,
    side_effect: tool.sideEffect,
    destructive: tool.destructive === true,
    idempotent: tool.idempotent ?? null,
    scopes: [...(tool.scopes ?? [])],
    auth_modes: tool.authModes,
    arguments_schema: tool.argumentsSchema,
  };
}

export type ToolListing = ReturnType<typeof toolListing>;

/**
 * Lookups over a set of compiled tools: the built-in ones, or those a tenant sees (built-in first,
 * so a built-in tool keeps its model-safe name whatever a tenant declares).
 */
export function toolCatalogueOf(entries: readonly CatalogueTool[]) {
  const tools = new Map(entries.map((entry) => [entry.tool.name, entry]));
  const safeNames = assignSafeNames([...tools.keys()]);
  const bySafeName = new Map([...safeNames].map(([dotted, safe]) => [safe, dotted]));
  const aliases = new Map(entries.flatMap(({ provider }) => (provider.aliases ?? []).map((alias) => [alias, provider.id] as const)));

  /** The dotted name a caller means: the dotted name itself, its MCP name, or either with a provider alias (`github.create_issue`, `github_create_issue`). */
  function canonicalName(name: string): string | undefined {
    if (tools.has(name)) return name;
    const safe = bySafeName.get(name);
    if (safe) return safe;
    const dot = name.indexOf(".");
    if (dot > 0) {
      const provider = aliases.get(name.slice(0, dot));
      const renamed = provider && `${provider}${name.slice(dot)}`;
      return renamed && tools.has(renamed) ? renamed : undefined;
    }
    for (const [alias, provider] of aliases) {
      if (!name.startsWith(`${alias}_`)) continue;
      const renamed = bySafeName.get(`${plainSafeName(provider)}${name.slice(alias.length)}`);
      if (renamed) return renamed;
    }
    return undefined;
  }

  const words = (query: string | undefined) => (query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const searchable = ({ tool }: CatalogueTool) => `${tool.name} ${safeNames.get(tool.name)} ${tool.title ?? ""} ${tool.description}`.toLowerCase();

  return {
    /** Sorted by name, so pages of it (GET /v1/tools) stay in one order. */
    list(filter: ToolFilter = {}): ToolListing[] {
      const wanted = words(filter.query);
      const provider = filter.provider === undefined ? undefined : (aliases.get(filter.provider) ?? filter.provider);
      return [...tools.values()]
        .filter((entry) => (provider === undefined || entry.provider.id === provider)
          && (filter.risk === undefined || entry.tool.risk === filter.risk)
          && (filter.sideEffect === undefined || entry.tool.sideEffect === filter.sideEffect)
          && (wanted.length === 0 || wanted.every((word) => searchable(entry).includes(word))))
        .sort((a, b) => (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0))
        .map((entry) => toolListing(entry, safeNames.get(entry.tool.name)!));
    },
    resolve(name: string): CatalogueTool {
      const canonical = canonicalName(name);
      const entry = canonical === undefined ? undefined : tools.get(canonical);
      if (!entry) throw new BrokerError("not_found", `tool "${name}" not found; GET /v1/tools lists the tools you may call`);
      return entry;
    },
    canonicalName,
    /** The name MCP lists the tool under and model APIs accept (`gmail_send_message`). */
    safeNameOf: (dottedName: string) => safeNames.get(dottedName),
    has: (name: string) => canonicalName(name) !== undefined,
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
