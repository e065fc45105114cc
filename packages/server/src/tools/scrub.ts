/**
 * Results and error details leave the broker only through here. Values equal to (or containing)
 * a credential the call used are replaced, and fields whose names say "credential" are redacted,
 * at any depth.
 */
import { memoizeByKey } from "../shared/memo.js";

export const REDACTED = "[redacted]";

const CREDENTIAL_KEY = /(^|[_\-.])(token|access[_-]?token|refresh[_-]?token|id[_-]?token|secret|client[_-]?secret|password|passwd|authorization|api[_-]?key|apikey|cookie|set[_-]?cookie|private[_-]?key|credentials?|bearer|session)($|[_\-.])/i;
const CREDENTIAL_KEY_EXACT = /^(token|secret|password|authorization|auth|apikey|api_key|cookie|credentials?|x-api-key)$/i;

/** Results repeat the same few field names call after call: each name is judged once. */
export const isCredentialKey = memoizeByKey(
  (key) => CREDENTIAL_KEY_EXACT.test(key) || CREDENTIAL_KEY.test(key.replace(/([a-z])([A-Z])/g, "$1_$2")),
  { maxKeyLength: 64 },
);

/** Secrets shorter than this are not searched for inside longer strings (too many false hits). */
const MIN_SECRET_LENGTH = 6;

export function scrub(value: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof value === "string") return scrubString(value, secrets);
  if (value === null || typeof value !== "object") return value;
  if (depth > 64) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => scrub(item, secrets, depth + 1));
  const fields = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // for…in rather than Object.entries: no [key, value] array per field of every result.
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const child = fields[key];
    out[key] = isCredentialKey(key) && child !== null && child !== undefined && typeof child !== "boolean" ? REDACTED : scrub(child, secrets, depth + 1);
  }
  return out;
}

function scrubString(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    if (!secret) continue;
    if (result === secret) return REDACTED;
    if (secret.length >= MIN_SECRET_LENGTH && result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** Arguments as stored for people: credential-like fields redacted, nothing else changed. */
export const redactArguments = (args: unknown) => scrub(args, []);
