/**
 * Every query on `idempotency_keys`; bound to the store once in app.ts. Statements that belong to
 * an invocation's write take that write's transaction as their last argument.
 */
import type { TestOrLive } from "../ids.js";
import { sql, type CompiledQuery } from "kysely";
import type { Executor, Store } from "../store/database.js";
import { preparedInsert, type Statement } from "../store/prepared.js";
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

const CLAIM_COLUMNS = [
  "tenant_id",
  "env",
  "agent_app_id",
  "key",
  "request_fingerprint",
  "status",
  "invocation_id",
  "response_status",
  "response_sealed",
  "created_at",
  "expires_at",
] as const satisfies readonly (keyof IdempotencyRow)[];

type CompletionRow = Pick<IdempotencyRow, "tenant_id" | "env" | "agent_app_id" | "key" | "invocation_id"> & { response_status: number };
const COMPLETION_COLUMNS = ["tenant_id", "env", "agent_app_id", "key", "invocation_id", "response_status"] as const satisfies readonly (keyof CompletionRow)[];

export function createIdempotencyQueries(store: Pick<Store, "db" | "kind" | "transaction">) {
  const { db } = store;
  // Every call with a key claims it: compiled once per row count (store/prepared.ts).
  const insertClaimRows = preparedInsert<IdempotencyRow>(store, CLAIM_COLUMNS, (executor, rows) =>
    executor
      .insertInto("idempotency_keys")
      .values(rows)
      .onConflict((oc) => oc.columns(["tenant_id", "env", "agent_app_id", "key"]).doNothing())
      .returning("invocation_id"),
  );
  const scoped = <T extends { where: (...args: any[]) => T }>(query: T, scope: IdempotencyScope): T =>
    query.where("tenant_id", "=", scope.tenantId).where("env", "=", scope.env).where("agent_app_id", "=", scope.agentAppId).where("key", "=", storedKey(scope));

  // A batch's completions: one UPDATE from a VALUES list, compiled once per row count like an insert.
  const completeRows = preparedInsert<CompletionRow>(store, COMPLETION_COLUMNS, (executor, rows) => ({
    compile: () => {
      const values = rows.map((row) => sql`(${row.tenant_id}, ${row.env}, ${row.agent_app_id}, ${row.key}, ${row.invocation_id}, ${row.response_status})`);
      // A VALUES list names its columns column1, column2, … on both SQLite and PostgreSQL.
      return sql`
        update idempotency_keys
        set status = 'completed', invocation_id = v.column5, response_status = cast(v.column6 as integer)
        from (values ${sql.join(values)}) as v
        where idempotency_keys.tenant_id = v.column1 and idempotency_keys.env = v.column2
          and idempotency_keys.agent_app_id = v.column3 and idempotency_keys."key" = v.column4`.compile(executor);
    },
  }));

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
      // One statement commits on its own; the pieces of a larger batch commit together.
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
    deleteInProgress: (scope: IdempotencyScope, executor: Executor = db, sentBy?: string) =>
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
