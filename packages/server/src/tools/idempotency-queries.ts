/**
 * Every query on `idempotency_keys`; bound to the store once in app.ts. Statements that belong to
 * an invocation's write take that write's transaction as their last argument.
 */
import type { TestOrLive } from "../ids.js";
import type { Executor, Store } from "../store/database.js";
import type { IdempotencyKeysTable } from "../store/schema.js";

export type IdempotencyScope = { tenantId: string; env: TestOrLive; agentAppId: string; endUserId: string | null; key: string };
export type IdempotencyRow = IdempotencyKeysTable;
export type StoredClaim = Pick<IdempotencyRow, "request_fingerprint" | "status" | "invocation_id" | "created_at" | "expires_at">;

/**
 * Keys are scoped to the end user too, so one end user can never replay another's outcome. The
 * end user is folded into the stored key: plain keys never start with "[", folded ones always do.
 */
const storedKey = ({ endUserId, key }: Pick<IdempotencyScope, "endUserId" | "key">) =>
  endUserId === null && !key.startsWith("[") ? key : JSON.stringify([endUserId, key]);

export function createIdempotencyQueries({ db }: Pick<Store, "db">) {
  const scoped = <T extends { where: (...args: any[]) => T }>(query: T, scope: IdempotencyScope): T =>
    query.where("tenant_id", "=", scope.tenantId).where("env", "=", scope.env).where("agent_app_id", "=", scope.agentAppId).where("key", "=", storedKey(scope));

  return {
    transaction: <T>(work: (trx: Executor) => Promise<T>) => db.transaction().execute(work),

    /** Inserts the claim unless the scope already holds one; true when this insert made it. */
    async insertClaim(scope: IdempotencyScope, claim: Omit<IdempotencyRow, "tenant_id" | "env" | "agent_app_id" | "key">, executor: Executor = db): Promise<boolean> {
      const inserted = await executor
        .insertInto("idempotency_keys")
        .values({ tenant_id: scope.tenantId, env: scope.env, agent_app_id: scope.agentAppId, key: storedKey(scope), ...claim })
        .onConflict((oc) => oc.columns(["tenant_id", "env", "agent_app_id", "key"]).doNothing())
        .executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1;
    },

    find: (scope: IdempotencyScope): Promise<StoredClaim | undefined> =>
      scoped(db.selectFrom("idempotency_keys").select(["request_fingerprint", "status", "invocation_id", "created_at", "expires_at"]), scope).executeTakeFirst(),

    /** Deletes the claim only if it is still the expired one that was read (not a fresh claim since). */
    deleteExpired: (scope: IdempotencyScope, expiresAt: string) =>
      scoped(db.deleteFrom("idempotency_keys"), scope).where("expires_at", "=", expiresAt).execute(),

    /** Deletes a claim whose request never announced sending; a `sending` claim is kept. */
    deleteInProgress: (scope: IdempotencyScope, executor: Executor = db) =>
      scoped(executor.deleteFrom("idempotency_keys"), scope).where("status", "=", "in_progress").execute(),

    markCompleted: (scope: IdempotencyScope, invocationId: string, responseStatus: number, executor: Executor = db) =>
      scoped(executor.updateTable("idempotency_keys").set({ status: "completed", response_status: responseStatus, invocation_id: invocationId }), scope).execute(),

    markSending: (scope: IdempotencyScope, invocationId: string, executor: Executor = db) =>
      scoped(executor.updateTable("idempotency_keys").set({ status: "sending", invocation_id: invocationId }), scope).execute(),
  };
}

export type IdempotencyQueries = ReturnType<typeof createIdempotencyQueries>;
