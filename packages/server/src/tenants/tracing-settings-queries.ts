import type { Executor, Store } from "../store/database.js";
import type { TracingSettingsTable } from "../store/schema.js";

/** A tenant's tracing settings; `updatedAt`/`updatedBy` are null while it keeps the defaults. */
export type TracingSettings = { propagateTraceContext: boolean; updatedAt: string | null; updatedBy: string | null };

export const DEFAULT_TRACING_SETTINGS: TracingSettings = { propagateTraceContext: false, updatedAt: null, updatedBy: null };

/** Every query on `tracing_settings`, bound to the store; a transaction may be passed last. */
export function createTracingSettingsQueries({ db: storeDb }: Pick<Store, "db">) {
  return {
    async find(tenantId: string, db: Executor = storeDb): Promise<TracingSettings> {
      const row = await db.selectFrom("tracing_settings").select(["propagate_trace_context", "updated_at", "updated_by"]).where("tenant_id", "=", tenantId).executeTakeFirst();
      if (!row) return DEFAULT_TRACING_SETTINGS;
      return { propagateTraceContext: Number(row.propagate_trace_context) === 1, updatedAt: row.updated_at, updatedBy: row.updated_by };
    },

    upsert: (row: TracingSettingsTable, db: Executor = storeDb) =>
      db
        .insertInto("tracing_settings")
        .values(row)
        .onConflict((oc) => oc.column("tenant_id").doUpdateSet({ propagate_trace_context: row.propagate_trace_context, updated_at: row.updated_at, updated_by: row.updated_by }))
        .execute(),
  };
}

export type TracingSettingsQueries = ReturnType<typeof createTracingSettingsQueries>;
