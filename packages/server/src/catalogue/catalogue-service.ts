/**
 * Tenant-defined providers and tools: declared by hand or imported from an OpenAPI document,
 * checked before they are stored, audited, and visible to the tenant's callers at once on this
 * instance (within 2 s on others). Built-in providers and tools are listed alongside but cannot
 * be changed; a tenant's ids and names never shadow them.
 */
import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { ProviderMoves } from "../connections/provider-moves.js";
import { describeChange, originChange, originOf, type CredentialOrigins } from "../providers/credential-origins.js";
import { templateBindingOf } from "../providers/connection-values.js";
import type { Store, Tx } from "../store/database.js";
import type { CatalogueEnv, CatalogueQueries, StoredProvider, StoredTool, ToolSource } from "./catalogue-queries.js";
import type { ProviderDeclaration, ToolDeclaration } from "../providers/declaration-schema.js";
import type { createDeclarationChecks } from "./declaration-checks.js";
import { invalidDeclaration, storedProviderProblem } from "./declaration-checks.js";
import type { FieldProblem } from "../shared/validation-issues.js";
import { formatByteLimit } from "../shared/byte-sizes.js";
import { assertRoomFor, importRefusal } from "./catalogue-limits.js";
import { mergePatch } from "./merge-patch.js";
import type { OpenApiImporter } from "./openapi-import-runner.js";
import type { TenantCatalogue } from "./tenant-catalogue.js";

export type DeclarationInput = { env?: CatalogueEnv | undefined; declaration: unknown };
export type DeclarationPatch = { env?: CatalogueEnv | undefined; declaration?: Record<string, unknown> | undefined };
export type ImportInput = { document: unknown; operation_ids?: string[] | undefined; env?: CatalogueEnv | undefined };

export const MAX_OPENAPI_DOCUMENT_BYTES = 2 * 1024 * 1024;

const MAX_NAMED_IN_MESSAGE = 10;

/** `tool "a" already exists`, `tools "a", "b" and "c" already exist`; past ten names, "… and 40 more" (`details.names` lists them all). */
export function toolsAlreadyExist(names: readonly string[]): string {
  const quoted = names.slice(0, MAX_NAMED_IN_MESSAGE).map((name) => `"${name}"`);
  if (names.length === 1) return `tool ${quoted[0]} already exists`;
  const rest = names.length - quoted.length;
  const listed = rest > 0 ? `${quoted.join(", ")} and ${rest.toLocaleString("en-US")} more` : `${quoted.slice(0, -1).join(", ")} and ${quoted.at(-1)}`;
  return `tools ${listed} already exist`;
}

type CatalogueServiceDeps = {
  store: Pick<Store, "db" | "lock" | "transaction">;
  queries: CatalogueQueries;
  checks: ReturnType<typeof createDeclarationChecks>;
  catalogue: Pick<TenantCatalogue, "builtIn" | "invalidate">;
  audit: Pick<AuditLog, "appendIn">;
  importer: Pick<OpenApiImporter, "run">;
  clock: Clock;
  providerMoves: Pick<ProviderMoves, "markMoved" | "forget">;
};

/** Where a declaration sends credentials: its token endpoint (OAuth) and its API. */
const declaredOrigins = (declaration: ProviderDeclaration): CredentialOrigins => ({
  token: declaration.auth.type === "oauth2" ? originOf(declaration.auth.token_url) : null,
  // A base URL with per-connection values: its template, which every connection's binding differs from.
  api: templateBindingOf({ apiBaseUrl: declaration.api_base_url }),
});

/** A stored provider as its tenant sees it: `problem` when its declaration no longer passes the schema. */
export type ListedProvider = StoredProvider & { problem: FieldProblem | undefined };
const listed = (provider: StoredProvider): ListedProvider => ({ ...provider, problem: storedProviderProblem(provider.declaration) });

const isUniqueViolation = (error: unknown) => ["23505", "SQLITE_CONSTRAINT_UNIQUE"].includes(String((error as { code?: unknown } | null)?.code));

export function createCatalogueService({ store, queries, checks, catalogue, audit, importer, clock, providerMoves }: CatalogueServiceDeps) {
  const builtInProvider = (id: string) => catalogue.builtIn.providers.has(id);
  const builtInTool = (name: string) => catalogue.builtIn.tools.has(name);
  const now = () => clock.now().toISOString();
  /** Tenants with an OpenAPI import on a worker thread of this instance. */
  const importing = new Set<string>();

  async function ownProvider(tenantId: string, providerId: string): Promise<StoredProvider> {
    if (builtInProvider(providerId)) throw new BrokerError("forbidden", `provider "${providerId}" is built in: it cannot be changed or removed`);
    const provider = await queries.findProvider(tenantId, providerId);
    if (!provider) throw notFound(`provider "${providerId}"`);
    return provider;
  }

  /** A provider tools may be declared under: a built-in one, or the tenant's own. */
  async function requireToolProvider(tenantId: string, providerId: string) {
    const canonical = catalogue.builtIn.providers.canonicalId(providerId);
    // Tool names start with the provider's id: an alias would give a built-in provider tools under a second name.
    if (canonical !== providerId) throw new BrokerError("unprocessable", `provider "${providerId}" is an alias of "${canonical}": declare its tools under "${canonical}"`, { provider: canonical });
    if (!builtInProvider(providerId) && !(await queries.findProvider(tenantId, providerId))) throw notFound(`provider "${providerId}"`);
  }

  async function ownTool(tenantId: string, providerId: string, name: string): Promise<StoredTool> {
    if (builtInTool(name)) throw new BrokerError("forbidden", `tool "${name}" is built in: it cannot be changed or removed`);
    const tool = await queries.findTool(tenantId, name);
    if (!tool || tool.providerId !== providerId) throw notFound(`tool "${name}" of provider "${providerId}"`);
    return tool;
  }

  /** Writes inside one transaction with its audit event; a name taken meanwhile is a 409. */
  async function write(tenantId: string, work: (trx: Tx) => Promise<void>, taken: string) {
    try {
      await store.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw new BrokerError("conflict", `${taken} already exists`);
      throw error;
    } finally {
      catalogue.invalidate(tenantId);
    }
  }

  /**
   * Inside the write's transaction, under a per-tenant lock: two concurrent writes cannot both
   * take the last room (SQLite runs one writer at a time anyway).
   */
  async function claimRoom(trx: Tx, tenantId: string, what: "tools" | "providers", adding: number) {
    await store.lock(`catalogue:${tenantId}`, trx);
    assertRoomFor(what, await (what === "tools" ? queries.countTools(tenantId, trx) : queries.countProviders(tenantId, trx)), adding);
  }

  function newTools(tenantId: string, providerId: string, declarations: ToolDeclaration[], env: CatalogueEnv, source: ToolSource): StoredTool[] {
    const at = now();
    return declarations.map((declaration) => ({ id: randomUUID(), tenantId, providerId, env, source, declaration, createdAt: at, updatedAt: at }));
  }

  async function refuseTakenNames(tenantId: string, names: string[]) {
    const taken = [...names.filter(builtInTool), ...(await queries.existingToolNames(tenantId, names))];
    if (taken.length) throw new BrokerError("conflict", toolsAlreadyExist(taken), { names: taken });
  }

  return {
    listProviders: async (tenantId: string) => (await queries.listProviders(tenantId)).map(listed),
    getProvider: async (tenantId: string, providerId: string) => listed(await ownProvider(tenantId, providerId)),

    async createProvider(tenantId: string, input: DeclarationInput, actor: AuditActor): Promise<StoredProvider> {
      const declaration = await checks.provider(input.declaration);
      if (builtInProvider(declaration.id)) {
        const canonical = catalogue.builtIn.providers.canonicalId(declaration.id);
        const what = canonical === declaration.id ? "a built-in provider" : `an alias of the built-in provider "${canonical}"`;
        throw invalidDeclaration([{ field: "/id", message: `"${declaration.id}" is ${what}; choose another id` }], "provider");
      }
      const at = now();
      const provider: StoredProvider = { id: randomUUID(), tenantId, env: input.env ?? "both", declaration, createdAt: at, updatedAt: at };
      await write(tenantId, async (trx) => {
        await claimRoom(trx, tenantId, "providers", 1);
        await queries.insertProvider(provider, trx);
        await audit.appendIn({ tenantId, actor, action: "provider.created", target: { type: "provider", id: declaration.id }, data: { env: provider.env, auth: declaration.auth.type, api_base_url: declaration.api_base_url } }, trx);
      }, `provider "${declaration.id}"`);
      return provider;
    },

    async patchProvider(tenantId: string, providerId: string, patch: DeclarationPatch, actor: AuditActor): Promise<StoredProvider> {
      const existing = await ownProvider(tenantId, providerId);
      const declaration = await checks.provider(patch.declaration ? mergePatch(existing.declaration, patch.declaration) : existing.declaration);
      if (declaration.id !== providerId) throw invalidDeclaration([{ field: "/id", message: "cannot change; declare a new provider instead" }], "provider");
      const updated: StoredProvider = { ...existing, env: patch.env ?? existing.env, declaration, updatedAt: now() };
      // Credentials issued for the old origins never follow the provider to new ones: they need a reconnect.
      const moved = originChange(declaredOrigins(existing.declaration), declaredOrigins(declaration), "oauth2");
      let marked: string[] = [];
      await write(tenantId, async (trx) => {
        await queries.updateProvider(updated, trx);
        const reconnect = moved ? await providerMoves.markMoved({ tenantId, provider: providerId }, moved.to, trx) : undefined;
        marked = reconnect?.connections ?? [];
        const origins = moved && reconnect ? { origins: describeChange(moved), needs_reconnect: { connections: reconnect.connections.length, secret_items: reconnect.secretItems } } : {};
        await audit.appendIn({ tenantId, actor, action: "provider.updated", target: { type: "provider", id: providerId }, data: { env: updated.env, fields: Object.keys(patch.declaration ?? {}), ...origins } }, trx);
      }, `provider "${providerId}"`);
      providerMoves.forget(marked);
      return updated;
    },

    async deleteProvider(tenantId: string, providerId: string, actor: AuditActor): Promise<void> {
      await ownProvider(tenantId, providerId);
      await write(tenantId, async (trx) => {
        await queries.deleteProvider(tenantId, providerId, trx);
        await audit.appendIn({ tenantId, actor, action: "provider.deleted", target: { type: "provider", id: providerId } }, trx);
      }, `provider "${providerId}"`);
    },

    async listTools(tenantId: string, providerId: string): Promise<StoredTool[]> {
      await requireToolProvider(tenantId, providerId);
      return queries.listTools(tenantId, providerId);
    },
    getTool: ownTool,

    async createTool(tenantId: string, providerId: string, input: DeclarationInput, actor: AuditActor): Promise<StoredTool> {
      await requireToolProvider(tenantId, providerId);
      const declaration = checks.tool(input.declaration, providerId);
      await refuseTakenNames(tenantId, [declaration.name]);
      const [tool] = newTools(tenantId, providerId, [declaration], input.env ?? "both", "declared");
      await write(tenantId, async (trx) => {
        await claimRoom(trx, tenantId, "tools", 1);
        await queries.insertTools([tool!], trx);
        await audit.appendIn({ tenantId, actor, action: "tool.created", target: { type: "tool", id: declaration.name }, data: { provider: providerId, env: tool!.env, risk: declaration.risk } }, trx);
      }, `tool "${declaration.name}"`);
      return tool!;
    },

    async patchTool(tenantId: string, providerId: string, name: string, patch: DeclarationPatch, actor: AuditActor): Promise<StoredTool> {
      const existing = await ownTool(tenantId, providerId, name);
      const declaration = checks.tool(patch.declaration ? mergePatch(existing.declaration, patch.declaration) : existing.declaration, providerId);
      if (declaration.name !== name) throw invalidDeclaration([{ field: "/name", message: "cannot change; declare a new tool instead" }], "tool");
      const updated: StoredTool = { ...existing, env: patch.env ?? existing.env, declaration, updatedAt: now() };
      await write(tenantId, async (trx) => {
        await queries.updateTool(updated, trx);
        await audit.appendIn({ tenantId, actor, action: "tool.updated", target: { type: "tool", id: name }, data: { provider: providerId, env: updated.env, fields: Object.keys(patch.declaration ?? {}), risk: declaration.risk } }, trx);
      }, `tool "${name}"`);
      return updated;
    },

    async deleteTool(tenantId: string, providerId: string, name: string, actor: AuditActor): Promise<void> {
      await ownTool(tenantId, providerId, name);
      await write(tenantId, async (trx) => {
        await queries.deleteTool(tenantId, name, trx);
        await audit.appendIn({ tenantId, actor, action: "tool.deleted", target: { type: "tool", id: name }, data: { provider: providerId } }, trx);
      }, `tool "${name}"`);
    },

    /** All or nothing: every imported tool is checked like a declared one before any is stored. */
    async importOpenApi(tenantId: string, providerId: string, input: ImportInput, options: { dryRun: boolean; actor: AuditActor }) {
      await requireToolProvider(tenantId, providerId);
      const size = typeof input.document === "string" ? Buffer.byteLength(input.document) : Buffer.byteLength(JSON.stringify(input.document));
      if (size > MAX_OPENAPI_DOCUMENT_BYTES) {
        throw new BrokerError("payload_too_large", `the OpenAPI document is ${formatByteLimit(size)}, larger than the ${formatByteLimit(MAX_OPENAPI_DOCUMENT_BYTES)} imported`, {
          limit_bytes: MAX_OPENAPI_DOCUMENT_BYTES,
        });
      }
      // Parsed, converted and checked on a worker thread: the request thread only stores the result.
      // One at a time per tenant, so that one tenant cannot fill the threads' queue ahead of everyone else.
      if (importing.has(tenantId)) {
        throw new BrokerError("rate_limited", "this tenant already has an OpenAPI import running on this instance; send the next one when it has answered", { retry_after_seconds: 1 }, { headers: { "retry-after": "1" } });
      }
      importing.add(tenantId);
      const outcome = await importer.run({ document: input.document as string | Record<string, unknown>, providerId, operationIds: input.operation_ids }).finally(() => importing.delete(tenantId));
      if (!outcome.ok) throw importRefusal(outcome);
      const declarations = outcome.tools;
      assertRoomFor("tools", await queries.countTools(tenantId), declarations.length);
      await refuseTakenNames(tenantId, declarations.map((d) => d.name));
      const tools = newTools(tenantId, providerId, declarations, input.env ?? "both", "openapi");
      if (!options.dryRun && tools.length) {
        await write(tenantId, async (trx) => {
          await claimRoom(trx, tenantId, "tools", tools.length);
          await queries.insertTools(tools, trx);
          await audit.appendIn({ tenantId, actor: options.actor, action: "tools.imported", target: { type: "provider", id: providerId }, data: { tools: tools.map((t) => t.declaration.name), env: input.env ?? "both" } }, trx);
        }, "an imported tool");
      }
      return { tools, skipped: outcome.skipped };
    },
  };
}

export type CatalogueService = ReturnType<typeof createCatalogueService>;
