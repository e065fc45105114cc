/**
 * Stripe-style idempotency keys, scoped to (tenant, env, agent app, key) and kept 24 h. The first
 * completed response is replayed; the same key with another request is refused; a duplicate
 * arriving while the first runs is told so. Requests refused before execution began are
 * forgotten, so the caller may fix the request and reuse the key.
 *
 * A key whose write was announced as `sending` (write-ahead) is never forgotten or taken over:
 * if its request was abandoned (the process died), the key reports `abandoned_send` so the caller
 * can answer `outcome_unknown` instead of sending the write a second time.
 *
 * An approved call marks its key `sending` in the transaction that consumes its approval
 * (`markStarted`, from the lifecycle's `start`, invocation-lifecycle.ts): its key was released while it waited, so the mark
 * writes it back, and from then on the key replays that call's outcome, never a new approval.
 */
import type { Clock } from "../clock.js";
import { BrokerError } from "../errors.js";
import type { Executor } from "../store/database.js";
import { createWriteBatcher } from "../store/write-batcher.js";
import type { Completion, IdempotencyQueries, IdempotencyScope } from "./idempotency-queries.js";

export type { IdempotencyScope } from "./idempotency-queries.js";

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** Longer than any request can run (upstream timeout plus a refresh): an older claim was abandoned. */
export const IN_PROGRESS_STALE_MS = 5 * 60_000;

export type IdempotencyClaim =
  | { kind: "claimed" }
  | { kind: "replay"; invocationId: string }
  | { kind: "abandoned_send"; invocationId: string };

type IdempotencyDeps = { queries: IdempotencyQueries; clock: Clock };

/** A claim to insert; its batch answers whether the insert made it. */
type PendingClaim = { scope: IdempotencyScope; requestFingerprint: string; invocationId: string };

export function createIdempotency({ queries, clock }: IdempotencyDeps) {
  // Claims that arrive together are inserted by one statement (group commit): each caller still
  // goes on only once its claim is committed, so a duplicate anywhere sees it. They share the
  // batch's time: written together, they are made together.
  const claims = createWriteBatcher<PendingClaim, boolean>(async (batch) => {
    const now = clock.now();
    const createdAt = now.toISOString();
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString();
    const rows = batch.map(({ scope, requestFingerprint, invocationId }) => ({
      scope,
      row: { request_fingerprint: requestFingerprint, status: "in_progress" as const, invocation_id: invocationId, response_status: null, response_sealed: null, created_at: createdAt, expires_at: expiresAt },
    }));
    const inserted = await queries.insertClaims(rows);
    return batch.map((claim) => inserted.has(claim.invocationId));
  });

  const insertClaim = (scope: IdempotencyScope, requestFingerprint: string, invocationId: string): Promise<boolean> =>
    claims.write({ scope, requestFingerprint, invocationId });

  /**
   * Forgets a key, unless a request under it was announced as sending. `sentBy` names a call whose
   * outcome says its own announced request never left: its mark is forgotten too.
   */
  async function release(scope: IdempotencyScope, sentBy?: string, executor?: Executor) {
    await queries.deleteInProgress(scope, sentBy, executor);
  }

  /**
   * In the transaction that starts an approved call: the key is `sending` for `invocationId`. It
   * takes over what nobody holds any more (nothing, an expired or stale claim) and the claim of
   * the request that starts it (`claimedAs`); a key held by another call is refused, which rolls
   * the start back (the approval stays unused).
   */
  async function markStarted(scope: IdempotencyScope, start: { requestFingerprint: string; invocationId: string; claimedAs?: string }, executor: Executor) {
    const now = clock.now();
    const row = {
      request_fingerprint: start.requestFingerprint,
      status: "sending" as const,
      invocation_id: start.invocationId,
      response_status: null,
      response_sealed: null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
    };
    if (await queries.insertSending(scope, row, executor)) return;
    const held = await queries.find(scope, executor);
    const free =
      held !== undefined &&
      (held.expires_at <= now.toISOString() ||
        (held.status === "in_progress" && (held.invocation_id === start.claimedAs || held.created_at <= new Date(now.getTime() - IN_PROGRESS_STALE_MS).toISOString())));
    if (free && (await queries.replaceClaim(scope, held, row, executor))) return;
    if (held === undefined || held.status === "in_progress") {
      throw new BrokerError("request_in_progress", "another request with this idempotency_key is running; retry shortly", { idempotency_key: scope.key });
    }
    throw new BrokerError("idempotency_key_reused", "this idempotency_key already belongs to another call", { idempotency_key: scope.key, invocation_id: held.invocation_id });
  }

  return {
    /** Writes the claims still queued, then refuses new ones (shutdown, main.ts). */
    close: () => claims.close(),

    async claim(scope: IdempotencyScope, requestFingerprint: string, invocationId: string): Promise<IdempotencyClaim> {
      if (await insertClaim(scope, requestFingerprint, invocationId)) return { kind: "claimed" };

      const now = clock.now();
      const existing = await queries.find(scope);
      if (!existing) return this.claim(scope, requestFingerprint, invocationId);
      if (existing.expires_at <= now.toISOString()) {
        await queries.deleteExpired(scope, existing.expires_at);
        return this.claim(scope, requestFingerprint, invocationId);
      }
      const abandoned = existing.status !== "completed" && existing.created_at <= new Date(now.getTime() - IN_PROGRESS_STALE_MS).toISOString();
      if (abandoned && existing.status === "in_progress") {
        // The request that claimed the key died before sending anything (e.g. the process was killed).
        await release(scope);
        return this.claim(scope, requestFingerprint, invocationId);
      }
      if (existing.request_fingerprint !== requestFingerprint) {
        throw new BrokerError("idempotency_key_reused", "this idempotency_key was used with a different request", { idempotency_key: scope.key });
      }
      if (abandoned) return { kind: "abandoned_send", invocationId: existing.invocation_id };
      if (existing.status !== "completed") {
        throw new BrokerError("request_in_progress", "a request with this idempotency_key is still running; retry shortly", { idempotency_key: scope.key });
      }
      return { kind: "replay", invocationId: existing.invocation_id };
    },

    /** The statements after which each key points at a finished invocation, whose stored outcome is replayed. */
    completeStatements: (completions: readonly Completion[]) => queries.completeStatements(completions),

    /** Write-ahead: the request under this key is about to leave the broker. */
    markSending: (scope: IdempotencyScope, invocationId: string, executor: Executor) => queries.markSending(scope, invocationId, executor),

    markStarted,

    release,
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;
