import { expect, it } from "vitest";
import { manualClock } from "../clock.js";
import type { Tx } from "../store/database.js";
import { GENESIS_HASH, hashAuditRow } from "./audit-chain.js";
import { createAuditLog } from "./audit-log.js";
import type { AuditQueries, AuditRow } from "./audit-queries.js";

/** An in-memory stand-in for the audit queries that counts transactions. */
function memoryQueries() {
  const rows: AuditRow[] = [];
  const state = { transactions: 0, locks: 0, failNextInsertOf: undefined as string | undefined };
  const queries = {
    transaction: async <T>(work: (trx: Tx) => Promise<T>) => {
      state.transactions += 1;
      const before = rows.length;
      try {
        return await work({} as Tx);
      } catch (error) {
        rows.length = before;
        throw error;
      }
    },
    lockTails: async (tenantIds: readonly string[], _trx: Tx) => {
      state.locks += tenantIds.length;
      return new Map(tenantIds.flatMap((tenantId) => rows.filter((row) => row.tenant_id === tenantId).slice(-1).map((row) => [tenantId, row] as const)));
    },
    insertMany: async (inserted: readonly AuditRow[], _trx: Tx) => {
      if (inserted.some((row) => row.action === state.failNextInsertOf)) throw new Error("refused by the database");
      rows.push(...inserted);
    },
  } as unknown as AuditQueries;
  return { queries, rows, state };
}

const entry = (tenantId: string, action: string) => ({ tenantId, actor: { type: "control_key" as const, id: "key" }, action });

it("appends concurrent standalone entries in one transaction, each tenant's chain unbroken", async () => {
  const { queries, rows, state } = memoryQueries();
  const audit = createAuditLog({ queries, clock: manualClock(new Date("2026-11-26T00:00:00Z")) });
  await Promise.all([...Array.from({ length: 10 }, (_, i) => audit.append(entry("a", `minted ${i}`))), audit.append(entry("b", "minted"))]);
  expect(state.transactions).toBe(1);
  expect(state.locks).toBe(2);
  for (const tenant of ["a", "b"]) {
    let previous = GENESIS_HASH;
    rows.filter((row) => row.tenant_id === tenant).forEach((row, index) => {
      expect(row.seq).toBe(index + 1);
      expect(row.prev_hash).toBe(previous);
      expect(row.hash).toBe(hashAuditRow(row));
      previous = row.hash;
    });
  }
});

it("fails only the entry the database refuses, and chains the others", async () => {
  const { queries, rows, state } = memoryQueries();
  const audit = createAuditLog({ queries, clock: manualClock(new Date("2026-11-26T00:00:00Z")) });
  state.failNextInsertOf = "bad";
  const results = await Promise.allSettled([audit.append(entry("a", "good 1")), audit.append(entry("a", "bad")), audit.append(entry("a", "good 2"))]);
  expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
  expect(rows.map((row) => [row.action, row.seq])).toEqual([["good 1", 1], ["good 2", 2]]);
});

it("writes what is queued on close, then refuses new entries", async () => {
  const { queries, rows } = memoryQueries();
  const audit = createAuditLog({ queries, clock: manualClock(new Date("2026-11-26T00:00:00Z")) });
  const pending = audit.append(entry("a", "last"));
  await audit.close();
  await pending;
  expect(rows).toHaveLength(1);
  await expect(audit.append(entry("a", "too late"))).rejects.toMatchObject({ code: "service_unavailable" });
});
