/**
 * One versioned policy document per tenant and env. The compiled policy is cached in process
 * (the execute path must not re-read it per call); a write here drops the cache at once, and
 * other instances pick it up within CACHE_TTL_MS.
 */
import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import type { Env } from "../ids.js";
import type { Store } from "../store/database.js";
import { compilePolicy, type CompiledPolicy } from "./policy-engine.js";
import { validateRules, type PolicyRule } from "./policy-document.js";
import { createPolicyQueries } from "./policy-queries.js";
import { createTtlCache } from "../ttl-cache.js";

const CACHE_TTL_MS = 5_000;

type PolicyServiceDeps = { store: Pick<Store, "db" | "lock">; audit: Pick<AuditLog, "appendIn">; clock: Clock; knownTools: () => string[] };

export function createPolicyService({ store, audit, clock, knownTools }: PolicyServiceDeps) {
  const { db } = store;
  const cache = createTtlCache<CompiledPolicy>({ clock, ttlMs: CACHE_TTL_MS });
  const cacheKey = (tenantId: string, env: Env) => `${tenantId}:${env}`;

  const queries = createPolicyQueries();
  const latest = (tenantId: string, env: Env) => queries.latest(db, tenantId, env);

  return {
    async get(tenantId: string, env: Env) {
      const row = await latest(tenantId, env);
      return {
        env,
        version: row?.version ?? 0,
        rules: row ? (JSON.parse(row.document) as PolicyRule[]) : [],
        updated_at: row?.created_at ?? null,
        updated_by: row?.created_by ?? null,
      };
    },

    async put(tenantId: string, env: Env, rules: PolicyRule[], actor: AuditActor) {
      validateRules(rules, knownTools());
      const at = clock.now().toISOString();
      const version = await db.transaction().execute(async (trx) => {
        await store.lock(trx, `policy:${tenantId}:${env}`);
        const current = await queries.latest(trx, tenantId, env);
        const next = (current?.version ?? 0) + 1;
        await queries.insert(trx, { id: randomUUID(), tenant_id: tenantId, env, version: next, document: JSON.stringify(rules), created_at: at, created_by: actor.id });
        await audit.appendIn(trx, { tenantId, actor, action: "policy.updated", target: { type: "policy", id: `${env}:v${next}` }, data: { env, version: next, rules: rules.length } });
        return next;
      });
      cache.delete(cacheKey(tenantId, env));
      return { env, version, rules, updated_at: at, updated_by: actor.id };
    },

    /** The compiled policy for the execute path. */
    async current(tenantId: string, env: Env): Promise<CompiledPolicy> {
      const key = cacheKey(tenantId, env);
      const hit = cache.get(key);
      if (hit) return hit;
      const row = await latest(tenantId, env);
      const policy = compilePolicy(row?.version ?? 0, row ? (JSON.parse(row.document) as PolicyRule[]) : []);
      cache.set(key, policy);
      return policy;
    },
  };
}

export type PolicyService = ReturnType<typeof createPolicyService>;
