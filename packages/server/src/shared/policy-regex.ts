/**
 * Policy regexes run on RE2 (re2js, a pure-JS port): matching is linear in the value for every
 * pattern, because RE2 has no backtracking and refuses the syntax that needs it (backreferences,
 * lookaround). Linear still has a constant: a pattern's per-character cost grows with the size of
 * its compiled program, so patterns, documents and matched values are all capped, which keeps one
 * evaluation of the largest allowed policy against the largest matched value to well under a second.
 */
import { RE2JS, RE2JSException } from "re2js";

/** Longer string values are never matched: a `regex` condition on them is undecided (see policy-engine). */
export const MAX_REGEX_VALUE_LENGTH = 10_000;
/** RE2 program instructions one pattern may compile to (`^[A-Za-z0-9_.-]{1,100}$` is about 200). */
export const MAX_REGEX_PROGRAM_SIZE = 1_000;
/** Program instructions all regexes of one policy document may compile to together. */
export const MAX_POLICY_PROGRAM_SIZE = 5_000;

export type PolicyRegex = { test(value: string): boolean; programSize: number };

/**
 * Compiles a pattern with RE2, or returns why it cannot be used. Case-insensitive matching uses
 * RE2's Unicode simple case folding (the `(?i)` flag).
 */
export function compilePolicyRegex(pattern: string, options: { caseInsensitive?: boolean } = {}): PolicyRegex | { error: string } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern, options.caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (error) {
    if (error instanceof RE2JSException) return { error: describeSyntaxError(error) };
    throw error;
  }
  const programSize = compiled.programSize();
  if (programSize > MAX_REGEX_PROGRAM_SIZE) {
    return { error: `compiles to ${programSize} RE2 instructions, over the limit of ${MAX_REGEX_PROGRAM_SIZE}; use smaller repeat counts` };
  }
  return { test: (value) => compiled.test(value), programSize };
}

/** RE2's own description ("invalid or unsupported Perl syntax: `(?=`"), which names the fault. */
function describeSyntaxError(error: RE2JSException): string {
  const description = error.message.replace(/^error parsing regexp: /, "");
  return `is not a valid RE2 regular expression (${description}); backreferences and lookaround are not supported`;
}
