/**
 * Stripe-style idempotency keys, scoped to (tenant, env, agent app, key) and kept 24 h. The first
 * completed response is replayed; the same key with another request is refused; a duplicate
 * arriving while the first runs is told so. Requests refused before execution began are
 * forgotten, so the caller may fix the request and reuse the key.
 */
import type { Clock } from "../clock.js";
import { BrokerError } from "../errors.js";
import type { Env } from "../ids.js";
import type { Store } from "../store/database.js";

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** Longer than any request can run (upstream timeout plus a refresh): an older claim was abandoned. */
export const IN_PROGRESS_STALE_MS = 5 * 60_000;

export type IdempotencyScope = { tenantId: string; env: Env; agentAppId: string; key: string };
export type IdempotencyClaim = { kind: "claimed" } | { kind: "replay"; invocationId: string };

type IdempotencyDeps = { store: Pick<Store, "db">; clock: Clock };

export function createIdempotency({ store, clock }: IdempotencyDeps) {
  const { db } = store;
  const where = (scope: IdempotencyScope) =>
    db
      .selectFrom("idempotency_keys")
      .selectAll()
      .where("tenant_id", "=", scope.tenantId)
      .where("env", "=", scope.env)
      .where("agent_app_id", "=", scope.agentAppId)
      .where("key", "=", scope.key);

  async function remove(scope: IdempotencyScope) {
    await db
      .deleteFrom("idempotency_keys")
      .where("tenant_id", "=", scope.tenantId)
      .where("env", "=", scope.env)
      .where("agent_app_id", "=", scope.agentAppId)
      .where("key", "=", scope.key)
      .execute();
  }

  return {
    async claim(scope: IdempotencyScope, requestFingerprint: string, invocationId: string): Promise<IdempotencyClaim> {
      const now = clock.now();
      const inserted = await db
        .insertInto("idempotency_keys")
        .values({
          tenant_id: scope.tenantId,
          env: scope.env,
          agent_app_id: scope.agentAppId,
          key: scope.key,
          request_fingerprint: requestFingerprint,
          status: "in_progress",
          invocation_id: invocationId,
          response_status: null,
          response_sealed: null,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
        })
        .onConflict((oc) => oc.columns(["tenant_id", "env", "agent_app_id", "key"]).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) return { kind: "claimed" };

      const existing = await where(scope).executeTakeFirst();
      if (!existing) return this.claim(scope, requestFingerprint, invocationId);
      if (existing.expires_at <= now.toISOString()) {
        await remove(scope);
        return this.claim(scope, requestFingerprint, invocationId);
      }
      if (existing.status === "in_progress" && existing.created_at <= new Date(now.getTime() - IN_PROGRESS_STALE_MS).toISOString()) {
        // The request that claimed the key died without finishing (e.g. the process was killed).
        await remove(scope);
        return this.claim(scope, requestFingerprint, invocationId);
      }
      if (existing.request_fingerprint !== requestFingerprint) {
        throw new BrokerError("idempotency_key_reused", "this idempotency_key was used with a different request", { idempotency_key: scope.key });
      }
      if (existing.status === "in_progress") {
        throw new BrokerError("request_in_progress", "a request with this idempotency_key is still running; retry shortly", { idempotency_key: scope.key });
      }
      return { kind: "replay", invocationId: existing.invocation_id };
    },

    /** The key now points at a finished invocation whose stored outcome is replayed. */
    complete: (executor: Pick<Store, "db">["db"], scope: IdempotencyScope, invocationId: string, status: number) =>
      executor
        .updateTable("idempotency_keys")
        .set({ status: "completed", response_status: status, invocation_id: invocationId })
        .where("tenant_id", "=", scope.tenantId)
        .where("env", "=", scope.env)
        .where("agent_app_id", "=", scope.agentAppId)
        .where("key", "=", scope.key)
        .execute(),

    release: remove,
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
