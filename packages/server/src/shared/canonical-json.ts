/**
 * JSON Canonicalization Scheme (RFC 8785) of the values the broker compares and fingerprints:
 * object keys sorted by UTF-16 code unit at every depth, numbers and strings as ECMAScript's
 * JSON.stringify writes them. Fingerprints are stored (approvals.arguments_fingerprint,
 * idempotency keys), so this form must never change; canonical-json.unit.test.ts pins it.
 *
 * The library refuses what I-JSON excludes: NaN, ±Infinity and strings with a lone UTF-16
 * surrogate. A request can carry a non-finite number (JSON.parse reads `1e999` as Infinity):
 * such a value is written as JSON.stringify writes it, `null`, as the form always has. Lone
 * surrogates never arrive: the storable-text check (http/storable-text.ts) refuses them in every
 * body, at any depth, before validation.
 */
import { hash } from "node:crypto";
import canonicalize from "canonicalize";

/** The canonical text of a JSON value; `undefined` (what a policy reads at a missing pointer) gives "null". */
export function canonicalJson(value: unknown): string {
  try {
    return canonicalize(value) ?? "null";
  } catch (error) {
    if (!(error instanceof Error) || !/not allowed/.test(error.message)) throw error;
    // Rare (a number out of range): one round trip through JSON.stringify turns it into null.
    return canonicalize(JSON.parse(JSON.stringify(value))) ?? "null";
  }
}

/** SHA-256 (hex) of the canonical text: ignores key order and whitespace. */
export const fingerprint = (value: unknown) => hash("sha256", canonicalJson(value), "hex");
