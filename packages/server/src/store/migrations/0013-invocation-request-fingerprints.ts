import type { Kysely } from "kysely";

/**
 * An invocation made under an idempotency key keeps the fingerprint of the request that made it.
 * A call that waits for an approval releases its key; when it is continued, the key is written
 * again (as `sending`, in the transaction that consumes the approval) with this fingerprint, so the
 * same request under the same key replays the call's outcome and another request is refused.
 * Older rows keep null: a call continued without one keeps its key under the fingerprint of no
 * request, which only a replay by invocation (continue) can reach.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("invocations").addColumn("request_fingerprint", "text").execute();
}
