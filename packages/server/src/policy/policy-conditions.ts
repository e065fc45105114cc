/**
 * One condition of a policy rule, compiled once per policy version. A condition holds, fails, or
 * is undecided: a `regex` condition on a string longer than MAX_REGEX_VALUE_LENGTH, or whose stored
 * pattern RE2 cannot compile (written before patterns were checked with RE2), is never run; nor
 * is an `equals` or `one_of` comparison of a value that has no canonical JSON (see comparable).
 * policy-engine decides undecided rules in the restrictive direction.
 *
 * On an argument the tool marks case-insensitive (ToolDefinition.caseInsensitiveArguments), or
 * anywhere inside one, the condition compares the way the vendor does: strings are lower-cased on
 * both sides for equals, one_of and prefix, and the regex runs with RE2's case-insensitive flag.
 */
import { canonicalJson } from "../shared/canonical-json.js";
import type { PolicyCondition } from "./policy-document.js";
import { compilePolicyRegex, MAX_REGEX_VALUE_LENGTH, type PolicyRegex } from "../shared/policy-regex.js";

export type Truth = "holds" | "fails" | "undecided";

export type CompiledCondition = {
  pointer: string;
  evaluate(args: unknown, caseInsensitive: boolean): Truth;
};

export function readPointer(document: unknown, pointer: string): unknown {
  if (pointer === "") return document;
  let current: unknown = document;
  for (const raw of pointer.slice(1).split("/")) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (current === null || typeof current !== "object" || !Object.prototype.hasOwnProperty.call(current, token)) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** Whether `pointer` is one of the marked pointers or lies inside one of them. */
export function isWithin(pointer: string, marked: readonly string[]): boolean {
  return marked.some((field) => pointer === field || pointer.startsWith(`${field}/`));
}

/** Lower-cases every string in a JSON value (toLowerCase is locale-independent). */
function fold(value: unknown): unknown {
  if (typeof value === "string") return value.toLowerCase();
  if (Array.isArray(value)) return value.map(fold);
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fold(item)]));
  return value;
}

const truth = (holds: boolean): Truth => (holds ? "holds" : "fails");

/** A comparison compiled for both cases: `exact` on ordinary fields, `folded` on case-insensitive ones. */
function bothCases(pointer: string, build: (transform: (value: unknown) => unknown) => (value: unknown) => Truth): CompiledCondition {
  const exact = build((value) => value);
  const folded = build(fold);
  return { pointer, evaluate: (args, caseInsensitive) => (caseInsensitive ? folded : exact)(readPointer(args, pointer)) };
}

export function compileCondition(condition: PolicyCondition): CompiledCondition {
  const { pointer } = condition;
  if (condition.regex !== undefined) return compileRegexCondition(pointer, condition.regex);
  if (condition.prefix !== undefined) {
    const prefix = condition.prefix;
    return bothCases(pointer, (transform) => {
      const expected = transform(prefix) as string;
      return (value) => truth(typeof value === "string" && (transform(value) as string).startsWith(expected));
    });
  }
  const options = condition.one_of ?? [condition.equals];
  return bothCases(pointer, (transform) => {
    const expected = new Set(options.map((option) => comparable(transform(option))).filter((text) => text !== undefined));
    return (value) => {
      const text = comparable(transform(value));
      return text === undefined ? "undecided" : truth(expected.has(text));
    };
  });
}

/**
 * The canonical text of a value, or undefined when RFC 8785 has none: text with a lone UTF-16
 * surrogate. Requests cannot carry one (refused at the door), but a policy document or an
 * approval's arguments stored before that check may. Such an option equals nothing a request
 * can send, and such a value leaves the condition undecided, like an over-long regex value.
 */
function comparable(value: unknown): string | undefined {
  try {
    return canonicalJson(value);
  } catch {
    return undefined;
  }
}

function compileRegexCondition(pointer: string, pattern: string): CompiledCondition {
  const usable = (compiled: PolicyRegex | { error: string }) => ("error" in compiled ? undefined : compiled);
  const exact = usable(compilePolicyRegex(pattern));
  const folded = usable(compilePolicyRegex(pattern, { caseInsensitive: true }));
  return {
    pointer,
    evaluate(args, caseInsensitive) {
      const value = readPointer(args, pointer);
      if (typeof value !== "string") return "fails";
      const regex = caseInsensitive ? folded : exact;
      if (!regex || value.length > MAX_REGEX_VALUE_LENGTH) return "undecided";
      return truth(regex.test(value));
    },
  };
}
