/**
 * Results and error details leave the broker only through here. Values equal to (or containing)
 * a credential the call used, in any encoding it travels in, are replaced, and fields whose names
 * say "credential" are redacted, at any depth.
 */
import { BrokerError } from "../errors.js";
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

/**
 * Values (strings, numbers, objects, arrays…) one scrubbed result may hold. Scrubbing walks each of
 * them (about a microsecond apiece when every field name is new), and serializing and storing the
 * result does again; so an answer of this many values holds the request thread for tens of
 * milliseconds at most, and a mapping that repeats the answer in every field is refused here
 * rather than copied two hundred times.
 */
export const MAX_RESULT_VALUES = 100_000;

type Budget = { left: number; limit: number };

const lowerHex = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
/** application/x-www-form-urlencoded, as URLSearchParams writes a query or a form. */
const formEncoded = (text: string) => new URLSearchParams({ x: text }).toString().slice(2);
/** As it appears inside a JSON string: escaped by JSON.stringify, with "/" escaped too (PHP) and non-ASCII as \u escapes. */
const jsonEscaped = (text: string) => JSON.stringify(text).slice(1, -1);
const asciiJsonEscaped = (text: string) => jsonEscaped(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

/**
 * Every form in which `secret` may come back from an API that quotes the request: raw,
 * percent-encoded (encodeURIComponent and form encoding, upper- and lower-case hex), JSON-escaped
 * and base64 (padded or not, standard or URL-safe alphabet, alone or as a Basic user name).
 * Computed once per credential of a call.
 */
export function encodingsOf(secret: string): string[] {
  const uri = encodeURIComponent(secret);
  const form = formEncoded(secret);
  const json = jsonEscaped(secret);
  const b64 = base64(secret);
  const b64url = b64.replace(/\+/g, "-").replace(/\//g, "_");
  // A key sent as the user name of Basic credentials with no password (Stripe's style).
  const asBasicUser = base64(`${secret}:`);
  return [secret, uri, lowerHex(uri), form, lowerHex(form), json, json.replace(/\//g, "\\/"), asciiJsonEscaped(secret), b64, b64.replace(/=+$/, ""), b64url, b64url.replace(/=+$/, ""), asBasicUser];
}

/** Basic credentials (RFC 7617, and RFC 6749 §2.3.1's form-encoded parts) as an Authorization header carries them. */
export const basicCredentialsOf = (user: string, secret: string) => [base64(`${user}:${secret}`), base64(`${formEncoded(user)}:${formEncoded(secret)}`)];

/**
 * The strings to scrub for a set of credentials: each in every encoding, without duplicates,
 * longest first (so a longer form is replaced whole before a shorter one inside it).
 */
export function scrubTargets(secrets: Iterable<string>): string[] {
  const targets = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of encodingsOf(secret)) targets.add(form);
  }
  return [...targets].sort((a, b) => b.length - a.length);
}

/**
 * `secrets`: the exact strings to find (see scrubTargets). `maxValues`: refuse a result of more
 * values than this with upstream_error (reason response_too_large).
 */
export function scrub(value: unknown, secrets: readonly string[], options: { maxValues?: number } = {}): unknown {
  return scrubValue(value, secrets, 0, options.maxValues === undefined ? undefined : { left: options.maxValues, limit: options.maxValues });
}

function scrubValue(value: unknown, secrets: readonly string[], depth: number, budget: Budget | undefined): unknown {
  if (budget && --budget.left < 0) throw resultTooLarge(budget.limit);
  if (typeof value === "string") return scrubString(value, secrets);
  if (value === null || typeof value !== "object") return value;
  if (depth > 64) return REDACTED;
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets, depth + 1, budget));
  const fields = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // for…in rather than Object.entries: no [key, value] array per field of every result.
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    const child = fields[key];
    out[key] = isCredentialKey(key) && child !== null && child !== undefined && typeof child !== "boolean" ? REDACTED : scrubValue(child, secrets, depth + 1, budget);
  }
  return out;
}

const resultTooLarge = (limit: number) =>
  new BrokerError("upstream_error", `the mapped upstream answer holds more than ${limit} values; no more are returned per call`, { reason: "response_too_large", limit });

function scrubString(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    // Most strings of a result are shorter than any credential: one comparison each.
    if (!secret || secret.length > result.length) continue;
    if (result === secret) return REDACTED;
    if (secret.length >= MIN_SECRET_LENGTH && result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** Arguments as stored for people: credential-like fields redacted, nothing else changed. */
export const redactArguments = (args: unknown) => scrub(args, []);
