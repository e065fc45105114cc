import { LRUCache } from "lru-cache";

/**
 * `compute` remembered by its string key, for pure work repeated call after call on the hot path
 * (parsing a declared pointer, a base URL, judging a field name). Keys may come from callers or
 * upstreams, so memory is bounded twice: at most `maxEntries` (least recently used go first), and
 * keys longer than `maxKeyLength` are computed every time, never kept.
 */
export function memoizeByKey<V extends {}>(compute: (key: string) => V, { maxEntries = 10_000, maxKeyLength }: { maxEntries?: number; maxKeyLength: number }) {
  const remembered = new LRUCache<string, V>({ max: maxEntries });
  return (key: string): V => {
    let value = remembered.get(key);
    if (value === undefined) {
      value = compute(key);
      if (key.length <= maxKeyLength) remembered.set(key, value);
    }
    return value;
  };
}
