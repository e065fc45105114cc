/**
 * /v1/providers and /v1/providers/{id}/tools: the catalogue a tenant sees and the providers and
 * tools it declares or imports; GET /v1/catalogue/schema publishes the declaration format.
 */
import { Type } from "@sinclair/typebox";
import type { App } from "../http/app-type.js";
import { actorOf } from "../http/credentials.js";
import { errorResponses, StringEnum, Timestamp } from "../http/schemas.js";
import type { StoredProvider, StoredTool } from "./catalogue-queries.js";
import type { CatalogueService, ListedProvider } from "./catalogue-service.js";
import { MAX_OPENAPI_DOCUMENT_BYTES } from "./catalogue-service.js";
import { formatByteLimit } from "../shared/byte-sizes.js";
import { CATALOGUE_LIMITS } from "./catalogue-limits.js";
import { IMPORT_THREAD_LIMITS } from "./openapi-import-runner.js";
import { IMPORT_LIMITS } from "./openapi-schemas.js";
import { BUILT_IN_PROVIDERS } from "../providers/built-in.js";
import { CATALOGUE_SCHEMA, PROVIDER_ID_PATTERN, TOOL_NAME_PATTERN } from "../providers/declaration-schema.js";
import type { TenantCatalogue } from "./tenant-catalogue.js";
import { NextCursor, pageOfTools, ToolListFilters, type ToolListQuery } from "./tool-list-query.js";

const CatalogueEnv = StringEnum(["test", "live", "both"] as const, { description: "The env it serves (default both)" });
const ProviderParams = Type.Object({ id: Type.String({ pattern: PROVIDER_ID_PATTERN, description: "A provider id" }) });
const ToolParams = Type.Object({ id: Type.String({ pattern: PROVIDER_ID_PATTERN }), name: Type.String({ pattern: TOOL_NAME_PATTERN, description: "`<provider>.<operation>`" }) });
const Declaration = Type.Object({}, { additionalProperties: true, description: "See GET /v1/catalogue/schema" });

const ProviderView = Type.Object(
  {
    id: Type.String(),
    display_name: Type.String(),
    aliases: Type.Array(Type.String(), { description: "Other ids that name it (`github` for `scm`): accepted wherever a provider or tool is named" }),
    source: StringEnum(["built_in", "custom"] as const),
    env: CatalogueEnv,
    auth_modes: Type.Array(StringEnum(["oauth2", "api_key"] as const)),
    declaration: Type.Union([Declaration, Type.Null()], { description: "The declaration (a built-in provider's too: what its vendor does beyond it is code)" }),
    created_at: Type.Union([Timestamp, Type.Null()]),
    updated_at: Type.Union([Timestamp, Type.Null()]),
    declaration_problem: Type.Optional(
      Type.Object(
        { path: Type.String(), message: Type.String() },
        {
          description:
            "Present when the stored declaration no longer passes the schema (it was stored before a check existed): the provider and its tools are left out of " +
            "what callers see (GET /v1/tools, execute, MCP) until a PATCH repairs it or it is deleted",
        },
      ),
    ),
  },
  { $id: "CatalogueProvider" },
);

const ToolView = Type.Object(
  {
    name: Type.String(),
    mcp_name: Type.Union([Type.String(), Type.Null()], { description: "The name MCP lists it under (see GET /v1/tools); null while the tool is left out of what callers see" }),
    title: Type.Union([Type.String(), Type.Null()]),
    provider: Type.String(),
    source: StringEnum(["built_in", "declared", "openapi"] as const),
    env: CatalogueEnv,
    risk: StringEnum(["low", "high"] as const),
    side_effect: StringEnum(["read", "write"] as const),
    scopes: Type.Array(Type.String(), { description: "The OAuth scopes it needs, when declared" }),
    declaration: Type.Union([Declaration, Type.Null()], { description: "The declaration (a built-in tool's too)" }),
    created_at: Type.Union([Timestamp, Type.Null()]),
    updated_at: Type.Union([Timestamp, Type.Null()]),
  },
  { $id: "CatalogueTool" },
);

const CreateBody = Type.Object({ env: Type.Optional(CatalogueEnv), declaration: Declaration }, { additionalProperties: false });
const PatchBody = Type.Object(
  { env: Type.Optional(CatalogueEnv), declaration: Type.Optional(Type.Object({}, { additionalProperties: true, description: "A JSON Merge Patch (RFC 7396) of the declaration" })) },
  { additionalProperties: false },
);
const ImportBody = Type.Object(
  {
    document: Type.Union([Type.String({ minLength: 1 }), Type.Object({}, { additionalProperties: true })], { description: "The OpenAPI 3.0/3.1 document: JSON or YAML text, or a JSON object" }),
    operation_ids: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 1000, description: "Import only these operations" })),
    env: Type.Optional(CatalogueEnv),
  },
  { additionalProperties: false },
);

const providerView = (p: StoredProvider | ListedProvider) => ({
  id: p.declaration.id,
  display_name: String(p.declaration.display_name),
  aliases: [] as string[],
  source: "custom" as const,
  env: p.env,
  auth_modes: "problem" in p && p.problem ? [] : [p.declaration.auth.type],
  declaration: p.declaration,
  created_at: p.createdAt,
  updated_at: p.updatedAt,
  ...("problem" in p && p.problem ? { declaration_problem: { path: p.problem.field, message: p.problem.message } } : {}),
});

const toolView = (t: StoredTool, mcpName: string | null = null) => ({
  name: t.declaration.name,
  mcp_name: mcpName,
  title: t.declaration.title ?? null,
  provider: t.providerId,
  source: t.source,
  env: t.env,
  risk: t.declaration.risk,
  side_effect: t.declaration.side_effect,
  scopes: [...(t.declaration.scopes ?? [])],
  declaration: t.declaration,
  created_at: t.createdAt,
  updated_at: t.updatedAt,
});

type Deps = { catalogueService: CatalogueService; catalogue: Pick<TenantCatalogue, "builtIn" | "view"> };

/** What GET /v1/providers/{id}/tools keeps: the same words and filters as GET /v1/tools. */
function matchesFilters(tool: { name: string; mcp_name: string | null; title: string | null; risk: string; side_effect: string; declaration: { description?: unknown } | null }, query: ToolListQuery) {
  const words = (query.q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${tool.name} ${tool.mcp_name ?? ""} ${tool.title ?? ""} ${String(tool.declaration?.description ?? "")}`.toLowerCase();
  return (query.risk === undefined || tool.risk === query.risk) && (query.side_effect === undefined || tool.side_effect === query.side_effect) && words.every((word) => text.includes(word));
}

export function registerCatalogueRoutes(app: App, { catalogueService: service, catalogue }: Deps) {
  const tags = ["catalogue"];
  const admin = { credentials: ["operator" as const], role: "admin" as const };
  const builtIn = { source: "built_in" as const, env: "both" as const, created_at: null, updated_at: null };
  const declared = (id: string) => BUILT_IN_PROVIDERS.find((p) => p.declaration.id === id);
  const builtInProviders = () =>
    catalogue.builtIn.providers.list().map((p) => ({ id: p.id, display_name: p.displayName, aliases: [...(p.aliases ?? [])], auth_modes: p.authModes, declaration: declared(p.id)?.declaration ?? null, ...builtIn }));
  const builtInTools = (providerId: string) =>
    catalogue.builtIn.tools.list({ provider: providerId }).map((t) => ({
      name: t.name,
      mcp_name: t.mcp_name,
      title: t.title,
      provider: t.provider,
      risk: t.risk,
      side_effect: t.side_effect,
      scopes: t.scopes,
      declaration: declared(providerId)?.tools.find((tool) => tool.name === t.name) ?? null,
      ...builtIn,
    }));

  app.get(
    "/v1/catalogue/schema",
    { schema: { tags, summary: "The JSON Schema of provider and tool declarations", response: { 200: Type.Object({}, { additionalProperties: true }) } } },
    async () => CATALOGUE_SCHEMA,
  );

  app.get(
    "/v1/providers",
    { config: { credentials: ["operator"] }, schema: { tags, summary: "Built-in providers and the tenant's own", response: { 200: Type.Object({ data: Type.Array(ProviderView) }), ...errorResponses(401) } } },
    async (request) => ({ data: [...builtInProviders(), ...(await service.listProviders(request.credential.tenantId)).map(providerView)] }),
  );

  app.post(
    "/v1/providers",
    {
      config: admin,
      schema: {
        tags,
        summary: "Declare a provider for this tenant",
        description:
          "422 invalid_declaration names the path of the fault (details.path), including an id that is a built-in provider's and a URL the broker will not call " +
          "(in production: https only, no private or special-purpose addresses, checked again on every connection). 409 conflict: the tenant already has this id. " +
          `422 catalogue_limit_reached: the tenant already has ${CATALOGUE_LIMITS.providersPerTenant} providers of its own (details.limit providers_per_tenant).`,
        body: CreateBody,
        response: { 201: ProviderView, ...errorResponses(400, 401, 403, 409, 415, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(providerView(await service.createProvider(request.credential.tenantId, request.body, actorOf(request.credential)))),
  );

  app.get(
    "/v1/providers/:id",
    { config: { credentials: ["operator"] }, schema: { tags, summary: "A provider: built in or the tenant's own", params: ProviderParams, response: { 200: ProviderView, ...errorResponses(400, 401, 404) } } },
    async (request) =>
      builtInProviders().find((p) => p.id === catalogue.builtIn.providers.canonicalId(request.params.id)) ?? providerView(await service.getProvider(request.credential.tenantId, request.params.id)),
  );

  app.patch(
    "/v1/providers/:id",
    {
      config: admin,
      schema: { tags, summary: "Change a provider (JSON Merge Patch of its declaration)", description: "403 forbidden for a built-in provider.", params: ProviderParams, body: PatchBody, response: { 200: ProviderView, ...errorResponses(400, 401, 403, 404, 415, 422) } },
    },
    async (request) => providerView(await service.patchProvider(request.credential.tenantId, request.params.id, request.body, actorOf(request.credential))),
  );

  app.delete(
    "/v1/providers/:id",
    {
      config: admin,
      schema: {
        tags,
        summary: "Remove a provider and its tools",
        description: "Its connections stay (revoke them with DELETE /v1/connections/{id}) but no tool uses them any more. 403 forbidden for a built-in provider.",
        params: ProviderParams,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      await service.deleteProvider(request.credential.tenantId, request.params.id, actorOf(request.credential));
      return reply.code(204).send(null);
    },
  );

  app.get(
    "/v1/providers/:id/tools",
    {
      config: { credentials: ["operator"] },
      schema: {
        tags,
        summary: "A provider's built-in tools and the tenant's own",
        description:
          "The id may be an alias (`github` for `scm`); the tools carry the canonical id. Sorted by name; `q`, `risk`, `side_effect`, `limit` and `cursor` work as on GET /v1/tools " +
          "(without `limit` and `cursor`, every matching tool in one page).",
        params: ProviderParams,
        querystring: Type.Object(ToolListFilters, { additionalProperties: false }),
        response: { 200: Type.Object({ data: Type.Array(ToolView), next_cursor: NextCursor }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const tenantId = request.credential.tenantId;
      const id = catalogue.builtIn.providers.canonicalId(request.params.id);
      const { tools: seen } = await catalogue.view({ tenantId });
      const own = (await service.listTools(tenantId, id)).map((t) => toolView(t, seen.has(t.declaration.name) ? (seen.safeNameOf(t.declaration.name) ?? null) : null));
      const all = [...builtInTools(id), ...own].filter((tool) => matchesFilters(tool, request.query)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      return pageOfTools(all, request.query);
    },
  );

  app.post(
    "/v1/providers/:id/tools",
    {
      config: admin,
      schema: {
        tags,
        summary: "Declare a tool under a provider (built-in or the tenant's own)",
        description:
          "422 invalid_declaration names the path of the fault. 409 conflict: the name is taken (by a built-in tool or one of the tenant's). " +
          `422 catalogue_limit_reached: the tenant already has ${CATALOGUE_LIMITS.toolsPerTenant} tools of its own (details.limit tools_per_tenant).`,
        params: ProviderParams,
        body: CreateBody,
        response: { 201: ToolView, ...errorResponses(400, 401, 403, 404, 409, 415, 422) },
      },
    },
    async (request, reply) => reply.code(201).send(toolView(await service.createTool(request.credential.tenantId, request.params.id, request.body, actorOf(request.credential)))),
  );

  app.post(
    "/v1/providers/:id/tools/import",
    {
      config: admin,
      bodyLimit: MAX_OPENAPI_DOCUMENT_BYTES * 2,
      schema: {
        tags,
        summary: "Import tools from an OpenAPI 3.0/3.1 document",
        description:
          `The document is at most ${formatByteLimit(MAX_OPENAPI_DOCUMENT_BYTES)} (413 payload_too_large past it, details.limit_bytes); local $refs are inlined where operations use them, remote ones never fetched. GET operations become read tools of low risk; ` +
          "POST, PUT, PATCH and DELETE become write tools of high risk (so they need approval by default; PATCH the tool to change it). Arguments come from the path, " +
          "query and header parameters and a JSON request body (argument `body`). `dry_run=true` answers what would be created and stores nothing. " +
          "All or nothing: 409 conflict when a name is taken, 422 invalid_declaration when the document cannot be imported. `skipped` lists operations left out and why. " +
          `The document is parsed on a worker thread within budgets; past one, 422 invalid_declaration names it in details.limit and details.max: ` +
          `schema_nodes_per_tool (${IMPORT_LIMITS.schemaNodesPerTool} schema objects in one tool's arguments, a shared $ref counted each time it is inlined), ` +
          `schema_nodes_per_import (${IMPORT_LIMITS.schemaNodesPerImport}), schema_bytes_per_import (${IMPORT_LIMITS.schemaBytesPerImport}), schema_depth (${IMPORT_LIMITS.schemaDepth}), ` +
          `import_time_ms (${IMPORT_THREAD_LIMITS.timeBudgetMs}), import_memory_mb (${IMPORT_THREAD_LIMITS.memoryMb}). ` +
          `422 catalogue_limit_reached: more than ${IMPORT_LIMITS.toolsPerImport} tools from one import (tools_per_import) or past the tenant's ${CATALOGUE_LIMITS.toolsPerTenant} tools (tools_per_tenant). ` +
          "429 rate_limited: the tenant already has an import running on this instance (one at a time; Retry-After: 1).",
        params: ProviderParams,
        querystring: Type.Object({ dry_run: Type.Optional(Type.Boolean()) }, { additionalProperties: false }),
        body: ImportBody,
        response: {
          200: Type.Object({ dry_run: Type.Boolean(), data: Type.Array(ToolView), skipped: Type.Array(Type.Object({ operation: Type.String(), reason: Type.String() })) }),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422, 429),
        },
      },
    },
    async (request) => {
      const dryRun = request.query.dry_run === true;
      const { tools, skipped } = await service.importOpenApi(request.credential.tenantId, request.params.id, request.body, { dryRun, actor: actorOf(request.credential) });
      return { dry_run: dryRun, data: tools.map((t) => toolView(t)), skipped };
    },
  );

  app.get(
    "/v1/providers/:id/tools/:name",
    { config: { credentials: ["operator"] }, schema: { tags, summary: "A tool: built in or the tenant's own", params: ToolParams, response: { 200: ToolView, ...errorResponses(400, 401, 404) } } },
    async (request) => {
      const tenantId = request.credential.tenantId;
      const id = catalogue.builtIn.providers.canonicalId(request.params.id);
      const name = catalogue.builtIn.tools.canonicalName(request.params.name) ?? request.params.name;
      const builtInTool = builtInTools(id).find((t) => t.name === name);
      if (builtInTool) return builtInTool;
      const stored = await service.getTool(tenantId, id, name);
      const { tools: seen } = await catalogue.view({ tenantId });
      return toolView(stored, seen.has(name) ? (seen.safeNameOf(name) ?? null) : null);
    },
  );

  app.patch(
    "/v1/providers/:id/tools/:name",
    {
      config: admin,
      schema: { tags, summary: "Change a tool (JSON Merge Patch of its declaration), e.g. its risk", description: "403 forbidden for a built-in tool.", params: ToolParams, body: PatchBody, response: { 200: ToolView, ...errorResponses(400, 401, 403, 404, 415, 422) } },
    },
    async (request) => toolView(await service.patchTool(request.credential.tenantId, request.params.id, request.params.name, request.body, actorOf(request.credential))),
  );

  app.delete(
    "/v1/providers/:id/tools/:name",
    { config: admin, schema: { tags, summary: "Remove one of the tenant's tools", params: ToolParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      await service.deleteTool(request.credential.tenantId, request.params.id, request.params.name, actorOf(request.credential));
      return reply.code(204).send(null);
    },
  );
}
