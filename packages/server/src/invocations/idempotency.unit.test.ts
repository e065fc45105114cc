import { expect, it } from "vitest";
import { manualClock } from "../clock.js";
import { createIdempotency } from "./idempotency.js";
import type { ClaimRow, IdempotencyQueries, IdempotencyScope } from "./idempotency-queries.js";

/** Claims kept in memory; counts the statements that inserted them. */
function memoryQueries() {
  const stored = new Map<string, ClaimRow>();
  const state = { statements: 0 };
  const queries = {
    insertClaims: async (claims: { scope: IdempotencyScope; row: ClaimRow }[]) => {
      state.statements += 1;
      const inserted = new Set<string>();
      for (const { scope, row } of claims) {
        if (stored.has(scope.key)) continue;
        stored.set(scope.key, row);
        inserted.add(row.invocation_id);
      }
      return inserted;
    },
    find: async (scope: IdempotencyScope) => stored.get(scope.key),
  } as unknown as IdempotencyQueries;
  return { queries, state };
}

const scope = (key: string): IdempotencyScope => ({ tenantId: "t", env: "test", agentAppId: "a", endUserId: null, key });

it("inserts concurrent claims with one statement, and tells a duplicate in the same batch that the first is in progress", async () => {
  const { queries, state } = memoryQueries();
  const idempotency = createIdempotency({ queries, clock: manualClock(new Date("2026-11-27T00:00:00Z")) });
  const results = await Promise.allSettled([
    ...Array.from({ length: 5 }, (_, i) => idempotency.claim(scope(`k${i}`), "fp", `inv-${i}`)),
    idempotency.claim(scope("k0"), "fp", "inv-duplicate"),
  ]);
  expect(state.statements).toBe(1);
  expect(results.slice(0, 5).map((result) => (result.status === "fulfilled" ? result.value.kind : "rejected"))).toEqual(Array(5).fill("claimed"));
  expect(results[5]).toMatchObject({ status: "rejected", reason: { code: "request_in_progress" } });
});
