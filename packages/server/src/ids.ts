import { randomFillSync } from "node:crypto";
import { v7 } from "uuid";

declare const brand: unique symbol;
type Branded<T, B extends string> = T & { readonly [brand]: B };

export type TenantId = Branded<string, "TenantId">;
export type AgentAppId = Branded<string, "AgentAppId">;
export type ControlKeyId = Branded<string, "ControlKeyId">;

/** Random bytes for ids, drawn from the CSPRNG 4 KiB at a time rather than once per id. */
const RANDOM_POOL = new Uint8Array(4096);
let poolOffset = RANDOM_POOL.length;

function pooledRandom16(): Uint8Array {
  if (poolOffset === RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL);
    poolOffset = 0;
  }
  poolOffset += 16;
  return RANDOM_POOL.subarray(poolOffset - 16, poolOffset);
}

/**
 * UUIDv7 (RFC 9562): a millisecond timestamp then random bits. Rows written on the hot path get
 * ids that sort by time, so inserts append to the end of the primary-key index instead of
 * touching a random page each. uuid's own v7() asks the CSPRNG for 16 bytes per id (2–3 µs
 * against 0.3 µs from the pool, on the hot path's three ids per call), so it is given pooled
 * bytes, which it copies into the id at once.
 */
export function uuidv7(now = Date.now()): string {
  return v7({ msecs: now, rng: pooledRandom16 });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

export type TestOrLive = "test" | "live";
