import { describe, expect, it } from "vitest";
import { manualClock } from "./clock.js";
import { createTtlCache } from "./ttl-cache.js";

describe("createTtlCache", () => {
  it("trusts an entry for less than ttlMs by the injected clock, then forgets it", () => {
    const clock = manualClock();
    const cache = createTtlCache<{ id: string }>({ clock, ttlMs: 2_000 });
    cache.set("k", { id: "a" });
    clock.advance(1_999);
    expect(cache.get("k")).toEqual({ id: "a" });
    clock.advance(1);
    expect(cache.get("k")).toBeUndefined();
  });

  it("starts the window again when an entry is set again, not when it is read", () => {
    const clock = manualClock();
    const cache = createTtlCache<{ id: string }>({ clock, ttlMs: 2_000 });
    cache.set("k", { id: "a" });
    clock.advance(1_500);
    expect(cache.get("k")).toEqual({ id: "a" });
    clock.advance(500);
    expect(cache.get("k")).toBeUndefined();
    cache.set("k", { id: "b" });
    clock.advance(1_999);
    expect(cache.get("k")).toEqual({ id: "b" });
  });

  it("forgets an entry its owner deletes at once", () => {
    const cache = createTtlCache<{ id: string }>({ clock: manualClock(), ttlMs: 2_000 });
    cache.set("k", { id: "a" });
    cache.delete("k");
    expect(cache.get("k")).toBeUndefined();
  });

  it("holds at most maxEntries, dropping the least recently used", () => {
    const cache = createTtlCache<{ id: string }>({ clock: manualClock(), ttlMs: 2_000, maxEntries: 2 });
    cache.set("a", { id: "a" });
    cache.set("b", { id: "b" });
    cache.get("a");
    cache.set("c", { id: "c" });
    expect([cache.get("a"), cache.get("b"), cache.get("c")]).toEqual([{ id: "a" }, undefined, { id: "c" }]);
  });
});
