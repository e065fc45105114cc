import { expect, it } from "vitest";
import { manualClock } from "../clock.js";
import type { Executor } from "../store/database.js";
import { createIdempotency } from "./idempotency.js";
import type { IdempotencyQueries, IdempotencyScope } from "./idempotency-queries.js";

/** Claims kept in memory; counts the transactions their inserts ran in. */
function memoryQueries() {
  const stored = new Map<string, { request_fingerprint: string; status: string; invocation_id: string; created_at: string; expires_at: string }>();
  const state = { transactions: 0 };
  const queries = {
    transaction: async <T>(work: (trx: Executor) => Promise<T>) => {
      state.transactions += 1;
      return work({} as Executor);
    },
    insertClaim: async (scope: IdempotencyScope, row: { request_fingerprint: string; status: string; invocation_id: string; created_at: string; expires_at: string }) => {
      if (stored.has(scope.key)) return false;
      stored.set(scope.key, row);
      return true;
    },
    find: async (scope: IdempotencyScope) => stored.get(scope.key),
  } as unknown as IdempotencyQueries;
  return { queries, state };
}

const scope = (key: string): IdempotencyScope => ({ tenantId: "t", env: "test", agentAppId: "a", endUserId: null, key });

it("commits concurrent claims in one transaction, and tells a duplicate in the same batch that the first is in progress", async () => {
  const { queries, state } = memoryQueries();
  const idempotency = createIdempotency({ queries, clock: manualClock(new Date("2026-11-27T00:00:00Z")) });
  const results = await Promise.allSettled([
    ...Array.from({ length: 5 }, (_, i) => idempotency.claim(scope(`k${i}`), "fp", `inv-${i}`)),
    idempotency.claim(scope("k0"), "fp", "inv-duplicate"),
  ]);
  expect(state.transactions).toBe(1);
  expect(results.slice(0, 5).map((result) => (result.status === "fulfilled" ? result.value.kind : "rejected"))).toEqual(Array(5).fill("claimed"));
  expect(results[5]).toMatchObject({ status: "rejected", reason: { code: "request_in_progress" } });
});
