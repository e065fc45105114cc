import type { Clock } from "./clock.js";

/**
 * A small in-process cache whose entries expire after `ttlMs`. Used on the hot path for rows that
 * change rarely; the owner deletes an entry the moment it changes the row itself.
 */
export function createTtlCache<V>({ clock, ttlMs, maxEntries = 10_000 }: { clock: Clock; ttlMs: number; maxEntries?: number }) {
  const entries = new Map<string, { value: V; storedAt: number }>();
  return {
    get(key: string): V | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (clock.now().getTime() - entry.storedAt < ttlMs) return entry.value;
      entries.delete(key);
      return undefined;
    },
    set(key: string, value: V) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, storedAt: clock.now().getTime() });
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
