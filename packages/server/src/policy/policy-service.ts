/**
 * One versioned policy document per tenant and env. The compiled policy is cached in process
 * (the execute path must not re-read it per call); a write here drops the cache at once, and
 * other instances pick it up within CACHE_TTL_MS.
 */
import { randomUUID } from "node:crypto";
import type { AuditActor, AuditLog } from "../audit/audit-log.js";
import type { Clock } from "../clock.js";
import { BrokerError, notFound } from "../errors.js";
import type { TestOrLive } from "../ids.js";
import type { Store } from "../store/database.js";
import type { ScopedTools, ToolCatalogue } from "../catalogue/tool-catalogue.js";
import { compilePolicy, type CompiledPolicy } from "./policy-engine.js";
import { validateRules, type PolicyRule } from "./policy-document.js";
import { compareDecisions, representativeCalls, type ComparedCall } from "./policy-comparison.js";
import { policyTemplates } from "./policy-templates.js";
import type { PolicyQueries } from "./policy-queries.js";
import { createTtlCache } from "../ttl-cache.js";

const CACHE_TTL_MS = 5_000;

const unknownTool = (index: number, name: string) =>
  new BrokerError("unprocessable", `invalid calls: /calls/${index}/tool_name names no tool of this env ("${name}")`, { fields: [{ field: `/calls/${index}/tool_name`, message: `names no tool of this env ("${name}")` }] });
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

  /** The checks of a write (422 with the path of the fault), for a PUT and for a draft compared before one. */
  async function validateFor(tenantId: string, env: TestOrLive, rules: PolicyRule[]) {
    const members = new Set((await memberIds(tenantId)).map((id) => id.toLowerCase()));
    validateRules(rules, (await catalogue.view({ tenantId, env })).tools.names(), members);
  }

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
      await validateFor(tenantId, env, rules);
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

    /** Named starting points built from the tools of this env (policy-templates). */
    async templates(tenantId: string, env: TestOrLive) {
      return policyTemplates((await catalogue.view({ tenantId, env })).tools.list());
    },

    /**
     * The decisions of the policy in force and of a draft (validated as a PUT would be) for the
     * same calls: the caller's, or representative ones. A call's tool must be in the env's
     * catalogue (422 naming `/calls/i/tool_name`); it is decided under its canonical name.
     */
    async compare(tenantId: string, env: TestOrLive, rules: PolicyRule[], calls?: ComparedCall[]) {
      await validateFor(tenantId, env, rules);
      const [row, { tools }] = await Promise.all([latest(tenantId, env), catalogue.view({ tenantId, env })]);
      // Read once and compiled here, so both sides come from the same stored version.
      const stored = row ? (JSON.parse(row.document) as PolicyRule[]) : [];
      const current = compilePolicy(row?.version ?? 0, stored, caseInsensitiveIn(tools));
      const picked = calls ? { calls, truncated: false } : representativeCalls(tools.list(), [...stored, ...rules]);
      const resolved = picked.calls.map((call, i) => {
        const name = tools.canonicalName(call.tool_name);
        if (name === undefined) throw unknownTool(i, call.tool_name);
        return { ...call, tool_name: name, risk: tools.resolve(name).tool.risk };
      });
      const draft = compilePolicy(current.version, rules, caseInsensitiveIn(tools));
      return { env, current_version: current.version, representative: calls === undefined, truncated: picked.truncated, results: compareDecisions(resolved, current, draft) };
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
