/**
 * A tenant's tracing settings: whether a tool call's W3C trace context (`traceparent`,
 * `tracestate`) goes on to the upstream with its request. Off by default: the trace context tells
 * the vendor which of the tenant's calls belong together, which the tenant may not want to share.
 * The execute path asks `propagates` on every traced call, so the answer is cached for 2 s per
 * tenant (another instance sees a change within that time; this one at once).
 */
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import type { Store } from "../store/database.js";
import { createTtlCache } from "../ttl-cache.js";
import type { TracingSettingsQueries } from "./tracing-settings-queries.js";

export const TRACING_SETTINGS_CACHE_MS = 2_000;

type TracingSettingsServiceDeps = {
  store: Pick<Store, "transaction">;
  queries: TracingSettingsQueries;
  audit: Pick<AuditLog, "appendIn">;
  clock: Clock;
};

export function createTracingSettingsService({ store, queries, audit, clock }: TracingSettingsServiceDeps) {
  const cached = createTtlCache<{ propagate: boolean }>({ clock, ttlMs: TRACING_SETTINGS_CACHE_MS });

  return {
    get: (tenantId: string) => queries.find(tenantId),

    async put(tenantId: string, input: { propagateTraceContext: boolean }, actor: AuditActor) {
      const at = clock.now().toISOString();
      await store.transaction(async (trx) => {
        await queries.upsert({ tenant_id: tenantId, propagate_trace_context: input.propagateTraceContext ? 1 : 0, updated_at: at, updated_by: actor.id }, trx);
        await audit.appendIn({
          tenantId,
          actor,
          action: "tracing_settings.updated",
          target: { type: "tracing_settings", id: tenantId },
          data: { propagate_trace_context: input.propagateTraceContext },
        }, trx);
      });
      cached.delete(tenantId);
      return queries.find(tenantId);
    },

    /** Whether the tenant's calls carry their trace context to the upstream (cached, see above). */
    async propagates(tenantId: string): Promise<boolean> {
      const hit = cached.get(tenantId);
      if (hit) return hit.propagate;
      const propagate = (await queries.find(tenantId)).propagateTraceContext;
      cached.set(tenantId, { propagate });
      return propagate;
    },
  };
}

export type TracingSettingsService = ReturnType<typeof createTracingSettingsService>;
