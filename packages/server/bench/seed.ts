/**
 * Prepares the benchmark's database directly through the broker's own services and store: a
 * tenant, keys, a connected GitHub account, and optionally a long history of invocations and
 * audit events.
 */
import { randomUUID } from "node:crypto";
import { createServices } from "../src/app.js";
import { bootstrapTenant } from "../src/bootstrap/bootstrap-tenant.js";
import { hashAuditRow, GENESIS_HASH } from "../src/audit/audit-chain.js";
import type { Config } from "../src/config.js";
import { sealTokens } from "../src/connections/credential-bundle.js";
import { openRuntime } from "../src/runtime.js";
import type { AuditEventsTable, InvocationsTable } from "../src/store/schema.js";
import { formatMasterKey } from "../src/vault/master-keys.js";
import { BENCH_ACCESS_TOKEN } from "./fake-upstream.js";

export type BenchFixture = { tenantId: string; agentAppId: string; controlKey: string; connectionId: string };

/** The broker's environment in every benchmark: rate limits out of reach, no webhook worker, GitHub at the fake upstream. */
export function benchBrokerEnvironment(dataDir: string, upstreamPort: number): Record<string, string> {
  return {
    BROKER_ENV: "development",
    BROKER_DATA_DIR: dataDir,
    BROKER_MASTER_KEYS: formatMasterKey("bench", Buffer.alloc(32, 7)),
    BROKER_LOG_LEVEL: "warn",
    BROKER_RATE_LIMIT_EXECUTE: "1000000000",
    BROKER_RATE_LIMIT_TOKEN: "1000000000",
    BROKER_WEBHOOK_WORKER: "false",
    BROKER_APPROVAL_WORKER: "false",
    BROKER_PROVIDER_SCM_CLIENT_ID: "bench-client",
    BROKER_PROVIDER_SCM_CLIENT_SECRET: "bench-secret",
    BROKER_PROVIDER_SCM_API_BASE_URL: `http://127.0.0.1:${upstreamPort}`,
  };
}

export async function seedFixture(config: Config): Promise<BenchFixture> {
  const runtime = await openRuntime(config);
  const services = await createServices(runtime);
  try {
    const operator = { issuer: runtime.developmentIssuer!.issuer, subject: "bench-operator" };
    const tenant = await bootstrapTenant(services, { tenantName: "Bench", operator });
    const connectionId = randomUUID();
    const now = new Date().toISOString();
    const sealed = await sealTokens(services.vault, tenant.tenant_id, connectionId, { accessToken: BENCH_ACCESS_TOKEN, refreshToken: undefined, expiresAt: undefined, scopes: ["read:user"] });
    await runtime.store.db
      .insertInto("connections")
      .values({
        id: connectionId,
        tenant_id: tenant.tenant_id,
        env: "test",
        provider: "scm",
        status: "active",
        owner_issuer: operator.issuer,
        owner_subject: operator.subject,
        display_name: "octocat",
        upstream_account_id: "583231",
        credential_sealed: sealed,
        created_at: now,
        updated_at: now,
        last_used_at: null,
        revoked_at: null,
        upstream_revocation: null,
      })
      .execute();
    return { tenantId: tenant.tenant_id, agentAppId: tenant.agent_app_id, controlKey: tenant.control_keys.test, connectionId };
  } finally {
    services.redis?.disconnect();
    await services.upstream.close();
    await runtime.store.close();
  }
}

/** Writes `count` past invocations and a valid audit chain of `count` events, in batches. */
export async function seedHistory(config: Config, fixture: BenchFixture, count: number, onProgress?: (done: number) => void) {
  const runtime = await openRuntime(config);
  const { db } = runtime.store;
  const batch = 500;
  const last = await db.selectFrom("audit_events").select(["seq", "hash"]).where("tenant_id", "=", fixture.tenantId).orderBy("seq", "desc").limit(1).executeTakeFirst();
  let seq = last?.seq ?? 0;
  let previous = last?.hash ?? GENESIS_HASH;
  const start = Date.parse("2026-01-01T00:00:00Z");
  try {
    for (let done = 0; done < count; done += batch) {
      const size = Math.min(batch, count - done);
      const invocations: InvocationsTable[] = [];
      const audits: AuditEventsTable[] = [];
      for (let i = 0; i < size; i++) {
        const id = randomUUID();
        const at = new Date(start + (done + i) * 1000).toISOString();
        invocations.push({
          id, tenant_id: fixture.tenantId, env: "test" as const, agent_app_id: fixture.agentAppId, actor_type: "agent_app" as const, actor_id: fixture.agentAppId,
          tool_name: "scm.get_authenticated_user", provider: "scm", connection_id: fixture.connectionId, secret_item_id: null, status: "succeeded" as const,
          error_code: null, upstream_status: 200, latency_ms: 3, arguments_redacted: "{}", arguments_sealed: null, arguments_fingerprint: "seed", outcome_sealed: null,
          approval_id: null, idempotency_key: null, request_fingerprint: null, created_at: at, completed_at: at, end_user_id: null, metered_period: at.slice(0, 7), trace_id: null,
        });
        seq += 1;
        const row = {
          tenant_id: fixture.tenantId, seq, occurred_at: at, actor_type: "agent_app", actor_id: fixture.agentAppId, action: "tool.executed",
          target_type: "invocation", target_id: id, outcome: "success", agent_app_id: fixture.agentAppId, tool_name: "scm.get_authenticated_user",
          data: "{}", prev_hash: previous,
        };
        const hash = hashAuditRow(row);
        audits.push({ ...row, id: randomUUID(), hash, end_user_id: null });
        previous = hash;
      }
      await db.transaction().execute(async (trx) => {
        await trx.insertInto("invocations").values(invocations).execute();
        await trx.insertInto("audit_events").values(audits).execute();
      });
      onProgress?.(done + size);
    }
  } finally {
    await runtime.store.close();
  }
}
