/**
 * What an approver's edit changed, as JSON pointers with the values before and after: what the
 * agent is told and the console shows. Objects are compared key by key; arrays and other values
 * as a whole (a narrowed recipient list reads as one change from the old list to the new one).
 * People are shown `shownChanges`: found on the real arguments, valued from the redacted ones.
 */
import { canonicalJson } from "../shared/canonical-json.js";

export type ArgumentChange = { path: string; from?: unknown; to?: unknown };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");

export function argumentChanges(before: unknown, after: unknown, path = ""): ArgumentChange[] {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return keys.flatMap((key) => {
      const at = `${path}/${escape(key)}`;
      if (!(key in after)) return [{ path: at, from: before[key] }];
      if (!(key in before)) return [{ path: at, to: after[key] }];
      return argumentChanges(before[key], after[key], at);
    });
  }
  return canonicalJson(before) === canonicalJson(after) ? [] : [{ path: path || "/", from: before, to: after }];
}

const unescape = (segment: string) => segment.replace(/~1/g, "/").replace(/~0/g, "~");

/**
 * The value at `path` in a redacted copy. Redaction keeps every key but may replace a whole
 * credential-like object (or a too-deep one) with a marker: a path that leads into such a
 * replacement is shown as the replacement.
 */
function shownAt(shown: unknown, path: string): unknown {
  let node = shown;
  for (const key of path.split("/").slice(1).map(unescape)) {
    if (!isObject(node)) return node;
    node = node[key];
  }
  return node;
}

/**
 * The changes between the REAL arguments (so an edit of a credential-like field is never hidden:
 * both of its values redact to the same marker), with the values taken from the redacted copies.
 * A removed field keeps no `to`, an added one no `from`.
 */
export function shownChanges(before: unknown, after: unknown, shownBefore: unknown, shownAfter: unknown): ArgumentChange[] {
  return argumentChanges(before, after).map((change) => ({
    path: change.path,
    ...("from" in change ? { from: shownAt(shownBefore, change.path) } : {}),
    ...("to" in change ? { to: shownAt(shownAfter, change.path) } : {}),
  }));
}
