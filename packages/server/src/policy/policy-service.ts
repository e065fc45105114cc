/**
 * One versioned policy document per tenant and env. The compiled policy is cached in process
 * (the execute path must not re-read it per call); a write here drops the cache at once, and
 * other instances pick it up within CACHE_TTL_MS.
 */
import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { notFound } from "../errors.js";
import type { TestOrLive } from "../ids.js";
import type { Store } from "../store/database.js";
import type { ScopedTools, ToolCatalogue } from "../catalogue/tool-catalogue.js";
import { compilePolicy, type CompiledPolicy } from "./policy-engine.js";
import { validateRules, type PolicyRule } from "./policy-document.js";
import type { PolicyQueries } from "./policy-queries.js";
import { createTtlCache } from "../ttl-cache.js";

const CACHE_TTL_MS = 5_000;
const MAX_COMPILED = 10_000;

type PolicyServiceDeps = {
  store: Pick<Store, "db" | "lock" | "transaction">;
  queries: PolicyQueries;
  audit: Pick<AuditLog, "appendIn">;
  clock: Clock;
  catalogue: ScopedTools;
  /** The tenant's member ids: the members an approval rule's `all_of` may name. */
  memberIds: (tenantId: string) => Promise<string[]>;
};

export function createPolicyService({ store, queries, audit, clock, catalogue, memberIds }: PolicyServiceDeps) {
  const cache = createTtlCache<CompiledPolicy>({ clock, ttlMs: CACHE_TTL_MS });
  const cacheKey = (tenantId: string, env: TestOrLive) => `${tenantId}:${env}`;
  /** The last compiled version per key: an expired cache entry re-reads the version, and compiles only a new one. */
  const compiled = new Map<string, { policy: CompiledPolicy; tools: ToolCatalogue }>();
  /** Which argument fields of each tool the vendor compares without case, among the tools this tenant sees. */
  const caseInsensitiveIn = (tools: ToolCatalogue) => (toolName: string) => (tools.has(toolName) ? (tools.resolve(toolName).tool.caseInsensitiveArguments ?? []) : []);

  const latest = (tenantId: string, env: TestOrLive) => queries.latest(tenantId, env);

  return {
    /** The current document, or an earlier version (404 for a version that never existed). */
    async get(tenantId: string, env: TestOrLive, version?: number) {
      const row = version === undefined ? await latest(tenantId, env) : await queries.version(tenantId, env, version);
      if (version !== undefined && !row) throw notFound(`policy version ${version}`);
      return {
        env,
        version: row?.version ?? 0,
        rules: row ? (JSON.parse(row.document) as PolicyRule[]) : [],
        updated_at: row?.created_at ?? null,
        updated_by: row?.created_by ?? null,
      };
    },

    /** Every version written, newest first (the last 200). */
    async history(tenantId: string, env: TestOrLive) {
      const rows = await queries.history(tenantId, env, 200);
      return rows.map((row) => ({ version: row.version, created_at: row.created_at, updated_by: row.created_by, rule_count: (JSON.parse(row.document) as unknown[]).length }));
    },

    async put(tenantId: string, env: TestOrLive, rules: PolicyRule[], actor: AuditActor) {
      const members = new Set((await memberIds(tenantId)).map((id) => id.toLowerCase()));
      validateRules(rules, (await catalogue.view({ tenantId, env })).tools.names(), members);
      const at = clock.now().toISOString();
      const version = await store.transaction(async (trx) => {
        await store.lock(`policy:${tenantId}:${env}`, trx);
        const current = await queries.latest(tenantId, env, trx);
        const next = (current?.version ?? 0) + 1;
        await queries.insert({ id: randomUUID(), tenant_id: tenantId, env, version: next, document: JSON.stringify(rules), created_at: at, created_by: actor.id }, trx);
        await audit.appendIn({ tenantId, actor, action: "policy.updated", target: { type: "policy", id: `${env}:v${next}` }, data: { env, version: next, rules: rules.length } }, trx);
        return next;
      });
      cache.delete(cacheKey(tenantId, env));
      return { env, version, rules, updated_at: at, updated_by: actor.id };
    },

    /** The compiled policy for the execute path. */
    async current(tenantId: string, env: TestOrLive): Promise<CompiledPolicy> {
      const key = cacheKey(tenantId, env);
      const hit = cache.get(key);
      if (hit) return hit;
      const row = await latest(tenantId, env);
      const version = row?.version ?? 0;
      const { tools } = await catalogue.view({ tenantId, env });
      let entry = compiled.get(key);
      // Compiled again for a new version, or when the tenant's own tools changed.
      if (entry?.policy.version !== version || entry.tools !== tools) {
        entry = { policy: compilePolicy(version, row ? (JSON.parse(row.document) as PolicyRule[]) : [], caseInsensitiveIn(tools)), tools };
        if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
        compiled.set(key, entry);
      }
      cache.set(key, entry.policy);
      return entry.policy;
    },
  };
}

export type PolicyService = ReturnType<typeof createPolicyService>;
