/**
 * When to retry, when to give up and when to disable an endpoint. Pure functions of an attempt's
 * result and the clock, so the schedule can be tested without a network.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Delay before attempt n+1 (index n): immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_SCHEDULE_MS = [0, 5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;
/** Each delay is spread by ±10% so that retries of many messages do not arrive in lockstep. */
export const JITTER_RATIO = 0.1;
/** A Retry-After longer than this is capped: a receiver cannot park a message for days. */
export const MAX_RETRY_AFTER_MS = DAY;

/** An endpoint is disabled when no attempt has succeeded for this long and ... */
export const DISABLE_AFTER_FAILING_MS = 5 * DAY;
/** ... at least this many attempts in a row have failed. */
export const DISABLE_AFTER_CONSECUTIVE_FAILURES = 10;

export type SendResult =
  | { kind: "response"; status: number; retryAfterMs: number | undefined; latencyMs: number }
  | { kind: "error"; error: string; latencyMs: number };

export type Verdict = "succeeded" | "retryable" | "failed" | "gone";

/** 2xx succeeds; 410 means the endpoint is gone; 408, 429, 5xx and network errors are retried. */
export function classify(result: SendResult): Verdict {
  if (result.kind === "error") return "retryable";
  const { status } = result;
  if (status >= 200 && status < 300) return "succeeded";
  if (status === 410) return "gone";
  if (status === 408 || status === 429 || status >= 500) return "retryable";
  return "failed";
}

/** The jittered delay between attempt `attemptNumber` and the next one. */
export function retryDelayMs(attemptNumber: number, random: () => number): number {
  const base: number = RETRY_SCHEDULE_MS[Math.min(attemptNumber, MAX_ATTEMPTS - 1)]!;
  return Math.round(base * (1 + JITTER_RATIO * (2 * random() - 1)));
}

/** The schedule's delay, or the receiver's Retry-After when that is longer. */
export function nextAttemptAt(now: Date, attemptNumber: number, retryAfterMs: number | undefined, random: () => number): Date {
  const scheduled = retryDelayMs(attemptNumber, random);
  const asked = retryAfterMs === undefined ? 0 : Math.min(retryAfterMs, MAX_RETRY_AFTER_MS);
  return new Date(now.getTime() + Math.max(scheduled, asked));
}

/** `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3); anything else is ignored. */
export function parseRetryAfter(value: string | string[] | undefined, now: Date): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  const trimmed = raw.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND;
  // An HTTP date names its day and month; "-5" or "1.5" are not dates, whatever Date.parse thinks.
  if (!/^[A-Za-z]{3}, /.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now.getTime());
}

export type FailureStreak = { failingSince: string | null; consecutiveFailures: number };

/** The long-failure rule: see DISABLE_AFTER_* above and docs/webhooks.md. */
export function failingTooLong(streak: FailureStreak, now: Date): boolean {
  if (!streak.failingSince || streak.consecutiveFailures < DISABLE_AFTER_CONSECUTIVE_FAILURES) return false;
  return now.getTime() - new Date(streak.failingSince).getTime() >= DISABLE_AFTER_FAILING_MS;
}
