import { hash } from "node:crypto";
import type { AuditEventsTable } from "../store/schema.js";

export const GENESIS_HASH = "0".repeat(64);

/** The hash covers every column but the row's own hash and id, in a fixed order. */
/** The end user joined the chain later: rows without one hash exactly as they always did. */
export function hashAuditRow(row: Omit<AuditEventsTable, "hash" | "id" | "end_user_id"> & { end_user_id?: string | null }): string {
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
    ...(row.end_user_id ? [row.end_user_id] : []),
  ]);
  return hash("sha256", material, "hex");
}

export type ChainVerdict = { ok: true; events: number } | { ok: false; events: number; brokenAtSeq: number; reason: string };

/** Where a verification stands after some rows: the last hash and the seq the next row must have. */
export type ChainCursor = { previous: string; expectedSeq: number };
export const CHAIN_START: ChainCursor = { previous: GENESIS_HASH, expectedSeq: 1 };

/** Checks the next rows of a chain (oldest first); the broken link, or where to continue from. */
export function verifyChainPart(rows: AuditEventsTable[], from: ChainCursor): { brokenAtSeq: number; reason: string } | ChainCursor {
  let { previous, expectedSeq } = from;
  for (const row of rows) {
    if (row.seq !== expectedSeq) return { brokenAtSeq: expectedSeq, reason: "a row is missing" };
    if (row.prev_hash !== previous) return { brokenAtSeq: row.seq, reason: "prev_hash does not match" };
    if (hashAuditRow(row) !== row.hash) return { brokenAtSeq: row.seq, reason: "row content was altered" };
    previous = row.hash;
    expectedSeq += 1;
  }
  return { previous, expectedSeq };
}
