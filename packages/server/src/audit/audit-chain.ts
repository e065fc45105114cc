import { createHash } from "node:crypto";
import type { AuditEventsTable } from "../store/schema.js";

export const GENESIS_HASH = "0".repeat(64);

/** The hash covers every column but the row's own hash and id, in a fixed order. */
export function hashAuditRow(row: Omit<AuditEventsTable, "hash" | "id">): string {
  const material = JSON.stringify([
    row.tenant_id,
    row.seq,
    row.occurred_at,
    row.actor_type,
    row.actor_id,
    row.action,
    row.target_type,
    row.target_id,
    row.outcome,
    row.agent_app_id,
    row.tool_name,
    row.data,
    row.prev_hash,
  ]);
  return createHash("sha256").update(material).digest("hex");
}

export type ChainVerdict = { ok: true; events: number } | { ok: false; events: number; brokenAtSeq: number; reason: string };

export function verifyChain(rows: AuditEventsTable[]): ChainVerdict {
  let previous = GENESIS_HASH;
  let expectedSeq = 1;
  for (const row of rows) {
    if (row.seq !== expectedSeq) return { ok: false, events: rows.length, brokenAtSeq: expectedSeq, reason: "a row is missing" };
    if (row.prev_hash !== previous) return { ok: false, events: rows.length, brokenAtSeq: row.seq, reason: "prev_hash does not match" };
    if (hashAuditRow(row) !== row.hash) return { ok: false, events: rows.length, brokenAtSeq: row.seq, reason: "row content was altered" };
    previous = row.hash;
    expectedSeq += 1;
  }
  return { ok: true, events: rows.length };
}
