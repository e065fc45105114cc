import { LRUCache } from "lru-cache";
import type { Clock } from "./clock.js";

/**
 * A small in-process cache whose entries expire `ttlMs` after they were set. Used on the hot path
 * for rows that change rarely; the owner deletes an entry the moment it changes the row itself.
 * Past `maxEntries` the least recently used entry goes.
 */
export function createTtlCache<V extends {}>({ clock, ttlMs, maxEntries = 10_000 }: { clock: Clock; ttlMs: number; maxEntries?: number }) {
  if (!Number.isInteger(ttlMs) || ttlMs < 2) throw new RangeError(`ttlMs must be a whole number of milliseconds of at least 2, not ${ttlMs}`);
  const entries = new LRUCache<string, V>({
    max: maxEntries,
    // lru-cache serves an entry until its age exceeds `ttl`; ours end when the age reaches ttlMs,
    // and the clock counts whole milliseconds.
    ttl: ttlMs - 1,
    // Time from the injected clock, read on every check (the default caches it for 1 ms behind a timer).
    perf: { now: () => clock.now().getTime() },
    ttlResolution: 0,
  });
  return {
    get: (key: string): V | undefined => entries.get(key),
    set(key: string, value: V) {
      entries.set(key, value);
    },
    delete(key: string) {
      entries.delete(key);
    },
  };
}

/** Writing `last_used_at` on every call would put a write on the hot path; once a minute is enough. */
export const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Runs `write` for a key at most once per LAST_USED_RESOLUTION_MS. `storedAt` is the time the
 * row already records, so a process that just started does not rewrite a fresh value.
 */
export function createLastUsedRecorder({ clock, write }: { clock: Clock; write: (key: string, at: string) => Promise<unknown> }) {
  const written = new Map<string, number>();
  return async (key: string, storedAt?: string | null) => {
    const now = clock.now().getTime();
    const last = Math.max(written.get(key) ?? 0, storedAt ? Date.parse(storedAt) : 0);
    if (now - last < LAST_USED_RESOLUTION_MS) return;
    written.set(key, now);
    await write(key, new Date(now).toISOString());
  };
}
