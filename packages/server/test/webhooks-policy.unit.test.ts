/** The pure parts of delivery: signatures the official library accepts, classification, Retry-After. */
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { classify, failingTooLong, nextAttemptAt, parseRetryAfter, RETRY_SCHEDULE_MS } from "../src/webhooks/retry-policy.js";
import { generateSigningSecret, sign, signedHeaders } from "../src/webhooks/signing.js";

describe("signing", () => {
  it("produces the signature the official standardwebhooks library computes", () => {
    const secret = generateSigningSecret();
    const at = new Date("2026-03-01T10:00:00.000Z");
    const body = JSON.stringify({ type: "webhook.test", timestamp: at.toISOString(), data: { ü: "✓" } });
    expect(sign(secret, "msg_1", Math.floor(at.getTime() / 1000), body)).toBe(new Webhook(secret).sign("msg_1", at, body));
  });

  it("puts one space-separated v1 signature per secret, newest first", () => {
    const [a, b] = [generateSigningSecret(), generateSigningSecret()];
    const headers = signedHeaders([a, b], "msg_2", new Date(1_700_000_000_000), "{}");
    expect(headers["webhook-timestamp"]).toBe("1700000000");
    expect(headers["webhook-signature"].split(" ")).toEqual([sign(a, "msg_2", 1_700_000_000, "{}"), sign(b, "msg_2", 1_700_000_000, "{}")]);
  });

  it("generates distinct secrets of 32 random bytes", () => {
    const secrets = new Set(Array.from({ length: 50 }, generateSigningSecret));
    expect(secrets.size).toBe(50);
    for (const secret of secrets) expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
  });
});

describe("retry policy", () => {
  const response = (status: number) => ({ kind: "response" as const, status, retryAfterMs: undefined, latencyMs: 1 });

  it("classifies 2xx as success, 410 as gone, 408/429/5xx and network errors as retryable, the rest as failed", () => {
    expect([200, 201, 204, 299].map((s) => classify(response(s)))).toEqual(Array(4).fill("succeeded"));
    expect(classify(response(410))).toBe("gone");
    expect([408, 429, 500, 503, 599].map((s) => classify(response(s)))).toEqual(Array(5).fill("retryable"));
    expect([301, 302, 400, 401, 404, 409, 422].map((s) => classify(response(s)))).toEqual(Array(7).fill("failed"));
    expect(classify({ kind: "error", error: "timed out after 10000 ms", latencyMs: 10_000 })).toBe("retryable");
  });

  it("spreads each delay by at most ±10%", () => {
    const now = new Date(0);
    for (const [attempt, base] of RETRY_SCHEDULE_MS.entries()) {
      if (attempt === 0) continue;
      expect(nextAttemptAt(now, attempt, undefined, () => 0).getTime()).toBe(Math.round(base * 0.9));
      expect(nextAttemptAt(now, attempt, undefined, () => 0.5).getTime()).toBe(base);
      expect(nextAttemptAt(now, attempt, undefined, () => 1).getTime()).toBe(Math.round(base * 1.1));
    }
  });

  it("reads Retry-After as seconds or an HTTP date and ignores anything else", () => {
    const now = new Date("2026-01-15T12:00:00.000Z");
    expect(parseRetryAfter("30", now)).toBe(30_000);
    expect(parseRetryAfter("Thu, 15 Jan 2026 12:10:00 GMT", now)).toBe(600_000);
    expect(parseRetryAfter("Thu, 15 Jan 2026 11:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter("-5", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("disables only after 5 days of failures and at least 10 in a row", () => {
    const since = "2026-01-01T00:00:00.000Z";
    const fiveDays = new Date("2026-01-06T00:00:00.000Z");
    expect(failingTooLong({ failingSince: since, consecutiveFailures: 10 }, fiveDays)).toBe(true);
    expect(failingTooLong({ failingSince: since, consecutiveFailures: 9 }, fiveDays)).toBe(false);
    expect(failingTooLong({ failingSince: since, consecutiveFailures: 50 }, new Date(fiveDays.getTime() - 1))).toBe(false);
    expect(failingTooLong({ failingSince: null, consecutiveFailures: 50 }, fiveDays)).toBe(false);
  });
});
