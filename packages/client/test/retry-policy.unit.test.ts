/** The arithmetic behind the client's retries: Retry-After parsing and bounded, jittered backoff. */
import { describe, expect, it } from "vitest";
import { backoffDelay, DEFAULT_RETRY, parseRetryAfter, retryPolicy, sleep } from "../src/retry.js";

describe("retry policy", () => {
  it("reads Retry-After as delta-seconds or as an HTTP date", () => {
    const now = Date.parse("2026-01-15T12:00:00Z");
    expect(parseRetryAfter("7", now)).toBe(7_000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Thu, 15 Jan 2026 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Thu, 15 Jan 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it("doubles the backoff per retry within [half, whole] of its ceiling, capped at maxDelayMs", () => {
    const policy = retryPolicy({ baseDelayMs: 100, maxDelayMs: 1_000 });
    expect([1, 2, 3].map((retry) => backoffDelay(retry, policy, () => 0))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((retry) => backoffDelay(retry, policy, () => 1))).toEqual([100, 200, 400]);
    expect(backoffDelay(10, policy, () => 1)).toBe(1_000);
  });

  it("fills in defaults and refuses negative or non-numeric settings", () => {
    expect(retryPolicy(undefined)).toEqual(DEFAULT_RETRY);
    expect(retryPolicy({ maxRetries: 0, baseDelayMs: undefined })).toEqual({ ...DEFAULT_RETRY, maxRetries: 0 });
    expect(() => retryPolicy({ maxRetries: -1 })).toThrow(/maxRetries/);
    expect(() => retryPolicy({ maxDelayMs: Number.NaN })).toThrow(/maxDelayMs/);
  });

  it("sleeps until aborted, rejecting with the signal's reason", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    const waiting = sleep(10_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(sleep(1, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});
