/**
 * Every query on `idempotency_keys`; bound to the store once in app.ts. Statements that belong to
 * an invocation's write take that write's transaction as their last argument.
 */
import type { TestOrLive } from "../ids.js";
import type { CompiledQuery } from "kysely";
import type { Executor, Store } from "../store/database.js";
import { hotStatement, type Statement } from "../store/prepared.js";
import type { IdempotencyKeysTable } from "../store/schema.js";

export type IdempotencyScope = { tenantId: string; env: TestOrLive; agentAppId: string; endUserId: string | null; key: string };
export type IdempotencyRow = IdempotencyKeysTable;
/** A finished call's key, and what it now replays. */
export type Completion = { scope: IdempotencyScope; invocationId: string; responseStatus: number };
/** A new claim's own columns (its scope gives the rest). */
export type ClaimRow = Omit<IdempotencyRow, "tenant_id" | "env" | "agent_app_id" | "key">;
export type StoredClaim = Pick<IdempotencyRow, "request_fingerprint" | "status" | "invocation_id" | "created_at" | "expires_at">;

/**
 * Keys are scoped to the end user too, so one end user can never replay another's outcome. The
 * end user is folded into the stored key: plain keys never start with "[", folded ones always do.
 */
const storedKey = ({ endUserId, key }: Pick<IdempotencyScope, "endUserId" | "key">) =>
  endUserId === null && !key.startsWith("[") ? key : JSON.stringify([endUserId, key]);

type CompletionRow = Pick<IdempotencyRow, "tenant_id" | "env" | "agent_app_id" | "key" | "invocation_id"> & { response_status: number };

export function createIdempotencyQueries(store: Pick<Store, "db" | "kind" | "transaction">) {
  const { db } = store;
  // Every call with a key claims it: compiled ahead of time (store/hot-statements.ts, store/prepared.ts).
  const insertClaimRows = hotStatement<IdempotencyRow>(store, "idempotency_keys.claim");
  const scoped = <T extends { where: (...args: any[]) => T }>(query: T, scope: IdempotencyScope): T =>
    query.where("tenant_id", "=", scope.tenantId).where("env", "=", scope.env).where("agent_app_id", "=", scope.agentAppId).where("key", "=", storedKey(scope));

  // A batch's completions: one UPDATE joined to the rows, compiled ahead of time like the claims.
  const completeRows = hotStatement<CompletionRow>(store, "idempotency_keys.complete");

  return {
    /**
     * Inserts each claim unless its scope already holds one, or an earlier claim of the same call
     * takes it, committed at once; answers the invocation ids of the claims that were inserted.
     */
    async insertClaims(claims: readonly { scope: IdempotencyScope; row: ClaimRow }[]): Promise<Set<string>> {
      const statements = insertClaimRows(claims.map(({ scope, row }) => ({ tenant_id: scope.tenantId, env: scope.env, agent_app_id: scope.agentAppId, key: storedKey(scope), ...row })));
      const insert = async (executor: Executor) => {
        const inserted = new Set<string>();
        for (const statement of statements) {
          for (const claim of (await executor.executeQuery(statement as CompiledQuery<{ invocation_id: string }>)).rows) inserted.add(claim.invocation_id);
        }
        return inserted;
      };
      // One statement commits on its own; SQLite's one-row statements of a batch commit together.
      return statements.length === 1 ? insert(db) : store.transaction(insert);
    },

    find: (scope: IdempotencyScope, executor: Executor = db): Promise<StoredClaim | undefined> =>
      scoped(executor.selectFrom("idempotency_keys").select(["request_fingerprint", "status", "invocation_id", "created_at", "expires_at"]), scope).executeTakeFirst(),

    /** Deletes the claim only if it is still the expired one that was read (not a fresh claim since). */
    deleteExpired: (scope: IdempotencyScope, expiresAt: string) =>
      scoped(db.deleteFrom("idempotency_keys"), scope).where("expires_at", "=", expiresAt).execute(),

    /**
     * Deletes a claim whose request never announced sending; a `sending` claim is kept, unless it
     * is the mark of `sentBy`, an invocation whose outcome says its request never left.
     */
    deleteInProgress: (scope: IdempotencyScope, sentBy?: string, executor: Executor = db) =>
      scoped(executor.deleteFrom("idempotency_keys"), scope)
        .where((eb) => (sentBy === undefined ? eb("status", "=", "in_progress") : eb.or([eb("status", "=", "in_progress"), eb.and([eb("status", "=", "sending"), eb("invocation_id", "=", sentBy)])])))
        .execute(),

    /** A `sending` mark where the key holds nothing (an approved call's key was released while it waited); false if it holds a claim. */
    async insertSending(scope: IdempotencyScope, row: ClaimRow, executor: Executor): Promise<boolean> {
      const inserted = await executor
        .insertInto("idempotency_keys")
        .values({ tenant_id: scope.tenantId, env: scope.env, agent_app_id: scope.agentAppId, key: storedKey(scope), ...row })
        .onConflict((oc) => oc.columns(["tenant_id", "env", "agent_app_id", "key"]).doNothing())
        .returning("invocation_id")
        .executeTakeFirst();
      return inserted !== undefined;
    },

    /** Replaces the claim that was read (same invocation and status) with `row`; false if it changed since. */
    async replaceClaim(scope: IdempotencyScope, read: Pick<StoredClaim, "invocation_id" | "status">, row: ClaimRow, executor: Executor): Promise<boolean> {
      const result = await scoped(executor.updateTable("idempotency_keys").set(row), scope)
        .where("invocation_id", "=", read.invocation_id)
        .where("status", "=", read.status)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The UPDATEs that point each key at its finished invocation, many keys to a statement (none for no keys). */
    completeStatements: (completions: readonly Completion[]): Statement[] =>
      completeRows(
        completions.map(({ scope, invocationId, responseStatus }) => ({
          tenant_id: scope.tenantId,
          env: scope.env,
          agent_app_id: scope.agentAppId,
          key: storedKey(scope),
          invocation_id: invocationId,
          response_status: responseStatus,
        })),
      ),

    markSending: (scope: IdempotencyScope, invocationId: string, executor: Executor = db) =>
      scoped(executor.updateTable("idempotency_keys").set({ status: "sending", invocation_id: invocationId }), scope).execute(),
  };
}

export type IdempotencyQueries = ReturnType<typeof createIdempotencyQueries>;
