import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { notFound } from "../errors.js";
import type { AgentAppId } from "../ids.js";
import type { Store } from "../store/database.js";
import type { AgentAppsTable } from "../store/schema.js";
import type { AgentAppQueries } from "./agent-app-queries.js";
import { createTtlCache } from "../ttl-cache.js";

export type AgentApp = { id: AgentAppId; name: string; status: AgentAppsTable["status"]; created_at: string; disabled_at: string | null };

const toAgentApp = (row: AgentAppsTable): AgentApp => ({
  id: row.id as AgentAppId,
  name: row.name,
  status: row.status,
  created_at: row.created_at,
  disabled_at: row.disabled_at,
});

/**
 * Token minting and control-key execution look the agent app up on every call. A disable through
 * this instance takes effect at once; other instances see it within the TTL.
 */
const CACHE_TTL_MS = 2_000;

type AgentAppServiceDeps = { store: Pick<Store, "db" | "transaction">; queries: AgentAppQueries; clock: Clock; audit: Pick<AuditLog, "appendIn"> };

export function createAgentAppService({ store, queries, clock, audit }: AgentAppServiceDeps) {
  const recent = createTtlCache<AgentApp>({ clock, ttlMs: CACHE_TTL_MS });

  return {
    /** `createdByMemberId`: the member who created it, when a member did (a policy rule may keep them from approving its calls). */
    async create(tenantId: string, name: string, actor: AuditActor, createdByMemberId: string | null = null): Promise<AgentApp> {
      const row: AgentAppsTable = {
        id: randomUUID(),
        tenant_id: tenantId,
        name,
        status: "active",
        created_at: clock.now().toISOString(),
        disabled_at: null,
        created_by_member_id: createdByMemberId,
      };
      await store.transaction(async (trx) => {
        await queries.insert(row, trx);
        await audit.appendIn({ tenantId, actor, action: "agent_app.created", target: { type: "agent_app", id: row.id }, data: { name } }, trx);
      });
      return toAgentApp(row);
    },

    async list(tenantId: string): Promise<AgentApp[]> {
      const rows = await queries.list(tenantId);
      return rows.map(toAgentApp);
    },

    /** Only agent apps of this tenant exist for it: another tenant's id is "not found". */
    async get(tenantId: string, id: string): Promise<AgentApp> {
      const key = `${tenantId}:${id}`;
      const hit = recent.get(key);
      if (hit) return hit;
      const row = await queries.find(tenantId, id);
      if (!row) throw notFound("agent app");
      const app = toAgentApp(row);
      recent.set(key, app);
      return app;
    },

    async disable(tenantId: string, id: string, actor: AuditActor): Promise<AgentApp> {
      const app = await this.get(tenantId, id);
      if (app.status === "disabled") return app;
      const disabledAt = clock.now().toISOString();
      await store.transaction(async (trx) => {
        await queries.markDisabled(id, disabledAt, trx);
        await audit.appendIn({ tenantId, actor, action: "agent_app.disabled", target: { type: "agent_app", id } }, trx);
      });
      // After the commit: a transaction may run twice, and only a committed change is forgotten.
      recent.delete(`${tenantId}:${id}`);
      return { ...app, status: "disabled", disabled_at: disabledAt };
    },
  };
}

export type AgentAppService = ReturnType<typeof createAgentAppService>;
