/**
 * When a failed channel delivery is tried again, when it is given up, and what of the failure is
 * kept. Pure functions, so the schedule is tested without a channel.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;

/** Delay after failed attempt n (index n - 1): 10 s, 1 min, 5 min, 15 min, 30 min, then hourly. */
export const RETRY_DELAYS_MS = [10 * SECOND, MINUTE, 5 * MINUTE, 15 * MINUTE, 30 * MINUTE, 60 * MINUTE] as const;
/** After this many failed attempts a delivery is given up; the approval stays in the console. */
export const MAX_DELIVERY_ATTEMPTS = 8;
/** Each delay is spread by ±10% so that many failing deliveries do not retry in lockstep. */
const JITTER_RATIO = 0.1;
/** How much of a failure's message is kept in `last_error`. */
export const MAX_ERROR_LENGTH = 300;

/** When to try again after failed attempt `attempts` (1 for the first). */
export function retryAt(now: Date, attempts: number, random: () => number): Date {
  const base: number = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1]!;
  return new Date(now.getTime() + Math.round(base * (1 + JITTER_RATIO * (2 * random() - 1))));
}

// Credentials a channel's error might echo: a URL's user:password, a bearer token, Slack tokens.
const SECRET_SHAPES: [RegExp, string][] = [
  [/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*:[^/\s@]*@/gi, "$1[redacted]@"],
  [/\b(bearer|basic)\s+[^\s,;]+/gi, "$1 [redacted]"],
  [/\bxox[a-z]-[A-Za-z0-9-]+/g, "[redacted]"],
  [/\b(password|passwd|pass|secret|token|api[_-]?key)(["']?\s*[=:]\s*["']?)[^\s"',;&]+/gi, "$1$2[redacted]"],
];

/**
 * A failure as `last_error` and the log show it: its message without anything credential-shaped,
 * on one line, cut short. Channels word their own failures without secrets; this is the net below.
 */
export function failureText(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "the channel failed";
  let text = message.replace(/\s+/g, " ").trim() || "the channel failed";
  for (const [shape, replacement] of SECRET_SHAPES) text = text.replace(shape, replacement);
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
