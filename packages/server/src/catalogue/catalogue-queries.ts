import type { Executor, Store } from "../store/database.js";
import type { CatalogueProvidersTable, CatalogueToolsTable } from "../store/schema.js";
import type { ProviderDeclaration, ToolDeclaration } from "../providers/declaration-schema.js";

export type CatalogueEnv = CatalogueProvidersTable["env"];
export type ToolSource = CatalogueToolsTable["source"];

export type StoredProvider = { id: string; tenantId: string; env: CatalogueEnv; declaration: ProviderDeclaration; createdAt: string; updatedAt: string };
export type StoredTool = { id: string; tenantId: string; providerId: string; env: CatalogueEnv; source: ToolSource; declaration: ToolDeclaration; createdAt: string; updatedAt: string };

const providerOf = (row: CatalogueProvidersTable): StoredProvider => ({
  id: row.id,
  tenantId: row.tenant_id,
  env: row.env,
  declaration: JSON.parse(row.declaration) as ProviderDeclaration,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toolOf = (row: CatalogueToolsTable): StoredTool => ({
  id: row.id,
  tenantId: row.tenant_id,
  providerId: row.provider_id,
  env: row.env,
  source: row.source,
  declaration: JSON.parse(row.declaration) as ToolDeclaration,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const providerRow = (provider: StoredProvider): CatalogueProvidersTable => ({
  id: provider.id,
  tenant_id: provider.tenantId,
  provider_id: provider.declaration.id,
  env: provider.env,
  declaration: JSON.stringify(provider.declaration),
  created_at: provider.createdAt,
  updated_at: provider.updatedAt,
});

const toolRow = (tool: StoredTool): CatalogueToolsTable => ({
  id: tool.id,
  tenant_id: tool.tenantId,
  provider_id: tool.providerId,
  name: tool.declaration.name,
  env: tool.env,
  source: tool.source,
  declaration: JSON.stringify(tool.declaration),
  created_at: tool.createdAt,
  updated_at: tool.updatedAt,
});

const PROVIDER_COLUMNS = ["id", "tenant_id", "provider_id", "env", "declaration", "created_at", "updated_at"] as const;
/** 9 columns a row: 4,500 bound parameters a statement, below SQLite's 32,766 and PostgreSQL's 65,535. */
const INSERT_CHUNK_ROWS = 500;
const TOOL_COLUMNS = ["id", "tenant_id", "provider_id", "name", "env", "source", "declaration", "created_at", "updated_at"] as const;

/** Every query on tenant-defined providers and tools, bound to the store; a transaction may be passed last. */
export function createCatalogueQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    insertProvider: (provider: StoredProvider, db: Executor = storeDb) => db.insertInto("catalogue_providers").values(providerRow(provider)).execute(),

    async updateProvider(provider: StoredProvider, db: Executor = storeDb) {
      const { declaration, env, updated_at } = providerRow(provider);
      await db.updateTable("catalogue_providers").set({ declaration, env, updated_at }).where("id", "=", provider.id).execute();
    },

    deleteProvider: async (tenantId: string, providerId: string, db: Executor = storeDb) => {
      await db.deleteFrom("catalogue_tools").where("tenant_id", "=", tenantId).where("provider_id", "=", providerId).execute();
      const result = await db.deleteFrom("catalogue_providers").where("tenant_id", "=", tenantId).where("provider_id", "=", providerId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    findProvider: async (tenantId: string, providerId: string, db: Executor = storeDb) => {
      const row = await db.selectFrom("catalogue_providers").select(PROVIDER_COLUMNS).where("tenant_id", "=", tenantId).where("provider_id", "=", providerId).executeTakeFirst();
      return row && providerOf(row);
    },

    listProviders: async (tenantId: string, db: Executor = storeDb) =>
      (await db.selectFrom("catalogue_providers").select(PROVIDER_COLUMNS).where("tenant_id", "=", tenantId).orderBy("provider_id").execute()).map(providerOf),

    /** In chunks, so that an import at the tools-per-tenant limit stays under either engine's limit on bound parameters. */
    insertTools: async (tools: StoredTool[], db: Executor = storeDb) => {
      for (let start = 0; start < tools.length; start += INSERT_CHUNK_ROWS) {
        await db.insertInto("catalogue_tools").values(tools.slice(start, start + INSERT_CHUNK_ROWS).map(toolRow)).execute();
      }
    },

    countTools: async (tenantId: string, db: Executor = storeDb) =>
      Number((await db.selectFrom("catalogue_tools").select((eb) => eb.fn.countAll<number>().as("count")).where("tenant_id", "=", tenantId).executeTakeFirstOrThrow()).count),

    countProviders: async (tenantId: string, db: Executor = storeDb) =>
      Number((await db.selectFrom("catalogue_providers").select((eb) => eb.fn.countAll<number>().as("count")).where("tenant_id", "=", tenantId).executeTakeFirstOrThrow()).count),

    async updateTool(tool: StoredTool, db: Executor = storeDb) {
      const { declaration, env, updated_at } = toolRow(tool);
      await db.updateTable("catalogue_tools").set({ declaration, env, updated_at }).where("id", "=", tool.id).execute();
    },

    deleteTool: async (tenantId: string, name: string, db: Executor = storeDb) => {
      const result = await db.deleteFrom("catalogue_tools").where("tenant_id", "=", tenantId).where("name", "=", name).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    findTool: async (tenantId: string, name: string, db: Executor = storeDb) => {
      const row = await db.selectFrom("catalogue_tools").select(TOOL_COLUMNS).where("tenant_id", "=", tenantId).where("name", "=", name).executeTakeFirst();
      return row && toolOf(row);
    },

    /** The names among `names` that the tenant already has. */
    existingToolNames: async (tenantId: string, names: string[], db: Executor = storeDb) =>
      names.length ? (await db.selectFrom("catalogue_tools").select("name").where("tenant_id", "=", tenantId).where("name", "in", names).execute()).map((r) => r.name) : [],

    listTools: async (tenantId: string, providerId?: string, db: Executor = storeDb) => {
      let query = db.selectFrom("catalogue_tools").select(TOOL_COLUMNS).where("tenant_id", "=", tenantId);
      if (providerId) query = query.where("provider_id", "=", providerId);
      return (await query.orderBy("name").execute()).map(toolOf);
    },
  };
}

export type CatalogueQueries = ReturnType<typeof createCatalogueQueries>;
